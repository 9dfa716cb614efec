import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local.ts';
import type { PaymentProvider } from '../../server/adapters/payments/provider.ts';
import { createCheckoutService } from '../../server/booking/checkout/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { openDatabase, type OpenedDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import {
  bookAndPay,
  bookingDependencies,
  bookingService,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import {
  emptyAllTables,
  freshDatabaseConfig,
  TEST_POSTGRES_URL,
  type FreshDatabase,
} from './support/databases.ts';
import { startTcpProxy } from './support/tcp-proxy.ts';
import { createBranch } from './support/fixtures.ts';

// Real PostgreSQL only (PGlite is one connection): moves raced against moves, cancellations, new bookings and
// themselves, from two pools on one database as two server processes would have.

const clock = fixedClock('2026-03-20T10:00:00Z');

function codeOf(outcome: PromiseSettledResult<unknown>): string {
  if (outcome.status === 'fulfilled') return 'ok';
  return (outcome.reason as { code?: string }).code ?? String(outcome.reason);
}

describe('moves raced on PostgreSQL', () => {
  let fresh: FreshDatabase;
  const pools: OpenedDatabase[] = [];
  let branchId: number;
  const db = () => pools[0]!.db;
  const services = () => pools.map((pool) => bookingService(pool.db, clock));
  /**
   * A provider that takes its time to open a checkout, as Stripe may: the window a racing move falls into.
   * `called` settles once it was asked (the move's hold is committed by then).
   */
  const slowProvider = (db: OpenedDatabase['db']) => {
    const local = createLocalPaymentProvider({ db, clock });
    let calledBack = () => {};
    const called = new Promise<void>((resolve) => (calledBack = resolve));
    const payments: PaymentProvider = {
      ...local,
      createCheckoutSession: async (request) => {
        calledBack();
        await new Promise((resolve) => setTimeout(resolve, 150));
        return local.createCheckoutSession(request);
      },
    };
    return { payments, called };
  };

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres');
    for (let index = 0; index < 2; index += 1) pools.push(await openDatabase(fresh.config));
    await migrateToLatest(pools[0]!.db);
  });
  afterAll(async () => {
    for (const pool of pools) await pool.close();
    await fresh?.cleanup();
  });
  beforeEach(async () => {
    await emptyAllTables(db());
    branchId = await createBranch(db());
  });

  async function paidBooking(userId: string, localStart: string, priceCents = 1500) {
    const slot = await lisbonSlot(db(), branchId, localStart, { priceCents });
    await bookAndPay(db(), clock, userId, [slot], priceCents / 100);
    const row = await db()
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', slot)
      .where('status', '=', 'confirmed')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const liveOn = (slotId: number) =>
    db()
      .selectFrom('bookings')
      .select(['id', 'status'])
      .where('slot_id', '=', slotId)
      .where('status', 'in', ['pending', 'confirmed'])
      .execute();

  /** Ten members with a booking each move onto one slot at once, from two pools: one may have it. */
  async function tenMembersMoveOnto(priceCents: number, differenceEur: number) {
    const members = await Promise.all(Array.from({ length: 10 }, () => verifiedUser(db())));
    const bookings: number[] = [];
    for (const [index, member] of members.entries()) {
      bookings.push(await paidBooking(member, `2026-03-25T${String(8 + index).padStart(2, '0')}:00`));
    }
    const target = await lisbonSlot(db(), branchId, '2026-03-27T10:00', { priceCents });
    const outcomes = await Promise.allSettled(
      members.map((member, index) =>
        services()[index % 2]!.moveBooking({
          userId: member,
          bookingId: bookings[index]!,
          slotId: target,
          expectedDifferenceEur: differenceEur,
          locale: 'pt',
        }),
      ),
    );
    const codes = outcomes.map(codeOf);
    expect(codes.filter((code) => code === 'ok')).toHaveLength(1);
    expect(new Set(codes.filter((code) => code !== 'ok'))).toEqual(new Set(['slot_unavailable']));
    expect(await liveOn(target)).toHaveLength(1);
  }

  it('lets one of ten members moving onto one slot at once have it; the others keep their bookings', async () => {
    await tenMembersMoveOnto(1500, 0);
    const stillLive = await db()
      .selectFrom('bookings')
      .select('id')
      .where('status', '=', 'confirmed')
      .execute();
    expect(stillLive).toHaveLength(10);
  });

  it('lets one of ten members moving onto one dearer slot hold it; the others are refused', async () => {
    await tenMembersMoveOnto(2500, 10);
  });

  it('settles a move racing a cancellation of the same booking one way or the other, round after round', async () => {
    const member = await verifiedUser(db());
    for (let round = 0; round < 8; round += 1) {
      const id = await paidBooking(member, `2026-04-0${round + 1}T10:00`);
      const target = await lisbonSlot(db(), branchId, `2026-04-0${round + 1}T15:00`, { priceCents: 1000 });
      const [moved, cancelled] = await Promise.allSettled([
        services()[0]!.moveBooking({
          userId: member,
          bookingId: id,
          slotId: target,
          expectedDifferenceEur: -5,
          locale: 'pt',
        }),
        services()[1]!.cancelBookings({ userId: member, items: [{ bookingId: id, expectedRefundEur: 15 }] }),
      ]);
      const after = await db()
        .selectFrom('bookings')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const refunds = await db().selectFrom('refunds').selectAll().where('booking_id', '=', id).execute();
      const refunded = refunds.reduce((sum, refund) => sum + refund.amount_cents, 0);
      // The booking's row is locked by both: one goes first, and the other sees what it did.
      if (codeOf(cancelled) === 'ok') {
        expect(codeOf(moved)).toBe('booking_not_movable');
        expect(after).toMatchObject({ status: 'canceled' });
        expect(refunded).toBe(1500);
      } else {
        // Moved first: the cheaper booking refunds 10 EUR, not the 15 EUR the cancellation expected.
        expect(codeOf(cancelled)).toBe('refund_changed');
        expect(codeOf(moved)).toBe('ok');
        expect(after).toMatchObject({ status: 'confirmed', slot_id: target });
        expect(refunded).toBe(500);
      }
      // Never more back than was paid.
      expect(refunded).toBeLessThanOrEqual(1500);
    }
  });

  it('gives a slot raced by a move and a new booking to exactly one of them', async () => {
    const member = await verifiedUser(db());
    const newcomer = await verifiedUser(db());
    for (let round = 0; round < 8; round += 1) {
      const id = await paidBooking(member, `2026-04-1${round}T10:00`);
      const target = await lisbonSlot(db(), branchId, `2026-04-1${round}T15:00`);
      const outcomes = await Promise.allSettled([
        services()[0]!.moveBooking({
          userId: member,
          bookingId: id,
          slotId: target,
          expectedDifferenceEur: 0,
          locale: 'pt',
        }),
        services()[1]!.createBooking({
          userId: newcomer,
          slotIds: [target],
          couponId: null,
          expectedTotalEur: 15,
          locale: 'pt',
        }),
      ]);
      const codes = outcomes.map(codeOf);
      expect(codes.filter((code) => code === 'ok')).toHaveLength(1);
      expect(codes.filter((code) => code !== 'ok')).toEqual(['slot_unavailable']);
      expect(await liveOn(target)).toHaveLength(1);
    }
  });

  it('tells the loser of two moves of one booking sent at once 409 move_in_progress, never that payments are down', async () => {
    const member = await verifiedUser(db());
    // A dearer move (its checkout takes the provider a while) raced by a dearer, an equal or a cheaper one.
    for (const [round, otherPriceCents] of [2500, 1500, 1000, 2500, 1500, 1000].entries()) {
      const day = `2026-04-${String(round + 1).padStart(2, '0')}`;
      const id = await paidBooking(member, `${day}T08:00`);
      const dearer = await lisbonSlot(db(), branchId, `${day}T12:00`, { priceCents: 2000 });
      const other = await lisbonSlot(db(), branchId, `${day}T16:00`, { priceCents: otherPriceCents });
      const slow = pools.map((pool) => slowProvider(pool.db));
      const moveTo = (pool: number, slotId: number, differenceEur: number) =>
        bookingService(pools[pool]!.db, clock, { payments: slow[pool]!.payments }).moveBooking({
          userId: member,
          bookingId: id,
          slotId,
          expectedDifferenceEur: differenceEur,
          locale: 'pt',
        });
      const first = moveTo(0, dearer, 5);
      // The second is sent while the first waits for its checkout, its hold already taken.
      await slow[0]!.called;
      const second = moveTo(1, other, (otherPriceCents - 1500) / 100);
      const codes = (await Promise.allSettled([first, second])).map(codeOf);
      expect(codes, `round ${round}`).not.toContain('payment_provider_unavailable');
      expect(
        codes.filter((code) => code === 'ok'),
        `round ${round}: ${codes.join(', ')}`,
      ).toHaveLength(1);
      expect(codes.filter((code) => code !== 'ok')).toEqual(['move_in_progress']);
      // Whoever lost holds nothing: one live hold at most, and only for a move awaiting its payment.
      const holds = await db()
        .selectFrom('bookings')
        .select('id')
        .where('status', '=', 'pending')
        .where('slot_id', 'in', [dearer, other])
        .execute();
      const awaiting = await db()
        .selectFrom('booking_moves')
        .select('hold_booking_id')
        .where('booking_id', '=', id)
        .where('state', '=', 'awaiting_payment')
        .execute();
      expect(holds.map((hold) => hold.id)).toEqual(awaiting.map((move) => move.hold_booking_id));
    }
  });

  it('lets the member retry a dearer move cut off by the database mid-move at once: their own hold does not refuse them', async () => {
    if (fresh.config.kind !== 'postgres') throw new Error('needs PostgreSQL');
    const target = new URL(TEST_POSTGRES_URL);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const behindProxy = await openDatabase({ kind: 'postgres', url: proxy.urlFor(fresh.config.url) });
    try {
      const member = await verifiedUser(db());
      const id = await paidBooking(member, '2026-03-25T10:00');
      const dearer = await lisbonSlot(db(), branchId, '2026-03-27T10:00', { priceCents: 2000 });
      const local = createLocalPaymentProvider({ db: db(), clock });
      // The database goes away while the provider opens the checkout: the hold is committed, the checkout never
      // recorded.
      const cutting: PaymentProvider = {
        ...local,
        createCheckoutSession: async (request) => {
          proxy.cut();
          return local.createCheckoutSession(request);
        },
      };
      const move = (payments: PaymentProvider) =>
        bookingService(behindProxy.db, clock, { payments }).moveBooking({
          userId: member,
          bookingId: id,
          slotId: dearer,
          expectedDifferenceEur: 5,
          locale: 'pt',
        });
      await expect(move(cutting)).rejects.toThrow();
      proxy.restore();
      // Still within the hold's two minutes: the retry is this member's, and goes through.
      clock.advance({ seconds: 10 });
      const retried = await move(local);
      expect(retried).toMatchObject({ status: 'awaiting_payment', price_difference_eur: 5 });
      const live = await liveOn(dearer);
      expect(live).toHaveLength(1);
      const [awaiting] = await db()
        .selectFrom('booking_moves')
        .select('hold_booking_id')
        .where('booking_id', '=', id)
        .where('state', '=', 'awaiting_payment')
        .execute();
      expect(live[0]!.id).toBe(awaiting!.hold_booking_id);
    } finally {
      proxy.restore();
      await behindProxy.close();
      await proxy.close();
    }
  });

  it('refunds once however often a move is sent at once', async () => {
    const member = await verifiedUser(db());
    const id = await paidBooking(member, '2026-03-25T10:00', 2000);
    const target = await lisbonSlot(db(), branchId, '2026-03-27T10:00', { priceCents: 1200 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        services()[index % 2]!.moveBooking({
          userId: member,
          bookingId: id,
          slotId: target,
          expectedDifferenceEur: -8,
          locale: 'pt',
        }),
      ),
    );
    expect(outcomes.map(codeOf)).toEqual(Array.from({ length: 6 }, () => 'ok'));
    const refunds = await db().selectFrom('refunds').selectAll().execute();
    expect(refunds.map((refund) => refund.amount_cents)).toEqual([800]);
  });

  it('completes a dearer move once when its payment is delivered to both processes at once', async () => {
    const member = await verifiedUser(db());
    const id = await paidBooking(member, '2026-03-25T10:00');
    const target = await lisbonSlot(db(), branchId, '2026-03-27T10:00', { priceCents: 2000 });
    const answer = await services()[0]!.moveBooking({
      userId: member,
      bookingId: id,
      slotId: target,
      expectedDifferenceEur: 5,
      locale: 'pt',
    });
    const sessionId = answer.checkout_session!.clientSecret.split('_secret_')[0]!;
    const checkouts = pools.map((pool) => createCheckoutService(bookingDependencies(pool.db, clock)));
    const outcomes = await Promise.allSettled(
      checkouts.map((checkout) =>
        checkout.completeLocalCheckout({ sessionId, cardNumber: '4242424242424242' }),
      ),
    );
    expect(outcomes.map(codeOf).sort()).toEqual(['checkout_session_closed', 'ok']);
    const mails = await db()
      .selectFrom('outbox')
      .select('kind')
      .where('kind', '=', 'booking_moved')
      .execute();
    expect(mails).toHaveLength(1);
    expect(
      await db().selectFrom('bookings').select('slot_id').where('id', '=', id).executeTakeFirstOrThrow(),
    ).toEqual({
      slot_id: target,
    });
  });
});
