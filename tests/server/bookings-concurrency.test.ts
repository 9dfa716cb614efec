import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../server/kernel/clock.ts';
import { openDatabase, type OpenedDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { bookingService, createCoupon, lisbonSlot, verifiedUser } from './bookings-fixtures.ts';
import { freshDatabaseConfig, type FreshDatabase } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

// Real PostgreSQL only: PGlite is one connection, so nothing there is ever concurrent.

const clock = fixedClock('2026-03-20T10:00:00Z');

describe('concurrent bookings of one slot on PostgreSQL', () => {
  let fresh: FreshDatabase;
  // Two pools on one database, as two server processes would have.
  const pools: OpenedDatabase[] = [];

  beforeAll(async () => {
    fresh = await freshDatabaseConfig('postgres');
    for (let index = 0; index < 2; index += 1) pools.push(await openDatabase(fresh.config));
    await migrateToLatest(pools[0]!.db);
  });
  afterAll(async () => {
    for (const pool of pools) await pool.close();
    await fresh?.cleanup();
  });

  it('lets exactly one of 50 simultaneous requests from two pools hold the slot, round after round; the others get slot_unavailable', async () => {
    const db = pools[0]!.db;
    const branchId = await createBranch(db);
    const users = await Promise.all(Array.from({ length: 50 }, () => verifiedUser(db)));
    const services = pools.map((pool) => bookingService(pool.db, clock));

    for (let round = 0; round < 10; round += 1) {
      const slot = await lisbonSlot(db, branchId, `2026-03-25T${String(10 + round).padStart(2, '0')}:00`);
      const outcomes = await Promise.allSettled(
        users.map((userId, index) =>
          services[index % 2]!.createBooking({
            userId,
            slotIds: [slot],
            couponId: null,
            expectedTotalEur: 15,
            locale: 'pt',
          }),
        ),
      );
      const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refusals = outcomes.flatMap((outcome) =>
        outcome.status === 'rejected'
          ? [(outcome.reason as { code?: string }).code ?? String(outcome.reason)]
          : [],
      );
      expect(winners).toHaveLength(1);
      expect(new Set(refusals)).toEqual(new Set(['slot_unavailable']));
      const live = await db
        .selectFrom('bookings')
        .select('id')
        .where('slot_id', '=', slot)
        .where('status', 'in', ['pending', 'confirmed'])
        .execute();
      expect(live).toHaveLength(1);
      const sessions = await db.selectFrom('checkout_sessions').select('id').execute();
      expect(sessions).toHaveLength(round + 1);
    }
  });

  it('never gives one user more early-bird slots than the cap, however many checkouts run at once', async () => {
    const db = pools[0]!.db;
    const branchId = await createBranch(db);
    const user = await verifiedUser(db);
    const earlyBird = await createCoupon(db, { code: 'EARLY3', discount: 0.1, maxPerUser: 3 });
    const services = pools.map((pool) => bookingService(pool.db, clock));
    // Eight checkouts of two slots each, every one expecting both slots discounted.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, async (_, index) => {
        const slotIds = [
          await lisbonSlot(db, branchId, `2026-04-0${index + 1}T10:00`),
          await lisbonSlot(db, branchId, `2026-04-0${index + 1}T11:00`),
        ];
        return services[index % 2]!.createBooking({
          userId: user,
          slotIds,
          couponId: earlyBird,
          expectedTotalEur: 27,
          locale: 'pt',
        });
      }),
    );
    const refusals = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [(outcome.reason as { code?: string }).code] : [],
    );
    // The first gets both slots discounted; every other finds one use left, so its total differs.
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(new Set(refusals)).toEqual(new Set(['price_changed']));
    const redemptions = await db.selectFrom('coupon_redemptions').selectAll().execute();
    expect(redemptions).toHaveLength(2);
  });
});
