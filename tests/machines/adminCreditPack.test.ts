import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type {
  AdminCreditPack,
  AdminCreditPackCreate,
  AdminCreditPackUpdate,
} from '../../machines/adminConsole.actors.ts';
import {
  adminCreditPackMachine,
  creditPackChanges,
  creditPackOf,
  creditPackProblems,
  EMPTY_CREDIT_PACK,
  fieldsOfPack,
  shownProblems,
  timeOf,
  type CreditPackFields,
} from '../../machines/adminCreditPack.machine.ts';
import { ApiError } from '../../machines/api.ts';

const PACK: AdminCreditPack = {
  id: 7,
  name: '10 horas',
  branch: { id: 1, name: 'Centro' },
  all_branches: false,
  unit: 'hours',
  credit: 10,
  price_eur: 90,
  validity_days: 90,
  weekdays: null,
  from_time: null,
  to_time: null,
  active: true,
  sold: 2,
};
const VALID: CreditPackFields = {
  ...EMPTY_CREDIT_PACK,
  name: 'Manhãs',
  branchId: '2',
  credit: '2,5',
  price: '19,90',
  validityDays: '30',
};

function start(pack: AdminCreditPack | null, answer: (input: unknown) => Promise<AdminCreditPack>) {
  const asked: unknown[] = [];
  const events = { saved: 0, sessionEnded: 0 };
  const call = (input: unknown) => {
    asked.push(input);
    return answer(input);
  };
  const actor = createActor(
    adminCreditPackMachine.provide({
      actors: {
        createPack: fromPromise<AdminCreditPack, AdminCreditPackCreate>(({ input }) => call(input)),
        updatePack: fromPromise<AdminCreditPack, { id: number; update: AdminCreditPackUpdate }>(({ input }) =>
          call(input),
        ),
      },
      actions: { saved: () => void events.saved++, sessionEnded: () => void events.sessionEnded++ },
    }),
    { input: { pack } },
  ).start();
  const fill = (patch: Partial<CreditPackFields>) => actor.send({ type: 'field.change', patch });
  return { actor, asked, events, fill };
}

