import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../server/kernel/clock.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import {
  bookAndPayOverHttp,
  createBookingOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import { createBranch, slotsGeneratedUntil } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// Issue 31, item 1: a weekly series. The server expands a slot into the same branch-local weekday and time in the
// following weeks (18:00 stays 18:00 across both changes of Lisbon's offset), says each week's slot and price or
// why it cannot be booked (taken, closed, past, no slot, beyond the slots generated), and books the weeks the
// member keeps in one checkout as bookings of their own, tied by a series.

for (const target of DATABASE_TARGETS) {
  describe(`weekly series (${target})`, () => {
    let started: AccountApp;
    const clock = fixedClock('2026-03-20T10:30:00Z');
    let branchId: number;

    beforeAll(async () => {
      started = await startAccountApp(target, {}, clock);
    }, 120_000);
    afterAll(() => started?.close());

    beforeEach(async () => {
      clock.set('2026-03-20T10:30:00Z');
      branchId = await createBranch(started.app.db);
      // The slots below stand for the generated ones: generated through April.
      await slotsGeneratedUntil(started.app.db, branchId, '2026-04-30');
    });

    const slot = (localStart: string, priceCents = 1500) =>
      lisbonSlot(started.app.db, branchId, localStart, { priceCents });
    const preview = (slotId: number, weeks: number) =>
      newClient(started.app).get(`/api/bookings/weekly/${slotId}?weeks=${weeks}`);

    async function member() {
      const caller = newClient(started.app);
      const account = await verifiedAccount(caller, started.app);
      return { caller, token: account.token };
    }

    const book = (who: Awaited<ReturnType<typeof member>>, slotIds: number[], total: number, weekly = true) =>
      who.caller.json(
        'POST',
        '/api/bookings/',
        { time_slot_id: slotIds, expected_total_final_price_eur: total, weekly_series: weekly },
        who.token,
      );

    it('says each week across the change to summer time: its slot and price, or taken, closed, no slot, beyond the horizon', async () => {
      // Mondays at 18:00 in Lisbon: the 23rd in winter time (UTC+0), from the 30th in summer time (UTC+1).
      const first = await slot('2026-03-23T18:00', 1500);
      const taken = await slot('2026-03-30T18:00', 1500);
      const closed = await slot('2026-04-06T18:00', 2000);
      // The 13th has no 18:00 slot (its day ends earlier); the 20th's is dearer; the 27th is free.
      await slot('2026-04-13T17:00');
      const dearer = await slot('2026-04-20T18:00', 2200);
      const last = await slot('2026-04-27T18:00', 1500);
      const rui = await member();
      await bookAndPayOverHttp(rui.caller, rui.token, taken);
      await started.app.db
        .insertInto('branch_closures')
        .values({
          branch_id: branchId,
          starts_at: new Date('2026-04-06T16:00:00Z'),
          ends_at: new Date('2026-04-06T20:00:00Z'),
          reason: 'floor repairs',
          created_by_email: 'ops@gym.example',
        })
        .execute();

      const answer = await preview(first, 7);
      expect(answer.statusCode, answer.body).toBe(200);
      const series = answer.json<Schemas['WeeklySeries']>();
      expect(series).toMatchObject({ branch_id: branchId, iso_weekday: 1, local_time: '18:00' });
      expect(
        series.occurrences.map((week) => [
          week.week,
          week.date,
          week.slot?.id ?? null,
          week.slot?.start_time ?? null,
          week.slot?.basic_price_eur ?? null,
          week.problem,
        ]),
      ).toEqual([
        [1, '2026-03-23', first, '2026-03-23T18:00:00+00:00', 15, null],
        [2, '2026-03-30', taken, '2026-03-30T18:00:00+01:00', 15, 'taken'],
        [3, '2026-04-06', closed, '2026-04-06T18:00:00+01:00', 20, 'closed'],
        [4, '2026-04-13', null, null, null, 'no_slot'],
        [5, '2026-04-20', dearer, '2026-04-20T18:00:00+01:00', 22, null],
        [6, '2026-04-27', last, '2026-04-27T18:00:00+01:00', 15, null],
        [7, '2026-05-04', null, null, null, 'beyond_horizon'],
      ]);
      // Nothing is held by asking.
      expect(
        await started.app.db
          .selectFrom('bookings')
          .select('id')
          .where('slot_id', 'in', [first, last])
          .execute(),
      ).toEqual([]);
    });

    it('keeps 18:00 across the change back to winter time, and says a week already past', async () => {
      await slotsGeneratedUntil(started.app.db, branchId, '2026-11-30');
      const october = await slot('2026-10-19T18:00');
      const winter = await slot('2026-10-26T18:00');
      clock.set('2026-10-20T09:00:00Z');
      const answer = (await preview(october, 2)).json<Schemas['WeeklySeries']>();
      expect(answer.occurrences.map((week) => [week.slot?.start_time, week.problem])).toEqual([
        ['2026-10-19T18:00:00+01:00', 'past'],
        ['2026-10-26T18:00:00+00:00', null],
      ]);
      expect(answer.occurrences[1]!.slot!.id).toBe(winter);
    });

    it('books the weeks kept in one checkout, each a booking of its own, tied by one series', async () => {
      const weeks = [
        await slot('2026-03-23T18:00', 1500),
        await slot('2026-03-30T18:00', 1500),
        await slot('2026-04-13T18:00', 2000),
      ];
      const ana = await member();
      const created = await book(ana, weeks, 50);
      expect(created.statusCode, created.body).toBe(201);
      const { clientSecret } = created.json<Schemas['CreateBookingResponse']>().checkout_session;
      await ana.caller.json('POST', `/api/checkout/local/${clientSecret!.split('_secret_')[0]}/complete`, {
        card_number: '4242 4242 4242 4242',
      });

      const mine = (await ana.caller.get('/api/bookings/my-bookings', ana.token)).json<
        Schemas['Booking'][]
      >();
      expect(mine).toHaveLength(3);
      const [series] = new Set(mine.map((booking) => booking.series_id));
      expect(series).toEqual(expect.any(Number));
      expect(new Set(mine.map((booking) => booking.series_id)).size).toBe(1);
      expect(mine.map((booking) => [booking.status, booking.final_price_eur])).toEqual([
        ['confirmed', 15],
        ['confirmed', 15],
        ['confirmed', 20],
      ]);
      const recorded = await started.app.db
        .selectFrom('booking_series')
        .select(['id', 'branch_id', 'iso_weekday', 'local_time'])
        .where('id', '=', series!)
        .execute();
      expect(recorded).toEqual([{ id: series, branch_id: branchId, iso_weekday: 1, local_time: '18:00' }]);

      // A booking made alone is in no series.
      const single = await slot('2026-04-20T10:00');
      await createBookingOverHttp(ana.caller, ana.token, [single], 15);
      const again = (await ana.caller.get('/api/bookings/my-bookings', ana.token)).json<
        Schemas['Booking'][]
      >();
      expect(
        again.find((booking) => booking.time_slot_data.start_time.startsWith('2026-04-20'))?.series_id,
      ).toBe(null);
    });

    it('a closure over one week cancels and refunds that week only; the series keeps the others', async () => {
      const weeks = [
        await slot('2026-03-23T18:00'),
        await slot('2026-03-30T18:00'),
        await slot('2026-04-06T18:00'),
      ];
      const ana = await member();
      const created = await book(ana, weeks, 45);
      const { clientSecret } = created.json<Schemas['CreateBookingResponse']>().checkout_session;
      await ana.caller.json('POST', `/api/checkout/local/${clientSecret!.split('_secret_')[0]}/complete`, {
        card_number: '4242 4242 4242 4242',
      });
      const owner = await loggedInOperator(started.app, clock, `owner-${branchId}@gym.example`, 'owner');
      const closure = await owner.client.json(
        'POST',
        '/api/admin/closures',
        {
          branch_id: branchId,
          starts_at: '2026-03-30T16:00:00Z',
          ends_at: '2026-03-30T19:00:00Z',
          reason: 'floor repairs',
        },
        owner.token,
      );
      expect(closure.statusCode, closure.body).toBe(201);
      const mine = (await ana.caller.get('/api/bookings/my-bookings', ana.token)).json<
        Schemas['Booking'][]
      >();
      expect(mine.map((booking) => [booking.time_slot_data.start_time.slice(0, 10), booking.status])).toEqual(
        [
          ['2026-03-23', 'confirmed'],
          ['2026-03-30', 'canceled'],
          ['2026-04-06', 'confirmed'],
        ],
      );
      expect(mine.find((booking) => booking.status === 'canceled')?.refunded_eur).toBe(15);
      expect(new Set(mine.map((booking) => booking.series_id)).size).toBe(1);

      // The console lists the series' weeks, each with its place in it, and finds them by the series.
      const seriesId = mine[0]!.series_id!;
      const listed = await owner.client.get(`/api/admin/bookings?series_id=${seriesId}`, owner.token);
      expect(listed.statusCode, listed.body).toBe(200);
      const page = listed.json<Schemas['AdminBookingPage']>();
      expect(page.total).toBe(3);
      expect(
        page.items.map((booking) => [booking.start_time.slice(0, 10), booking.status, booking.series]),
      ).toEqual([
        ['2026-04-06', 'confirmed', { id: seriesId, week: 3, weeks: 3 }],
        ['2026-03-30', 'canceled', { id: seriesId, week: 2, weeks: 3 }],
        ['2026-03-23', 'confirmed', { id: seriesId, week: 1, weeks: 3 }],
      ]);
      const other = await owner.client.get(`/api/admin/bookings?series_id=${seriesId + 1000}`, owner.token);
      expect(other.json<Schemas['AdminBookingPage']>().total).toBe(0);
      await bookAndPayOverHttp(ana.caller, ana.token, await slot('2026-04-08T10:00'));
      const alone = (await ana.caller.get('/api/bookings/my-bookings', ana.token))
        .json<Schemas['Booking'][]>()
        .find((booking) => booking.time_slot_data.start_time.startsWith('2026-04-08'))!;
      const single = await owner.client.get(`/api/admin/bookings/${alone.id}`, owner.token);
      expect(single.json<Schemas['AdminBookingDetail']>().booking.series).toBeNull();
    });

    it('refuses slots that are not one weekly pattern, holding nothing', async () => {
      const ana = await member();
      const monday = await slot('2026-03-23T18:00');
      const otherTime = await slot('2026-03-30T19:00');
      const tuesday = await slot('2026-03-31T18:00');
      const sameDay = await slot('2026-03-23T19:00');
      for (const slotIds of [[monday], [monday, otherTime], [monday, tuesday], [monday, sameDay]]) {
        const refused = await book(ana, slotIds, 15 * slotIds.length);
        expect(refused.statusCode, JSON.stringify(slotIds)).toBe(422);
        expect(refused.json<ErrorBody>()).toMatchObject({ code: 'not_a_weekly_series' });
        expect(refused.json<ErrorBody>().detail).toContain('série semanal');
      }
      const ofBranch = (table: 'bookings' | 'booking_series') =>
        started.app.db.selectFrom(table).select('id').where('branch_id', '=', branchId).execute();
      expect(await ofBranch('bookings')).toEqual([]);
      expect(await ofBranch('booking_series')).toEqual([]);
    });

    it('gives a weekly slot two members race for to one of them; the other’s series holds nothing', async () => {
      const shared = await slot('2026-04-06T18:00');
      const anaWeeks = [await slot('2026-03-30T18:00'), shared];
      const ruiWeeks = [shared, await slot('2026-04-13T18:00')];
      const [ana, rui] = [await member(), await member()];
      const answers = await Promise.all([book(ana, anaWeeks, 30), book(rui, ruiWeeks, 30)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
      const loser = answers.find((answer) => answer.statusCode === 409)!;
      expect(loser.json<ErrorBody>().code).toBe('slot_unavailable');
      const live = await started.app.db
        .selectFrom('bookings')
        .select(['slot_id', 'series_id'])
        .where('branch_id', '=', branchId)
        .where('status', '=', 'pending')
        .execute();
      // The winner's two weeks, in one series; the loser holds nothing, not even its other week.
      expect(live).toHaveLength(2);
      expect(new Set(live.map((row) => row.series_id)).size).toBe(1);
      expect(live.map((row) => row.slot_id)).toContain(shared);
    });

    it('answers 404 for an unknown slot and 422 for a number of weeks out of range', async () => {
      const unknown = await preview(999_999, 4);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<ErrorBody>().code).toBe('slot_not_found');
      const first = await slot('2026-03-23T18:00');
      for (const weeks of [1, 53]) {
        const refused = await preview(first, weeks);
        expect(refused.statusCode).toBe(422);
        expect(refused.json<ErrorBody>().code).toBe('validation_failed');
      }
    });
  });
}
