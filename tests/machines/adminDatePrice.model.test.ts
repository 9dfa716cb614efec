import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import type { DatePrice, PriceGrid } from '../../machines/adminConsole.actors.ts';
import {
  addMonths,
  adminDatePriceMachine,
  datePriceOf,
  datePriceProblems,
  monthWeeks,
  shownDatePriceProblems,
} from '../../machines/adminDatePrice.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof adminDatePriceMachine>;

const CHRISTMAS: DatePrice = {
  date: '2026-12-25',
  day_price_eur: 20,
  bands: [{ from: '18:00', to: '22:00', price_eur: 30 }],
};
const GRID: PriceGrid = {
  branch_id: 1,
  default_price_eur: 15,
  bands: [],
  min_and_max_price_eur: [15, 30],
  dated: [],
  by_date: [CHRISTMAS],
};

describe('prices calendar, its reading of the fields and of the month', () => {
  it('reads a date price only when the day price, each band and their hours make one', () => {
    expect(
      datePriceOf({
        dayPrice: '12,50',
        bands: [{ from: '7:00', to: '09:00', price: '20' }],
      }),
    ).toEqual({ day_price_eur: 12.5, bands: [{ from: '07:00', to: '09:00', price_eur: 20 }] });
    expect(datePriceProblems({ dayPrice: '', bands: [] })).toEqual({ dayPrice: 'missing' });
    expect(datePriceProblems({ dayPrice: 'doze', bands: [] })).toEqual({ dayPrice: 'invalid' });
    expect(
      datePriceProblems({
        dayPrice: '10',
        bands: [
          { from: '18:00', to: '22:00', price: '30' },
          { from: '21:00', to: '23:00', price: '25' },
          { from: '10:00', to: '09:00', price: 'x' },
        ],
      }),
    ).toEqual({ 'bands.1.from': 'overlap', 'bands.2.to': 'not-after-start', 'bands.2.price': 'invalid' });
  });

  it('draws a month from Monday, with the months before and after', () => {
    const december = monthWeeks('2026-12');
    // 1 December 2026 is a Tuesday.
    expect(december[0]).toEqual([
      null,
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
    ]);
    expect(december.flat().filter(Boolean)).toHaveLength(31);
    expect(december.every((week) => week.length === 7)).toBe(true);
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2027-01', -1)).toBe('2026-12');
    expect(monthWeeks('2027-02').flat().filter(Boolean)).toHaveLength(28);
  });
});

// The owner moving through months, choosing a date without a price and one with, typing, saving, removing; the
// server's answers.
const EVENTS = [
  { type: 'month.change', step: 1 },
  { type: 'date.choose', date: '2026-12-24', price: undefined },
  { type: 'date.choose', date: '2026-12-25', price: CHRISTMAS },
  { type: 'field.change', patch: { dayPrice: '25' } },
  { type: 'band.add' },
  { type: 'band.change', index: 0, patch: { from: '18:00', to: '20:00', price: '30' } },
  { type: 'band.remove', index: 0 },
  { type: 'price.save' },
  { type: 'price.remove' },
  { type: 'date.close' },
  ...['setDatePrice', 'removeDatePrice'].flatMap((call) => [
    { type: `xstate.done.actor.${call}`, output: GRID },
    { type: `xstate.error.actor.${call}`, error: new ApiError('validation_failed', 'Pedido inválido.') },
    { type: `xstate.error.actor.${call}`, error: new ApiError('unauthorized', 'Sessão terminada.') },
  ]),
] as unknown as Event[];

const coverage = coverageOf(adminDatePriceMachine);
afterAll(() => coverage.save());

describe('prices calendar machine, model-based', () => {
  const input = { branchId: 1, month: '2026-11' };
  const paths = generatePaths(adminDatePriceMachine, {
    // One band at most, and the months next to the first: the graph stays finite.
    events: (state) =>
      EVENTS.filter(
        (event) =>
          !(event.type === 'band.add' && state.context.fields.bands.length > 0) &&
          !(event.type === 'month.change' && state.context.month !== '2026-11'),
      ),
    input,
    maxStatesForSimplePaths: 0,
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.month,
        state.context.date,
        state.context.stored,
        state.context.fields,
        state.context.checked,
      ]),
  });
  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const calls: { id: string; input: { date: string; price?: unknown } }[] = [];
      await replayPath(adminDatePriceMachine, path, {
        scripted: ['setDatePrice', 'removeDatePrice'],
        input,
        coverage,
        provide: { actions: { saved: () => {}, sessionEnded: () => {} } },
        onCall: (id, callInput) => calls.push({ id, input: callInput as { date: string; price?: unknown } }),
        check: (snapshot, step) => {
          const { context } = snapshot;
          const type = step.event.type as string;
          // Nothing is sent without a date, nor a price with a problem; a removal only for a date that has one.
          for (const call of calls) expect(call.input.date).toMatch(/^2026-12-2[45]$/);
          if (snapshot.matches('saving')) expect(datePriceOf(context.fields)).not.toBeNull();
          if (type === 'price.save' && snapshot.matches('editing') && context.date !== null)
            expect(shownDatePriceProblems(context)).toEqual(datePriceProblems(context.fields));
          // A date price removed leaves an empty form for that date, and nothing left to remove.
          if (type === 'xstate.done.actor.removeDatePrice') {
            expect(context.stored).toBe(false);
            expect(context.fields).toEqual({ dayPrice: '', bands: [] });
          }
          if (type === 'xstate.done.actor.setDatePrice') expect(context.stored).toBe(true);
          if (context.date === null) expect(context.checked).toBe(false);
        },
      });
    });
  }
});

describe('prices calendar machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