describe('credit pack form', () => {
  it('reads a pack from the fields: numbers with a comma or a point, weekdays in order, times as HH:MM', () => {
    expect(
      creditPackOf({ ...VALID, weekdays: [5, 1, 3], fromTime: '7:00', toTime: '24:00', allBranches: true }),
    ).toEqual({
      name: 'Manhãs',
      branch_id: 2,
      all_branches: true,
      unit: 'hours',
      credit: 2.5,
      price_eur: 19.9,
      validity_days: 30,
      weekdays: [1, 3, 5],
      from_time: '07:00',
      to_time: '24:00',
    });
    expect(creditPackOf({ ...VALID, unit: 'eur', credit: '12.34' })).toMatchObject({ credit: 12.34 });
    expect(creditPackOf({ ...VALID, name: '' })).toBeNull();
    expect(timeOf('07h30')).toBe('07:30');
    expect(timeOf('24:30')).toBeNull();
  });

  it('names each field’s problem', () => {
    expect(creditPackProblems(EMPTY_CREDIT_PACK)).toEqual({
      name: 'missing',
      branchId: 'missing',
      credit: 'missing',
      price: 'missing',
      validityDays: 'missing',
    });
    expect(creditPackProblems({ ...VALID, name: 'x'.repeat(81) })).toEqual({ name: 'too-long' });
    expect(creditPackProblems({ ...VALID, credit: '0' })).toEqual({ credit: 'not-positive' });
    expect(creditPackProblems({ ...VALID, credit: '-1' })).toEqual({ credit: 'not-positive' });
    expect(creditPackProblems({ ...VALID, credit: 'dez' })).toEqual({ credit: 'invalid' });
    expect(creditPackProblems({ ...VALID, credit: '1,1' })).toEqual({ credit: 'not-quarters' });
    expect(creditPackProblems({ ...VALID, credit: '1001' })).toEqual({ credit: 'too-large' });
    expect(creditPackProblems({ ...VALID, unit: 'eur', credit: '1001' })).toEqual({});
    expect(creditPackProblems({ ...VALID, unit: 'eur', credit: '0,005' })).toEqual({ credit: 'not-cents' });
    expect(creditPackProblems({ ...VALID, price: '100000,01' })).toEqual({ price: 'too-large' });
    expect(creditPackProblems({ ...VALID, validityDays: '0' })).toEqual({ validityDays: 'invalid' });
    expect(creditPackProblems({ ...VALID, validityDays: '1,5' })).toEqual({ validityDays: 'invalid' });
    expect(creditPackProblems({ ...VALID, fromTime: '18:00' })).toEqual({ toTime: 'missing' });
    expect(creditPackProblems({ ...VALID, toTime: '18:00' })).toEqual({ fromTime: 'missing' });
    expect(creditPackProblems({ ...VALID, fromTime: '18:00', toTime: '18:00' })).toEqual({
      toTime: 'not-after-start',
    });
    expect(creditPackProblems({ ...VALID, fromTime: '9', toTime: '18:00' })).toEqual({ fromTime: 'invalid' });
  });

  it('sends only what changed of a stored pack', () => {
    expect(creditPackChanges(PACK, fieldsOfPack(PACK))).toEqual({});
    expect(
      creditPackChanges(PACK, { ...fieldsOfPack(PACK), price: '85', weekdays: [6, 7], name: ' 10 horas ' }),
    ).toEqual({ price_eur: 85, weekdays: [6, 7] });
    expect(
      creditPackChanges(
        { ...PACK, weekdays: [1], from_time: '07:00', to_time: '10:00' },
        { ...fieldsOfPack(PACK), weekdays: [], fromTime: '', toTime: '' },
      ),
    ).toEqual({ weekdays: null, from_time: null, to_time: null });
  });

  it('shows problems of the fields left, then all of them when a save is asked, and sends nothing', () => {
    const { actor, asked, fill } = start(null, async () => PACK);
    fill({ credit: '0' });
    actor.send({ type: 'field.leave', field: 'credit' });
    expect(shownProblems(actor.getSnapshot().context)).toEqual({ credit: 'not-positive' });
    expect(actor.getSnapshot().can({ type: 'pack.save' })).toBe(true);
    actor.send({ type: 'pack.save' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(Object.keys(shownProblems(actor.getSnapshot().context))).toEqual([
      'name',
      'branchId',
      'credit',
      'price',
      'validityDays',
    ]);
    expect(asked).toEqual([]);
  });

  it('creates a new pack, then empties the form and reports it', async () => {
    const { actor, asked, events, fill } = start(null, async () => PACK);
    fill(VALID);
    actor.send({ type: 'field.leave', field: 'name' });
    actor.send({ type: 'pack.save' });
    expect(actor.getSnapshot().matches('creating')).toBe(true);
    await waitFor(actor, (state) => state.matches('editing'));
    expect(asked).toEqual([creditPackOf(VALID)]);
    expect(actor.getSnapshot().context).toMatchObject({
      fields: EMPTY_CREDIT_PACK,
      touched: [],
      checked: false,
      error: null,
    });
    expect(events.saved).toBe(1);
  });

  it('saves a stored pack’s changes only when there are some, then shows the pack as stored', async () => {
    const stored = { ...PACK, price_eur: 80 };
    const { actor, asked, events, fill } = start(PACK, async () => stored);
    expect(actor.getSnapshot().can({ type: 'pack.save' })).toBe(false);
    fill({ price: '80' });
    actor.send({ type: 'pack.save' });
    expect(actor.getSnapshot().matches('updating')).toBe(true);
    await waitFor(actor, (state) => state.matches('editing'));
    expect(asked).toEqual([{ id: 7, update: { price_eur: 80 } }]);
    expect(actor.getSnapshot().context.pack).toEqual(stored);
    expect(actor.getSnapshot().context.fields.price).toBe('80');
    expect(events.saved).toBe(1);
  });

  it('keeps a refusal with its sentence and the fields as typed; an ended session is reported', async () => {
    let code = 'branch_not_found' as 'branch_not_found' | 'unauthorized';
    const { actor, events, fill } = start(null, async () => {
      throw new ApiError(code, 'Filial não encontrada.');
    });
    fill(VALID);
    actor.send({ type: 'pack.save' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(actor.getSnapshot().context.error).toEqual({ text: 'Filial não encontrada.' });
    expect(actor.getSnapshot().context.fields).toEqual(VALID);
    code = 'unauthorized';
    actor.send({ type: 'pack.save' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(events).toEqual({ saved: 0, sessionEnded: 1 });
  });
});
