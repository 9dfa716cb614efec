import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../server/kernel/audit.ts';
import { createBranchService } from '../../server/catalog/service.ts';
import { setPriceGrid } from '../../server/catalog/use-cases/set-price-grid.ts';
import { dateFromInstant } from '../../server/kernel/clock.ts';
import { JOB_QUEUES } from '../../server/jobs/queue.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import {
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type Client,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator, runCli } from './support/operators.ts';

// Prices that apply when saved (issue 27, item 4): a branch's price grid re-prices its free future slots in the
// transaction that saves it, booked and held slots keep their price, and the landing's range follows. The tests of a
// target share one server and run in order: the later ones move its clock forward.

// Friday 20 March 2026, 10:30 in Lisbon (UTC+0 until the 29th); the next Monday is the 23rd.
const NOW = '2026-03-20T10:30:00Z';
const NEXT_MONDAY = '2026-03-23';
const HORIZON_DAYS = 10;

for (const target of DATABASE_TARGETS) {
  describe(`price changes (${target})`, () => {
    let server: AccountApp;
    let owner: Awaited<ReturnType<typeof loggedInOperator>>;
    let unique = 0;

    beforeAll(async () => {
      server = await startAccountApp(target, { SLOT_HORIZON_DAYS: String(HORIZON_DAYS) });
      server.clock.set(NOW);
      owner = await loggedInOperator(server.app, server.clock, `owner-${target}@gym.example`, 'owner');
    });
    afterAll(async () => server?.close());

    /** A branch at 9 € an hour around the clock, with its slots generated. */
    const branches = () =>
      createBranchService({ db: server.app.db, clock: server.clock, horizonDays: HORIZON_DAYS });

    async function branchAtNine(): Promise<number> {
      const id = await createBranch(server.app.db, { defaultPriceCents: 900 });
      await branches().ensureSlotHorizon();
      return id;
    }

    /** Sessions of the test's database waiting for a row lock. */
    async function waitingForLocks(): Promise<number> {
      const { rows } = await sql<{ waiting: number }>`
        select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(server.app.db);
      return rows[0]!.waiting;
    }

    /** The minute sweep (hold expiry), as its cron would start it now. */
    async function minuteSweep(): Promise<void> {
      await server.app.jobs.boss.send(JOB_QUEUES.holdExpiry, null, {
        startAfter: dateFromInstant(server.clock.now()),
      });
      expect(await server.app.jobs.runDue([JOB_QUEUES.holdExpiry])).toBe(1);
    }

    /** Runs a back-office command on the server's database and clock: its exit code and what it wrote. */
    function admin(...argv: string[]) {
      return runCli(server.app, server.clock, argv, HORIZON_DAYS);
    }

    /** The slot's price and its booking's, as stored. */
    async function storedPrices(slotId: number) {
      const slot = await server.app.db
        .selectFrom('slots')
        .select(['price_cents', 'next_price_cents'])
        .where('id', '=', slotId)
        .executeTakeFirstOrThrow();
      const bookings = await server.app.db
        .selectFrom('bookings')
        .select(['status', 'base_price_cents'])
        .where('slot_id', '=', slotId)
        .execute();
      return { ...slot, bookings };
    }

    async function member(): Promise<{ client: Client; token: string }> {
      unique += 1;
      const client = newClient(server.app);
      const account = await verifiedAccount(client, server.app, {
        email: `member-${target}-${unique}@example.com`,
      });
      return { client, token: account.token };
    }

    async function slotsOn(branchId: number, date: string): Promise<Schemas['TimeSlot'][]> {
      const answer = await newClient(server.app).get(`/api/bookings/slots/${branchId}/${date}`);
      expect(answer.statusCode).toBe(200);
      return answer.json<Schemas['TimeSlot'][]>();
    }

    /** 'HH:MM' of each slot of the day to its price in euros. */
    async function pricesOn(branchId: number, date: string): Promise<Record<string, number>> {
      return Object.fromEntries(
        (await slotsOn(branchId, date)).map((slot) => [slot.start_time.slice(11, 16), slot.basic_price_eur]),
      );
    }

    async function slotAt(branchId: number, date: string, time: string): Promise<Schemas['TimeSlot']> {
      const slot = (await slotsOn(branchId, date)).find((each) => each.start_time.slice(11, 16) === time);
      if (!slot) throw new Error(`no slot at ${date} ${time}`);
      return slot;
    }

    async function book(who: { client: Client; token: string }, slotId: number, expectedEur: number) {
      return who.client.json(
        'POST',
        '/api/bookings/',
        {
          time_slot_id: [slotId],
          max_bookings_per_slot: 1,
          coupon_code: null,
          expected_total_final_price_eur: expectedEur,
        },
        who.token,
      );
    }

    async function bookAndPay(who: { client: Client; token: string }, slotId: number, expectedEur: number) {
      const created = await book(who, slotId, expectedEur);
      expect(created.statusCode, created.body).toBe(201);
      const sessionId = created
        .json<Schemas['CreateBookingResponse']>()
        .checkout_session.clientSecret!.split('_secret_')[0]!;
      const paid = await who.client.json('POST', `/api/checkout/local/${sessionId}/complete`, {
        card_number: '4242 4242 4242 4242',
      });
      expect(paid.statusCode, paid.body).toBeLessThan(400);
    }

    async function landingRange(branchId: number): Promise<number[]> {
      const answer = await newClient(server.app).get('/api/bookings/branches');
      const branch = answer.json<Schemas['Branch'][]>().find((each) => each.id === branchId)!;
      return branch.min_and_max_price_eur_long_cached;
    }

    function setPrices(branchId: number, grid: Schemas['PriceGridInput']) {
      return owner.client.json('PUT', `/api/admin/branches/${branchId}/prices`, grid, owner.token);
    }

    const MONDAY_NIGHTS_AT_SIX = {
      default_price_eur: 9,
      bands: [{ weekday: 1, from: '00:00', to: '07:00', price_eur: 6 }],
    };

    it("shows a price change in next week's slots and the landing's range at once, while a booked slot keeps its price", async () => {
      const branchId = await branchAtNine();
      const booker = await member();
      await bookAndPay(booker, (await slotAt(branchId, NEXT_MONDAY, '02:00')).id, 9);
      expect(await landingRange(branchId)).toEqual([9, 9]);

      const saved = await setPrices(branchId, MONDAY_NIGHTS_AT_SIX);
      expect(saved.statusCode, saved.body).toBe(200);

      expect(await pricesOn(branchId, NEXT_MONDAY)).toMatchObject({
        '00:00': 6,
        '01:00': 6,
        // Booked and paid at 9 €: the slot keeps the price its booking paid.
        '02:00': 9,
        '03:00': 6,
        '06:00': 6,
        '07:00': 9,
        '23:00': 9,
      });
      expect(await landingRange(branchId)).toEqual([6, 9]);
      const mine = await booker.client.get('/api/bookings/my-bookings', booker.token);
      expect(mine.json<Schemas['Booking'][]>().map((booking) => booking.final_price_eur)).toEqual([9]);

      // A member who still sees the old price is told the new total; the new price books.
      const late = await member();
      const oneAm = (await slotAt(branchId, NEXT_MONDAY, '01:00')).id;
      const refused = await book(late, oneAm, 9);
      expect(refused.statusCode).toBe(409);
      expect(refused.json<ErrorBody>().code).toBe('price_changed');
      expect((await book(late, oneAm, 6)).statusCode).toBe(201);
    });

    it('leaves a held slot at the price its checkout was opened with, and gives it the new price once the hold expires', async () => {
      const branchId = await branchAtNine();
      const payer = await member();
      const quitter = await member();
      const threeAm = (await slotAt(branchId, NEXT_MONDAY, '03:00')).id;
      const fourAm = (await slotAt(branchId, NEXT_MONDAY, '04:00')).id;
      const paying = await book(payer, threeAm, 9);
      expect(paying.statusCode, paying.body).toBe(201);
      expect((await book(quitter, fourAm, 9)).statusCode).toBe(201);

      expect((await setPrices(branchId, MONDAY_NIGHTS_AT_SIX)).statusCode).toBe(200);
      expect(await pricesOn(branchId, NEXT_MONDAY)).toMatchObject({ '02:00': 6, '03:00': 9, '04:00': 9 });
      expect(await storedPrices(fourAm)).toMatchObject({ price_cents: 900, next_price_cents: 600 });

      // The member still in checkout pays what the checkout said.
      const sessionId = paying
        .json<Schemas['CreateBookingResponse']>()
        .checkout_session.clientSecret!.split('_secret_')[0]!;
      await payer.client.json('POST', `/api/checkout/local/${sessionId}/complete`, {
        card_number: '4242 4242 4242 4242',
      });
      expect(await storedPrices(threeAm)).toMatchObject({
        price_cents: 900,
        bookings: [{ status: 'confirmed', base_price_cents: 900 }],
      });

      // The other hold runs out: the minute sweep ends it, and the slot is offered at the grid's price.
      server.clock.advance({ minutes: 31 });
      await minuteSweep();
      expect(await storedPrices(fourAm)).toMatchObject({ price_cents: 600, next_price_cents: null });
      expect(await pricesOn(branchId, NEXT_MONDAY)).toMatchObject({ '03:00': 9, '04:00': 6 });
      expect(await landingRange(branchId)).toEqual([6, 9]);
    });

    it('refuses overlapping bands from the CLI with the console’s error, and applies the CLI’s grid as the console’s', async () => {
      const branchId = await branchAtNine();
      const overlapping = await setPrices(branchId, {
        default_price_eur: 9,
        bands: [
          { weekday: 1, from: '00:00', to: '07:00', price_eur: 6 },
          { weekday: 1, from: '06:00', to: '08:00', price_eur: 7 },
        ],
      });
      expect(overlapping.statusCode).toBe(422);
      const refusal = overlapping.json<ErrorBody>();
      expect(refusal).toMatchObject({ code: 'validation_failed', fields: [{ field: 'bands' }] });
      const problem = 'bands overlap on weekday 1: 00:00-07:00 and 06:00-08:00';
      expect(refusal.detail).toContain(problem);

      const cli = await admin(
        'prices',
        'set',
        String(branchId),
        '--default',
        '9',
        '--band',
        '1@00:00-07:00=6',
        '--band',
        '1@06:00-08:00=7',
      );
      expect(cli.code).toBe(2);
      expect(cli.err[0]).toBe(`prices set: ${problem}`);
      const added = await admin(
        'price-rule',
        'add',
        String(branchId),
        '--weekdays',
        '1,2',
        '--from',
        '00:00',
        '--to',
        '07:00',
        '--price',
        '6',
      );
      expect(added.code, added.err.join('\n')).toBe(0);
      const again = await admin(
        'price-rule',
        'add',
        String(branchId),
        '--weekdays',
        '1',
        '--from',
        '06:00',
        '--to',
        '08:00',
        '--price',
        '7',
      );
      expect(again.code).toBe(2);
      expect(again.err[0]).toBe(`price-rule add: ${problem}`);

      // What the CLI saved is on sale at once, as the console's grid would be.
      expect(await pricesOn(branchId, NEXT_MONDAY)).toMatchObject({ '06:00': 6, '07:00': 9 });
      expect(await pricesOn(branchId, '2026-03-24')).toMatchObject({ '00:00': 6, '07:00': 9 });
      expect(await landingRange(branchId)).toEqual([6, 9]);
      const grid = await owner.client.get(`/api/admin/branches/${branchId}/prices`, owner.token);
      expect(grid.json<Schemas['PriceGrid']>()).toMatchObject({
        default_price_eur: 9,
        bands: [
          { weekday: 1, from: '00:00', to: '07:00', price_eur: 6 },
          { weekday: 2, from: '00:00', to: '07:00', price_eur: 6 },
        ],
        min_and_max_price_eur: [6, 9],
        dated: [],
      });
    });

    if (target === 'postgres') {
      // A grid's change and a date's own price re-price slots by the same path, under the same locks.
      const changes = {
        'a price change': (branchId: number, eur: number) =>
          setPrices(branchId, {
            default_price_eur: 9,
            bands: [{ weekday: 1, from: '00:00', to: '24:00', price_eur: eur }],
          }),
        'a date’s own price': (branchId: number, eur: number) =>
          owner.client.json(
            'PUT',
            `/api/admin/branches/${branchId}/prices/dates/${NEXT_MONDAY}`,
            { day_price_eur: eur, bands: [] },
            owner.token,
          ),
      };
      it.each(Object.entries(changes))(
        'prices a booking racing %s at the price its slot had when the booking took it',
        async (_name, changePrice) => {
          const branchId = await branchAtNine();
          const booker = await member();
          let price = 9;
          for (let hour = 0; hour < 12; hour += 1) {
            const slot = await slotAt(branchId, NEXT_MONDAY, `${String(hour).padStart(2, '0')}:00`);
            expect(slot.basic_price_eur).toBe(price);
            const next = price === 6 ? 7 : 6;
            const [booking, change] = await Promise.all([
              book(booker, slot.id, price),
              changePrice(branchId, next),
            ]);
            expect(change.statusCode, change.body).toBe(200);
            const stored = await storedPrices(slot.id);
            if (booking.statusCode === 201) {
              // Booked first: the hold pays the old price, and its slot keeps it.
              expect(stored).toMatchObject({
                price_cents: price * 100,
                next_price_cents: next * 100,
                bookings: [{ status: 'pending', base_price_cents: price * 100 }],
              });
            } else {
              // Re-priced first: the booking met the new price, and its client's total was refused.
              expect(booking.statusCode, booking.body).toBe(409);
              expect(booking.json<ErrorBody>().code).toBe('price_changed');
              expect(stored).toMatchObject({ price_cents: next * 100, bookings: [] });
            }
            price = next;
          }
          const mismatched = await server.app.db
            .selectFrom('bookings')
            .innerJoin('slots', 'slots.id', 'bookings.slot_id')
            .select(['bookings.id'])
            .where('bookings.branch_id', '=', branchId)
            .whereRef('bookings.base_price_cents', '<>', 'slots.price_cents')
            .execute();
          expect(mismatched).toEqual([]);
        },
      );

      it('prices a booking that waited for a price change’s locks at the new price', async () => {
        const branchId = await branchAtNine();
        const booker = await member();
        const slot = await slotAt(branchId, NEXT_MONDAY, '05:00');
        let commit!: () => void;
        let locked!: () => void;
        const slotsLocked = new Promise<void>((resolve) => (locked = resolve));
        // A price change that has locked and re-priced the slots, and has not committed yet.
        const change = server.app.db.transaction().execute(async (trx) => {
          await setPriceGrid(
            trx,
            { clock: server.clock },
            {
              actor: cliActor('race'),
              branchId,
              defaultPriceCents: 900,
              bands: [{ isoWeekday: 1, startsAtMinute: 0, endsAtMinute: 420, priceCents: 600 }],
            },
          );
          locked();
          await new Promise<void>((resolve) => (commit = resolve));
        });
        await slotsLocked;
        // The member saw 9 € before the change; the booking starts and queues behind the change's locks.
        const booking = book(booker, slot.id, 9);
        await expect.poll(() => waitingForLocks(), { timeout: 5000 }).toBeGreaterThan(0);
        commit();
        await change;
        const answer = await booking;
        expect(answer.statusCode, answer.body).toBe(409);
        expect(answer.json<ErrorBody>().code).toBe('price_changed');
        expect(await storedPrices(slot.id)).toMatchObject({ price_cents: 600, bookings: [] });
      });
    }

    it('applies a dated change from its day only, to slots generated later too, and brings it in force on its day', async () => {
      const branchId = await branchAtNine();
      const dated = await setPrices(branchId, { default_price_eur: 12, bands: [], from: '2026-03-25' });
      expect(dated.statusCode, dated.body).toBe(200);
      expect(dated.json<Schemas['PriceGrid']>()).toMatchObject({
        default_price_eur: 9,
        bands: [],
        min_and_max_price_eur: [9, 12],
        dated: [{ from: '2026-03-25', default_price_eur: 12, bands: [] }],
      });
      expect(Object.values(await pricesOn(branchId, '2026-03-24'))).toEqual(Array(24).fill(9));
      expect(Object.values(await pricesOn(branchId, '2026-03-25'))).toEqual(Array(24).fill(12));
      expect(await landingRange(branchId)).toEqual([9, 12]);
      // A day before it is refused: dated changes start today or later.
      const past = await setPrices(branchId, { default_price_eur: 12, bands: [], from: '2026-03-01' });
      expect(past.statusCode).toBe(422);
      expect(past.json<ErrorBody>().fields).toEqual([{ field: 'from', problem: 'invalid' }]);

      // Days the horizon reaches later are priced by the grid of their date.
      server.clock.set('2026-03-24T22:30:00Z');
      await branches().ensureSlotHorizon();
      expect(Object.values(await pricesOn(branchId, '2026-04-02'))).toEqual(Array(24).fill(12));
      expect(await landingRange(branchId)).toEqual([9, 12]);

      // On its day (Lisbon's midnight) the dated grid is the one in force: 9 € no longer prices a bookable slot.
      server.clock.set('2026-03-25T00:01:00Z');
      await minuteSweep();
      expect(await landingRange(branchId)).toEqual([12, 12]);
      // Days later, the first owner's console session has ended.
      const later = await loggedInOperator(server.app, server.clock, `later-${target}@gym.example`, 'owner');
      const grid = await later.client.get(`/api/admin/branches/${branchId}/prices`, later.token);
      expect(grid.json<Schemas['PriceGrid']>()).toMatchObject({ default_price_eur: 12, dated: [] });
      const listed = await admin('prices', 'show', String(branchId), '--json');
      expect(JSON.parse(listed.out.join('\n'))).toEqual([
        { from: '2026-03-25', default_price_eur: '12.00', bands: [] },
      ]);
    });
  });
}
