import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBranchService } from '../../server/catalog/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { openDatabase, type Db } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { DEMO_BRANCH_SLUGS, DEMO_COUPON_CODES, seedDemoData } from '../../server/demo/seed.ts';
import { describeEachDatabase } from './support/databases.ts';

// Wednesday 1 April 2026, 09:00 in Lisbon.
const clock = fixedClock('2026-04-01T08:00:00Z');

async function snapshot(db: Db) {
  return {
    branches: await db.selectFrom('branches').selectAll().orderBy('id').execute(),
    images: await db.selectFrom('branch_images').selectAll().orderBy('id').execute(),
    rules: await db.selectFrom('price_rules').selectAll().orderBy('id').execute(),
    coupons: await db.selectFrom('coupons').selectAll().orderBy('id').execute(),
    settings: await db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute(),
  };
}

describeEachDatabase('the demo data set', (getDb) => {
  const service = () => createBranchService({ db: getDb(), clock, horizonDays: 120 });

  it('is seeded into an empty database once; a second call changes nothing', async () => {
    expect(await seedDemoData(getDb(), clock)).toBe(true);
    const seeded = await snapshot(getDb());
    expect(await seedDemoData(getDb(), clock)).toBe(false);
    expect(await snapshot(getDb())).toEqual(seeded);
  });

  it('has two bookable branches and one coming soon, each with a gallery, a map and five descriptions', async () => {
    const branches = await service().listBranches();
    expect(branches.map((branch) => [branch.name, branch.active_with_smart_lock])).toEqual([
      ['Lisboa – Avenidas Novas', true],
      ['Porto – Boavista', true],
      ['Funchal – Lido', false],
    ]);
    for (const branch of branches) {
      expect(branch.images_urls).toHaveLength(3);
      expect(branch.image).toBe(branch.images_urls[0]);
      expect(branch.map_url).toMatch(
        /^https:\/\/www\.openstreetmap\.org\/export\/embed\.html\?bbox=[-\d.]+%2C[-\d.]+%2C[-\d.]+%2C[-\d.]+&layer=mapnik&marker=[-\d.]+%2C[-\d.]+$/,
      );
      for (const html of Object.values(branch.descriptions_data))
        expect(html).toMatch(/^(<p>[^<]+<\/p>){2,3}$/);
      expect(branch.slot_minutes).toBe(60);
    }
    const slugs = await getDb().selectFrom('branches').select('slug').orderBy('order').execute();
    expect(slugs.map((row) => row.slug)).toEqual(Object.values(DEMO_BRANCH_SLUGS));
  });

  it('prices nights cheaper and weekday evenings dearer, with the cached range matching', async () => {
    await service().ensureSlotHorizon();
    const [lisboa] = await service().listBranches();
    // Monday 6 April 2026 at the Lisbon branch.
    const slots = await service().listSlots(lisboa!.id, '2026-04-06');
    const priceAt = (hour: string) =>
      slots.find((slot) => slot.start_time.slice(11, 16) === hour)?.basic_price_eur;
    expect([priceAt('03:00'), priceAt('08:00'), priceAt('12:00'), priceAt('18:00')]).toEqual([9, 18, 15, 22]);
    expect(lisboa!.min_and_max_price_eur_long_cached).toEqual([9, 22]);
    const saturday = await service().listSlots(lisboa!.id, '2026-04-11');
    expect(saturday.find((slot) => slot.start_time.slice(11, 16) === '12:00')?.basic_price_eur).toBe(18);
  });

  it('has the refund policy and the two coupons, early bird for accounts made before the opening date', async () => {
    expect(await service().getRefundRatios()).toEqual({ '48': 1, '24': 0.5, '0': 0 });
    const coupons = await getDb().selectFrom('coupons').selectAll().orderBy('code').execute();
    expect(coupons).toMatchObject([
      {
        code: DEMO_COUPON_CODES.earlyBird,
        discount: 0.1,
        max_redemptions: null,
        max_redemptions_per_user: 3,
        // 60 days after 1 April, at midnight in Lisbon (UTC+1 in summer).
        registered_before: new Date('2026-05-30T23:00:00Z'),
        active: true,
      },
      {
        code: DEMO_COUPON_CODES.welcome,
        discount: 0.05,
        max_redemptions: null,
        max_redemptions_per_user: null,
      },
    ]);
  });
});

describe('the demo data set in a PGlite data directory', () => {
  it('is still there after the database is closed and opened again, and is not seeded twice', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'gym-seed-'));
    try {
      const first = await openDatabase({ kind: 'pglite', dataDir });
      await migrateToLatest(first.db);
      expect(await seedDemoData(first.db, clock)).toBe(true);
      const before = await snapshot(first.db);
      await first.close();

      const second = await openDatabase({ kind: 'pglite', dataDir });
      try {
        expect(await migrateToLatest(second.db)).toEqual([]);
        expect(await seedDemoData(second.db, clock)).toBe(false);
        expect(await snapshot(second.db)).toEqual(before);
        expect(before.branches).toHaveLength(3);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    // Two PGlite instances created from a data directory (the first runs initdb): 6 s alone, and past the suite's
    // 30 s on a CI machine whose two cores run the other suites beside it.
  }, 90_000);
});
