import { assign } from 'xstate';
import { eurosToCents } from './adminCancel.machine.ts';
import type { DatePrice, DatePriceInput, PriceGrid } from './adminConsole.actors.ts';
import { timeOf } from './adminCreditPack.machine.ts';
import { failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { machineTypes } from './machine-types.ts';
import { placeholder } from './placeholder.ts';

/** A band of a date's price as the owner types it: local times ('18:00') and euros ('25,50'). */
export type DateBandFields = { from: string; to: string; price: string };

/** A date's price as typed: the day's price, and the hours priced otherwise (none: the whole day). */
export type DatePriceFields = { dayPrice: string; bands: DateBandFields[] };

/** What is wrong with a field: empty, not an amount or a time, a band ending at or before its start, overlapping. */
export type DatePriceProblem = 'missing' | 'invalid' | 'not-after-start' | 'overlap';

/** Problems by field: `dayPrice`, or `bands.<index>.<from|to|price>`. */
export type DatePriceProblems = Record<string, DatePriceProblem>;

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

export function datePriceProblems(fields: DatePriceFields): DatePriceProblems {
  const problems: DatePriceProblems = {};
  if (fields.dayPrice.trim() === '') problems.dayPrice = 'missing';
  else if (eurosToCents(fields.dayPrice) === null) problems.dayPrice = 'invalid';
  const spans: { index: number; from: number; to: number }[] = [];
  fields.bands.forEach((band, index) => {
    const from = timeOf(band.from);
    const to = timeOf(band.to);
    if (from === null || from === '24:00')
      problems[`bands.${index}.from`] = band.from.trim() ? 'invalid' : 'missing';
    if (to === null) problems[`bands.${index}.to`] = band.to.trim() ? 'invalid' : 'missing';
    else if (from !== null && minutes(to) <= minutes(from)) problems[`bands.${index}.to`] = 'not-after-start';
    if (eurosToCents(band.price) === null)
      problems[`bands.${index}.price`] = band.price.trim() ? 'invalid' : 'missing';
    if (from !== null && to !== null && minutes(to) > minutes(from))
      spans.push({ index, from: minutes(from), to: minutes(to) });
  });
  spans.sort((a, b) => a.from - b.from);
  spans.forEach((span, position) => {
    const previous = spans[position - 1];
    if (previous && span.from < previous.to) problems[`bands.${span.index}.from`] = 'overlap';
  });
  return problems;
}

const hasProblems = (fields: DatePriceFields) => Object.keys(datePriceProblems(fields)).length > 0;

/** The price the fields say, as the contract takes it, or null while they have a problem. */
export function datePriceOf(fields: DatePriceFields): DatePriceInput | null {
  if (hasProblems(fields)) return null;
  return {
    day_price_eur: eurosToCents(fields.dayPrice)! / 100,
    bands: fields.bands.map((band) => ({
      from: timeOf(band.from)!,
      to: timeOf(band.to)!,
      price_eur: eurosToCents(band.price)! / 100,
    })),
  };
}

const euros = (value: number) => String(value).replace('.', ',');

/** A date's stored price as its fields; an empty form for a date without one. */
export function fieldsOfDatePrice(price: DatePrice | undefined): DatePriceFields {
  if (!price) return { dayPrice: '', bands: [] };
  return {
    dayPrice: euros(price.day_price_eur),
    bands: price.bands.map((band) => ({ from: band.from, to: band.to, price: euros(band.price_eur) })),
  };
}

/** The month shown, `YYYY-MM`, moved by `step` months. */
export function addMonths(month: string, step: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + step;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The weeks of a month as the calendar draws them: ISO dates from Monday on, null outside the month. */
export function monthWeeks(month: string): (string | null)[][] {
  const year = Number(month.slice(0, 4));
  const monthIndex = Number(month.slice(5, 7)) - 1;
  const days = new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
  // getUTCDay: 0 is Sunday; the calendar's weeks start on Monday.
  const lead = (new Date(Date.UTC(year, monthIndex, 1)).getUTCDay() + 6) % 7;
  const cells: (string | null)[] = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: days }, (_, day) => `${month}-${String(day + 1).padStart(2, '0')}`),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

export type AdminDatePriceContext = {
  branchId: number;
  /** The month shown, `YYYY-MM`. */
  month: string;
  /** The date being priced, `YYYY-MM-DD`; null while none is chosen. */
  date: string | null;
  /** Whether the date chosen has a price of its own (it may be removed). */
  stored: boolean;
  fields: DatePriceFields;
  /** A save was asked with problems: every problem shows. */
  checked: boolean;
  error: Feedback | null;
};

export type AdminDatePriceEvent =
  | { type: 'month.change'; step: number }
  | { type: 'date.choose'; date: string; price: DatePrice | undefined }
  | { type: 'field.change'; patch: Partial<Pick<DatePriceFields, 'dayPrice'>> }
  | { type: 'band.change'; index: number; patch: Partial<DateBandFields> }
  | { type: 'band.add' }
  | { type: 'band.remove'; index: number }
  | { type: 'price.save' }
  | { type: 'price.remove' }
  | { type: 'date.close' };

/** The problems the form shows: none before a save was asked with problems. */
export function shownDatePriceProblems(context: AdminDatePriceContext): DatePriceProblems {
  return context.checked ? datePriceProblems(context.fields) : {};
}

type PriceCall = { branchId: number; date: string };

/**
 * The prices calendar of the console (owners, issue 32): a month of the branch's calendar; a date chosen opens its
 * price (its own, or an empty form). Saving with a problem shows every problem beside its field; else the date's
 * price is set (or removed) and the page is told (`saved`: it reloads the grid, whose dates the calendar marks).
 */
export const adminDatePriceMachine = adminMachineSetup({
  types: machineTypes<AdminDatePriceContext, AdminDatePriceEvent, { branchId: number; month: string }>(),
  calls: {
    setDatePrice: placeholder<PriceGrid, PriceCall & { price: DatePriceInput }>('setDatePrice'),
    removeDatePrice: placeholder<PriceGrid, PriceCall>('removeDatePrice'),
  },
  reports: 'saved',
  fallback: 'generic',
  guards: {
    hasProblems: ({ context }) => context.date !== null && hasProblems(context.fields),
    isChosen: ({ context }) => context.date !== null,
    isStored: ({ context }) => context.date !== null && context.stored,
  },
}).createMachine({
  id: 'adminDatePrice',
  context: ({ input }) => ({
    branchId: input.branchId,
    month: input.month,
    date: null,
    stored: false,
    fields: fieldsOfDatePrice(undefined),
    checked: false,
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'month.change': {
          actions: assign({ month: ({ context, event }) => addMonths(context.month, event.step) }),
        },
        'date.choose': {
          actions: assign({
            date: ({ event }) => event.date,
            stored: ({ event }) => event.price !== undefined,
            fields: ({ event }) => fieldsOfDatePrice(event.price),
            checked: false,
            error: null,
          }),
        },
        'date.close': { actions: assign({ date: null, checked: false, error: null }) },
        'field.change': {
          guard: 'isChosen',
          actions: assign({ fields: ({ context, event }) => ({ ...context.fields, ...event.patch }) }),
        },
        'band.change': {
          guard: 'isChosen',
          actions: assign({
            fields: ({ context, event }) => ({
              ...context.fields,
              bands: context.fields.bands.map((band, index) =>
                index === event.index ? { ...band, ...event.patch } : band,
              ),
            }),
          }),
        },
        'band.add': {
          guard: 'isChosen',
          actions: assign({
            fields: ({ context }) => ({
              ...context.fields,
              bands: [...context.fields.bands, { from: '', to: '', price: '' }],
            }),
          }),
        },
        'band.remove': {
          guard: 'isChosen',
          actions: assign({
            fields: ({ context, event }) => ({
              ...context.fields,
              bands: context.fields.bands.filter((_, index) => index !== event.index),
            }),
          }),
        },
        'price.save': [
          { guard: 'hasProblems', actions: assign({ checked: true }) },
          { guard: 'isChosen', target: 'saving' },
        ],
        'price.remove': { guard: 'isStored', target: 'removing' },
      },
    },
    saving: {
      entry: assign({ error: null }),
      invoke: {
        id: 'setDatePrice',
        src: 'setDatePrice',
        input: ({ context }) => ({
          branchId: context.branchId,
          date: context.date!,
          price: datePriceOf(context.fields)!,
        }),
        onDone: { target: 'editing', actions: [assign({ stored: true, checked: false }), 'saved'] },
        onError: failedBackTo('editing'),
      },
    },
    removing: {
      entry: assign({ error: null }),
      invoke: {
        id: 'removeDatePrice',
        src: 'removeDatePrice',
        input: ({ context }) => ({ branchId: context.branchId, date: context.date! }),
        onDone: {
          target: 'editing',
          actions: [assign({ stored: false, fields: fieldsOfDatePrice(undefined), checked: false }), 'saved'],
        },
        onError: failedBackTo('editing'),
      },
    },
  },
});
