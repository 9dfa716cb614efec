import { beforeAll, expect, it } from 'vitest';
import { createBranchService } from '../../server/catalog/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { writeRefundRatios } from '../../server/catalog/refund-ratios.ts';
import { describeOnPglite } from './support/databases.ts';
import { branchDefinition, createBranch } from './support/fixtures.ts';

describeOnPglite('branches', (getDb) => {
  // Sunday 22 November 2026, 07:45:12.123 in Lisbon (UTC+0 in winter).
  const clock = fixedClock('2026-11-22T07:45:12.123Z');
  const service = () => createBranchService({ db: getDb(), clock, horizonDays: 7 });
  let lisbon: number;
  let madeira: number;
  let helsinki: number;

  beforeAll(async () => {
    helsinki = await createBranch(getDb(), {
      name: 'Helsinki',
      order: 2,
      timeZone: 'Europe/Helsinki',
      images: ['/images/branches/h-1.svg', '/images/branches/h-2.svg', '/images/branches/h-3.svg'],
    });
    lisbon = await createBranch(getDb(), {
      name: 'Lisboa',
      order: 1,
      defaultPriceCents: 1250,
      priceRules: [
        { isoWeekday: 1, startsAtMinute: 0, endsAtMinute: 420, priceCents: 899 },
        { isoWeekday: 5, startsAtMinute: 1020, endsAtMinute: 1260, priceCents: 2199 },
      ],
    });
    madeira = await createBranch(getDb(), {
      name: 'Funchal',
      order: 2,
      timeZone: 'Atlantic/Madeira',
      activeWithSmartLock: false,
    });
  });

  it('are listed by order, then by id, with their gallery, prices in euros and descriptions', async () => {
    const branches = await service().listBranches();
    expect(branches.map((branch) => branch.id)).toEqual([lisbon, helsinki, madeira]);
    expect(branches[0]).toEqual({
      id: lisbon,
      name: 'Lisboa',
      order: 1,
      image: '/images/branches/test-1.svg',
      images_urls: ['/images/branches/test-1.svg', '/images/branches/test-2.svg'],
      location: 'Rua de Teste 1, 1000-001 Lisboa',
      active_with_smart_lock: true,
      descriptions_data: {
        pt: '<p>pt</p>',
        en: '<p>en</p>',
        fr: '<p>fr</p>',
        de: '<p>de</p>',
        sk: '<p>sk</p>',
      },
      min_and_max_price_eur_long_cached: [8.99, 21.99],
      time_zone: 'Europe/Lisbon',
      slot_minutes: 60,
      latitude: 38.7369,
      longitude: -9.1427,
      map_url: null,
    });
    expect(branches[1]?.images_urls).toHaveLength(3);
    expect(branches[2]?.active_with_smart_lock).toBe(false);
  });

  it('tell their current local time with their own offset', async () => {
    expect(await service().getLocalTime(lisbon)).toBe('2026-11-22T07:45:12.123+00:00');
    expect(await service().getLocalTime(helsinki)).toBe('2026-11-22T09:45:12.123+02:00');
    await expect(service().getLocalTime(424242)).rejects.toMatchObject({ code: 'branch_not_found' });
  });

  it('keep their cached price range in step with their price rules', async () => {
    await getDb()
      .insertInto('price_rules')
      .values({
        branch_id: lisbon,
        iso_weekday: 6,
        starts_at_minute: 600,
        ends_at_minute: 720,
        price_cents: 3000,
      })
      .execute();
    expect(await service().recomputeCachedPrices(lisbon)).toEqual({ minCents: 899, maxCents: 3000 });
    const [listed] = await service().listBranches();
    expect(listed?.min_and_max_price_eur_long_cached).toEqual([8.99, 30]);
    await expect(service().recomputeCachedPrices(424242)).rejects.toMatchObject({ code: 'branch_not_found' });
  });

  it('are refused when their definition could not work', async () => {
    // A refusal names the field as the contract does, never a 500 behind the console.
    await expect(
      service().createBranch(branchDefinition({ name: 'Refused', timeZone: 'Europe/Atlantis' })),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      params: { problems: 'time_zone: not an IANA time zone' },
      fields: { fields: [{ field: 'time_zone', problem: 'invalid' }] },
    });
    await expect(
      service().createBranch(
        branchDefinition({
          name: 'Refused',
          openingHours: {
            '1': [
              [600, 900],
              [800, 1000],
            ],
          },
        }),
      ),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      params: { problems: 'opening_hours: opening ranges of a day must not overlap' },
    });
    expect((await service().listBranches()).map((branch) => branch.name)).not.toContain('Refused');
  });

  it('answer the refund policy in force, a default until one is set', async () => {
    expect(await service().getRefundRatios()).toEqual({ '48': 1, '24': 0.5, '0': 0 });
    await writeRefundRatios(getDb(), { '72': 1, '0': 0.25 });
    expect(await service().getRefundRatios()).toEqual({ '72': 1, '0': 0.25 });
  });
});
