import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBranchService } from '../../server/catalog/service.ts';
import { generateDaySlots, gridOn, type PriceGrids } from '../../server/catalog/schedule.ts';
import {
  bookAndPayOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator, runCli } from './support/operators.ts';

// Prices by date (issue 32, item 5): a date's own price (whole day or per hour) wins over the grid, reaches the
// date's free slots at once by the path a grid's change takes (booked slots keep their price), goes back to the
// grid when removed; a scheduled grid takes effect from its date; DST days price by the wall clock.

// Friday 20 March 2026, 10:30 in Lisbon (UTC+0 until the 29th, the spring change).
const NOW = '2026-03-20T10:30:00Z';
const HORIZON_DAYS = 10;

describe('prices by date (pglite)', () => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;

  beforeAll(async () => {
    server = await startAccountApp('pglite', { SLOT_HORIZON_DAYS: String(HORIZON_DAYS) });
    server.clock.set(NOW);
    owner = await loggedInOperator(server.app, server.clock, 'dates-owner@gym.example', 'owner');
  }, 120_000);
  afterAll(async () => server?.close());

  const horizon = () =>
    createBranchService({ db: server.app.db, clock: server.clock, horizonDays: HORIZON_DAYS });

  /** A branch at 9 € an hour around the clock (or `cents`), its slots generated. */
  async function branchAtNine(cents = 900): Promise<number> {
    const id = await createBranch(server.app.db, { defaultPriceCents: cents });
    await horizon().ensureSlotHorizon();
    return id;
  }

  /** 'HH:MM' (local, the first of a repeated hour) of each slot of the date to its price in cents, as stored. */
  async function pricesOn(branchId: number, date: string): Promise<Record<string, number>> {
    const slots = await server.app.db
      .selectFrom('slots')
      .select(['start_time', 'price_cents'])
      .where('branch_id', '=', branchId)
      .where('local_date', '=', date)
      .orderBy('start_time')
      .execute();
    const prices: Record<string, number> = {};
    for (const slot of slots) {
      const local = Temporal.Instant.from(slot.start_time.toISOString()).toZonedDateTimeISO('Europe/Lisbon');
      prices[local.toPlainTime().toString({ smallestUnit: 'minute' })] ??= slot.price_cents;
    }
    return prices;
  }

  const setDate = (branchId: number, date: string, body: object) =>
    owner.client.json('PUT', `/api/admin/branches/${branchId}/prices/dates/${date}`, body, owner.token);
  const removeDate = (branchId: number, date: string) =>
    owner.client.json(
      'DELETE',
      `/api/admin/branches/${branchId}/prices/dates/${date}`,
      undefined,
      owner.token,
    );

  it('date overrides applied to slots: a whole-day price, per-hour prices over a day price, the others untouched', async () => {
    const branchId = await branchAtNine();
    const wholeDay = await setDate(branchId, '2026-03-23', { day_price_eur: 20, bands: [] });
    expect(wholeDay.statusCode, wholeDay.body).toBe(200);
    const perHour = await setDate(branchId, '2026-03-24', {
      day_price_eur: 12,
      bands: [
        { from: '18:00', to: '22:00', price_eur: 30 },
        { from: '07:00', to: '09:00', price_eur: 25.5 },
      ],
    });
    expect(perHour.statusCode, perHour.body).toBe(200);
    expect(new Set(Object.values(await pricesOn(branchId, '2026-03-23')))).toEqual(new Set([2000]));
    expect(await pricesOn(branchId, '2026-03-24')).toMatchObject({
      '00:00': 1200,
      '06:00': 1200,
      '07:00': 2550,
      '08:00': 2550,
      '09:00': 1200,
      '18:00': 3000,
      '21:00': 3000,
      '22:00': 1200,
    });
    expect(new Set(Object.values(await pricesOn(branchId, '2026-03-25')))).toEqual(new Set([900]));
    // The console reads the dates back, in order; the landing's range counts them.
    expect(perHour.json<Schemas['PriceGrid']>().by_date).toEqual([
      { date: '2026-03-23', day_price_eur: 20, bands: [] },
      {
        date: '2026-03-24',
        day_price_eur: 12,
        bands: [
          { from: '07:00', to: '09:00', price_eur: 25.5 },
          { from: '18:00', to: '22:00', price_eur: 30 },
        ],
      },
    ]);
    expect(perHour.json<Schemas['PriceGrid']>().min_and_max_price_eur).toEqual([9, 30]);
    // A member sees the date's prices on the slots list.
    const slots = await newClient(server.app).get(`/api/bookings/slots/${branchId}/2026-03-23`);
    expect(new Set(slots.json<Schemas['TimeSlot'][]>().map((slot) => slot.basic_price_eur))).toEqual(
      new Set([20]),
    );
    // Audited, with who and what.
    const audit = await server.app.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'branch.date_price')
      .where('entity_id', '=', String(branchId))
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]!.after).toMatchObject({
      date: '2026-03-23',
      price: { day_price_cents: 2000, bands: [] },
    });
  });

  it('the CLI gives a date its price and takes it away through the same use case, audited as the CLI', async () => {
    const branchId = await branchAtNine();
    const admin = (...argv: string[]) => runCli(server.app, server.clock, argv, HORIZON_DAYS);
    const set = await admin(
      'date-price',
      'set',
      String(branchId),
      '2026-03-26',
      '--day',
      '14',
      '--band',
      '18:00-20:00=22,50',
    );
    expect(set.err).toEqual([]);
    expect(set.out).toEqual([`the price of branch ${branchId} on 2026-03-26: 24 slots re-priced`]);
    expect(await pricesOn(branchId, '2026-03-26')).toMatchObject({
      '17:00': 1400,
      '18:00': 2250,
      '19:00': 2250,
      '20:00': 1400,
    });
    const listed = await admin('date-price', 'list', String(branchId), '--json');
    expect(JSON.parse(listed.out.join('\n'))).toEqual([
      { date: '2026-03-26', day_price_eur: '14.00', bands: '18:00-20:00=22.50' },
    ]);
    const bad = await admin(
      'date-price',
      'set',
      String(branchId),
      '2026-03-26',
      '--day',
      '14',
      '--band',
      '18-20=5',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.err[0]).toContain('--band must be <HH:MM>-<HH:MM>=<eur>');
    const removed = await admin('date-price', 'remove', String(branchId), '2026-03-26');
    expect(removed.out).toEqual([
      `the date’s own price is removed of branch ${branchId} on 2026-03-26: 24 slots re-priced`,
    ]);
    expect(new Set(Object.values(await pricesOn(branchId, '2026-03-26')))).toEqual(new Set([900]));
    const again = await admin('date-price', 'remove', String(branchId), '2026-03-26');
    expect(again.code).not.toBe(0);
    expect(again.err.join(' ')).toContain('not_found');
    const audit = await server.app.db
      .selectFrom('audit_log')
      .select(['action', 'operator_email'])
      .where('entity_id', '=', String(branchId))
      .where('action', 'like', 'branch.date_price%')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['branch.date_price', 'branch.date_price_removed']);
    expect(audit.every((row) => row.operator_email?.startsWith('cli:'))).toBe(true);
  });

  it('a paid booking keeps its price; a removed date goes back to the grid, the booked slot too once free', async () => {
    // At 15 €, the price the booking helper pays.
    const branchId = await branchAtNine(1500);
    const member = await verifiedAccount(newClient(server.app), server.app);
    const bookedSlot = await server.app.db
      .selectFrom('slots')
      .select('id')
      .where('branch_id', '=', branchId)
      .where('local_date', '=', '2026-03-26')
      .orderBy('start_time')
      .offset(10)
      .executeTakeFirstOrThrow();
    await bookAndPayOverHttp(newClient(server.app), member.token, bookedSlot.id);
    expect((await setDate(branchId, '2026-03-26', { day_price_eur: 40, bands: [] })).statusCode).toBe(200);
    const stored = () =>
      server.app.db
        .selectFrom('slots')
        .select(['price_cents', 'next_price_cents'])
        .where('id', '=', bookedSlot.id)
        .executeTakeFirstOrThrow();
    expect(await stored()).toEqual({ price_cents: 1500, next_price_cents: 4000 });
    expect((await pricesOn(branchId, '2026-03-26'))['09:00']).toBe(4000);
    const removed = await removeDate(branchId, '2026-03-26');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<Schemas['PriceGrid']>().by_date).toEqual([]);
    expect(new Set(Object.values(await pricesOn(branchId, '2026-03-26')))).toEqual(new Set([1500]));
    expect(await stored()).toEqual({ price_cents: 1500, next_price_cents: null });
    // Removing it again: it has none.
    const again = await removeDate(branchId, '2026-03-26');
    expect(again.statusCode).toBe(404);
    expect(again.json<ErrorBody>().code).toBe('not_found');
  });

  it('a scheduled grid takes effect from its date, and a date price after it still wins', async () => {
    const branchId = await branchAtNine();
    const scheduled = await owner.client.json(
      'PUT',
      `/api/admin/branches/${branchId}/prices`,
      { default_price_eur: 11, bands: [], from: '2026-03-27' },
      owner.token,
    );
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect((await setDate(branchId, '2026-03-28', { day_price_eur: 5, bands: [] })).statusCode).toBe(200);
    expect(new Set(Object.values(await pricesOn(branchId, '2026-03-26')))).toEqual(new Set([900]));
    expect(new Set(Object.values(await pricesOn(branchId, '2026-03-27')))).toEqual(new Set([1100]));
    expect(new Set(Object.values(await pricesOn(branchId, '2026-03-28')))).toEqual(new Set([500]));
    // Removed, the date takes the scheduled grid's price, not the one in force today.
    await removeDate(branchId, '2026-03-28');
    expect(new Set(Object.values(await pricesOn(branchId, '2026-03-28')))).toEqual(new Set([1100]));
    expect(scheduled.json<Schemas['PriceGrid']>().dated.map((grid) => grid.from)).toEqual(['2026-03-27']);
  });

  it('a date beyond the slots generated prices its slots once they are made', async () => {
    const branchId = await branchAtNine();
    expect((await setDate(branchId, '2026-04-05', { day_price_eur: 14, bands: [] })).statusCode).toBe(200);
    expect(await pricesOn(branchId, '2026-04-05')).toEqual({});
    server.clock.set('2026-03-27T10:30:00Z');
    try {
      await horizon().ensureSlotHorizon();
      expect(new Set(Object.values(await pricesOn(branchId, '2026-04-05')))).toEqual(new Set([1400]));
      expect(new Set(Object.values(await pricesOn(branchId, '2026-04-04')))).toEqual(new Set([900]));
    } finally {
      server.clock.set(NOW);
    }
  });

  it('the spring change day has its 23 slots at the date price; per-hour prices follow the wall clock', async () => {
    const branchId = await branchAtNine();
    const saved = await setDate(branchId, '2026-03-29', {
      day_price_eur: 10,
      bands: [
        { from: '00:00', to: '01:00', price_eur: 3 },
        { from: '02:00', to: '04:00', price_eur: 7 },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const prices = await pricesOn(branchId, '2026-03-29');
    expect(Object.keys(prices)).toHaveLength(23);
    // 01:00 becomes 02:00: no 01:00 slot; the 02:00 wall-clock hour does not exist either, 03:00 is banded.
    expect(prices).toMatchObject({ '00:00': 300, '03:00': 700, '04:00': 1000, '23:00': 1000 });
    expect(prices['01:00']).toBeUndefined();
  });

  it('the autumn change day prices both of its repeated hours by the band of that wall-clock hour', () => {
    const grids: PriceGrids = {
      inForce: { defaultPriceCents: 900, priceRules: [] },
      dated: [],
      byDate: new Map([
        [
          '2026-10-25',
          { dayPriceCents: 1000, bands: [{ startsAtMinute: 60, endsAtMinute: 120, priceCents: 5000 }] },
        ],
      ]),
    };
    const date = Temporal.PlainDate.from('2026-10-25');
    const slots = generateDaySlots(
      { timeZone: 'Europe/Lisbon', slotMinutes: 60, openingHours: null, ...gridOn(grids, date) },
      date,
    );
    expect(slots).toHaveLength(25);
    const atOne = slots.filter((slot) => slot.startTime.toZonedDateTimeISO('Europe/Lisbon').hour === 1);
    expect(atOne.map((slot) => slot.priceCents)).toEqual([5000, 5000]);
    expect(slots.filter((slot) => slot.priceCents === 1000)).toHaveLength(23);
    // The day after is the grid's again.
    expect(gridOn(grids, date.add({ days: 1 })).defaultPriceCents).toBe(900);
  });

  it('refuses a past date, overlapping bands and an empty band beside their fields, changing nothing', async () => {
    const branchId = await branchAtNine();
    const past = await setDate(branchId, '2026-03-19', { day_price_eur: 5, bands: [] });
    expect(past.statusCode).toBe(422);
    expect(past.json<ErrorBody>().fields).toEqual([{ field: 'date', problem: 'invalid' }]);
    const overlap = await setDate(branchId, '2026-03-23', {
      day_price_eur: 5,
      bands: [
        { from: '08:00', to: '10:00', price_eur: 6 },
        { from: '09:00', to: '11:00', price_eur: 7 },
      ],
    });
    expect(overlap.json<ErrorBody>().fields).toEqual([{ field: 'bands', problem: 'invalid' }]);
    const backwards = await setDate(branchId, '2026-03-23', {
      day_price_eur: 5,
      bands: [{ from: '10:00', to: '10:00', price_eur: 6 }],
    });
    expect(backwards.json<ErrorBody>().fields).toEqual([{ field: 'bands[].to', problem: 'invalid' }]);
    expect(new Set(Object.values(await pricesOn(branchId, '2026-03-23')))).toEqual(new Set([900]));
    const rows = await server.app.db
      .selectFrom('price_overrides')
      .selectAll()
      .where('branch_id', '=', branchId)
      .execute();
    expect(rows).toEqual([]);
  });
});
