import { recordAudit, type Actor } from '../kernel/audit.ts';
import {
  priceGridsFromToday,
  catalogRepository as branchRepository,
  checkBranchLinks,
  type PriceGrid,
  setPriceGrid,
  createBranchService,
  newBranchDefinition,
  changeRefundRatios,
  readRefundRatios,
} from '../catalog/index.ts';
import { centsToEuros, eurosToCents } from '../kernel/money.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import { createCouponService, couponsRepository as couponRepository } from '../booking/index.ts';
import type { Db } from '../db/database.ts';
import { runTransaction } from '../kernel/transactions.ts';
import { AppError } from '../kernel/errors.ts';
import { mapBranchDoors } from '../doors/index.ts';
import type { components } from '../../openapi/schema.gen.ts';

// What the console changes of the catalogue (branches, prices, coupons, refund policy), through the same
// services as the CLI's commands, each change and its audit row in one transaction.

type Schemas = components['schemas'];

const clockTime = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const minuteOf = (time: string) => {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
};

function changesOf(input: Schemas['AdminBranchUpdate']) {
  return {
    slug: input.slug,
    name: input.name,
    order: input.order,
    location: input.location,
    latitude: input.latitude,
    longitude: input.longitude,
    mapUrl: input.map_url,
    timeZone: input.time_zone,
    slotMinutes: input.slot_minutes,
    openingHours: input.opening_hours as never,
    activeWithSmartLock: input.active_with_smart_lock,
    images: input.images,
    descriptions: input.descriptions,
  };
}

/** A date an update sets, clears (null) or leaves as it is (undefined). */
function dateChange(value: string | null | undefined): Date | null | undefined {
  return value === undefined || value === null ? value : new Date(value);
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

export function createCatalogueService(deps: {
  db: Db;
  clock: Clock;
  horizonDays: number;
  /** Plain `http:` map and image links are taken outside production only (branches/links.ts). */
  allowPlainHttp?: boolean;
}) {
  const { db, clock } = deps;
  const linkRule = { allowPlainHttp: deps.allowPlainHttp ?? false };
  const branchesOn = (executor: Db) =>
    createBranchService({ db: executor, clock, horizonDays: deps.horizonDays, ...linkRule });

  async function audited<T>(
    actor: Actor,
    work: (trx: Db, at: Date) => Promise<{ result: T; audit: Parameters<typeof recordAudit>[2] }>,
  ) {
    const at = dateFromInstant(clock.now());
    return runTransaction(db, { name: 'catalogue' }, async (trx) => {
      const { result, audit } = await work(trx, at);
      await recordAudit(trx, actor, audit, at);
      return result;
    });
  }

  async function branchView(executor: Db, branchId: number): Promise<Schemas['AdminBranch']> {
    const branch = await branchRepository.findBranch(executor, branchId);
    if (!branch) throw new AppError('branch_not_found');
    const images = (await branchRepository.listBranchImages(executor)).get(branchId) ?? [branch.image];
    return {
      id: branch.id,
      slug: branch.slug,
      name: branch.name,
      order: branch.order,
      location: branch.location,
      latitude: branch.latitude,
      longitude: branch.longitude,
      map_url: branch.map_url,
      time_zone: branch.time_zone,
      slot_minutes: branch.slot_minutes,
      opening_hours: (branch.opening_hours ?? null) as Schemas['OpeningHours'],
      images,
      descriptions: branch.descriptions,
      active_with_smart_lock: branch.active_with_smart_lock,
      lock_devices: branch.lock_device_ids,
      slots_generated_until: branch.slots_generated_until,
    };
  }

  const bandsOf = (grid: PriceGrid): Schemas['PriceBand'][] =>
    grid.priceRules
      .map((rule) => ({
        weekday: rule.isoWeekday,
        from: clockTime(rule.startsAtMinute),
        to: clockTime(rule.endsAtMinute),
        price_eur: centsToEuros(rule.priceCents),
      }))
      .sort((a, b) => a.weekday - b.weekday || a.from.localeCompare(b.from));

  /** The grid that prices the branch's today (a dated grid whose day came counts), and the dated ones after it. */
  async function priceGrid(executor: Db, branchId: number): Promise<Schemas['PriceGrid']> {
    const grids = await priceGridsFromToday(executor, branchId, clock.now());
    if (!grids) throw new AppError('branch_not_found');
    return {
      branch_id: branchId,
      default_price_eur: centsToEuros(grids.current.defaultPriceCents),
      bands: bandsOf(grids.current),
      min_and_max_price_eur: [
        centsToEuros(grids.branch.min_price_cents),
        centsToEuros(grids.branch.max_price_cents),
      ],
      dated: grids.later.map((dated) => ({
        from: dated.startsOn.toString(),
        default_price_eur: centsToEuros(dated.grid.defaultPriceCents),
        bands: bandsOf(dated.grid),
      })),
    };
  }

  async function couponView(
    executor: Db,
    coupon: couponRepository.CouponRow,
  ): Promise<Schemas['AdminCoupon']> {
    const now = dateFromInstant(clock.now());
    const uses = await executor
      .selectFrom('coupon_redemptions as redemption')
      .innerJoin('bookings as booking', 'booking.id', 'redemption.booking_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('redemption.coupon_id', '=', coupon.id)
      .where((eb) =>
        eb.or([
          eb('booking.status', '=', 'confirmed'),
          eb.and([eb('booking.status', '=', 'pending'), eb('booking.hold_expires_at', '>', now)]),
        ]),
      )
      .executeTakeFirstOrThrow();
    return {
      code: coupon.code,
      discount: Number(coupon.discount),
      valid_from: coupon.valid_from.toISOString(),
      valid_until: coupon.valid_until?.toISOString() ?? null,
      max_uses: coupon.max_redemptions,
      max_uses_per_user: coupon.max_redemptions_per_user,
      registered_before: coupon.registered_before?.toISOString() ?? null,
      active: coupon.active,
      uses: Number(uses.count),
    };
  }

  const couponSettings = (input: Schemas['AdminCouponUpdate']) => ({
    discount: input.discount,
    valid_from: input.valid_from === undefined ? undefined : new Date(input.valid_from),
    valid_until: dateChange(input.valid_until),
    max_redemptions: input.max_uses,
    max_redemptions_per_user: input.max_uses_per_user,
    registered_before: dateChange(input.registered_before),
    active: input.active,
  });

  return {
    async listBranches(): Promise<Schemas['AdminBranch'][]> {
      const branches = await branchRepository.listBranches(db);
      return Promise.all(branches.map((branch) => branchView(db, branch.id)));
    },

    getBranch: (branchId: number) => branchView(db, branchId),

    async createBranch(actor: Actor, input: Schemas['AdminBranchCreate']): Promise<Schemas['AdminBranch']> {
      const branchId = await audited(actor, async (trx) => {
        let id: number;
        try {
          id = await branchesOn(trx).createBranch(
            newBranchDefinition({
              ...changesOf(input),
              slug: input.slug,
              name: input.name,
              location: input.location,
              latitude: input.latitude,
              longitude: input.longitude,
              timeZone: input.time_zone,
              images: input.images,
              descriptions: input.descriptions,
              defaultPriceCents: eurosToCents(input.default_price_eur),
            }),
          );
        } catch (error) {
          if (isUniqueViolation(error)) throw new AppError('branch_slug_taken');
          throw error;
        }
        if (input.lock_devices) await mapBranchDoors(trx, clock, id, input.lock_devices);
        return {
          result: id,
          audit: {
            action: 'branch.create',
            entityType: 'branch',
            entityId: id,
            after: await branchView(trx, id),
          },
        };
      });
      await branchesOn(db).ensureSlotHorizon();
      return branchView(db, branchId);
    },

    async previewBranchUpdate(
      branchId: number,
      input: Schemas['AdminBranchUpdate'],
    ): Promise<Schemas['BranchChangePreview']> {
      // A change that saving would refuse is refused here too, before it is shown as if it could be made.
      checkBranchLinks(changesOf(input), linkRule);
      const before = await branchView(db, branchId);
      const changes = Object.entries(input)
        .filter(([field, value]) => {
          const current = (before as Record<string, unknown>)[field];
          if (field === 'descriptions') {
            return Object.entries(value as object).some(
              ([locale, html]) => before.descriptions[locale as 'pt'] !== html,
            );
          }
          return JSON.stringify(current) !== JSON.stringify(value);
        })
        .map(([field, after]) => ({
          field,
          before: (before as Record<string, unknown>)[field] ?? null,
          after,
        }));
      const fields = new Set(changes.map((change) => change.field));
      const effects: Schemas['BranchChangePreview']['effects'] = [];
      if (['time_zone', 'slot_minutes', 'opening_hours'].some((field) => fields.has(field))) {
        effects.push('schedule_from_next_generated_day');
        if (before.slots_generated_until) effects.push('slots_already_generated_keep_times');
      }
      if (fields.has('active_with_smart_lock')) {
        effects.push(input.active_with_smart_lock ? 'becomes_bookable' : 'deactivation_keeps_bookings');
      }
      if (fields.has('lock_devices')) effects.push('doors_remapped');
      if (
        [
          'name',
          'images',
          'descriptions',
          'location',
          'order',
          'map_url',
          'active_with_smart_lock',
          'latitude',
          'longitude',
          'opening_hours',
        ].some((field) => fields.has(field))
      ) {
        effects.push('landing_page_changes');
      }
      const future = await db
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('branch_id', '=', branchId)
        .where('status', '=', 'confirmed')
        .where('start_time', '>', dateFromInstant(clock.now()))
        .executeTakeFirstOrThrow();
      return { changes, effects, future_bookings: Number(future.count) };
    },

    /** Same service as `branch update` (fields, gallery, descriptions merged) and `--lock-device`. */
    async updateBranch(
      actor: Actor,
      branchId: number,
      input: Schemas['AdminBranchUpdate'],
    ): Promise<Schemas['AdminBranch']> {
      await audited(actor, async (trx) => {
        const before = await branchView(trx, branchId);
        const { lock_devices: lockDevices, ...fields } = input;
        try {
          if (Object.keys(fields).length > 0) await branchesOn(trx).updateBranch(branchId, changesOf(fields));
        } catch (error) {
          if (isUniqueViolation(error)) throw new AppError('branch_slug_taken');
          throw error;
        }
        if (lockDevices) await mapBranchDoors(trx, clock, branchId, lockDevices);
        return {
          result: undefined,
          audit: {
            action: 'branch.update',
            entityType: 'branch',
            entityId: branchId,
            before,
            after: await branchView(trx, branchId),
          },
        };
      });
      return branchView(db, branchId);
    },

    getPrices: (branchId: number) => priceGrid(db, branchId),

    /** The price grid's use case, as the CLI's `prices set` calls it: re-prices the free slots at once. */
    async setPrices(
      actor: Actor,
      branchId: number,
      input: Schemas['PriceGridInput'],
    ): Promise<Schemas['PriceGrid']> {
      await runTransaction(db, { name: 'setPrices' }, (trx) =>
        setPriceGrid(
          trx,
          { clock },
          {
            actor,
            branchId,
            defaultPriceCents: eurosToCents(input.default_price_eur),
            bands: input.bands.map((band) => ({
              isoWeekday: band.weekday,
              startsAtMinute: minuteOf(band.from),
              endsAtMinute: minuteOf(band.to),
              priceCents: eurosToCents(band.price_eur),
            })),
            from: input.from,
          },
        ),
      );
      return priceGrid(db, branchId);
    },

    async listCoupons(): Promise<Schemas['AdminCoupon'][]> {
      const coupons = await createCouponService({ db, clock }).listCoupons();
      return Promise.all(coupons.map((coupon) => couponView(db, coupon)));
    },

    async createCoupon(actor: Actor, input: Schemas['AdminCouponCreate']): Promise<Schemas['AdminCoupon']> {
      const code = await audited(actor, async (trx) => {
        if (await couponRepository.findCouponByCode(trx, input.code.trim().toUpperCase()))
          throw new AppError('coupon_exists');
        const { code: _code, ...settings } = input;
        const stored = await createCouponService({ db: trx, clock }).createCoupon(input.code, {
          ...couponSettings(settings),
          discount: input.discount,
        });
        const after = await couponView(trx, (await couponRepository.findCouponByCode(trx, stored))!);
        return {
          result: stored,
          audit: { action: 'coupon.create', entityType: 'coupon', entityId: stored, after },
        };
      });
      return couponView(db, (await couponRepository.findCouponByCode(db, code))!);
    },

    async updateCoupon(
      actor: Actor,
      rawCode: string,
      input: Schemas['AdminCouponUpdate'],
    ): Promise<Schemas['AdminCoupon']> {
      const code = await audited(actor, async (trx) => {
        const existing = await couponRepository.findCouponByCode(trx, rawCode.trim().toUpperCase());
        if (!existing) throw new AppError('coupon_not_found');
        const before = await couponView(trx, existing);
        const stored = await createCouponService({ db: trx, clock }).updateCoupon(
          existing.code,
          couponSettings(input),
        );
        if (!stored) throw new AppError('coupon_not_found');
        const after = await couponView(trx, (await couponRepository.findCouponByCode(trx, stored))!);
        return {
          result: stored,
          audit: { action: 'coupon.update', entityType: 'coupon', entityId: stored, before, after },
        };
      });
      return couponView(db, (await couponRepository.findCouponByCode(db, code))!);
    },

    getRefundPolicy: () => readRefundRatios(db),

    /** Same service as `refund-ratios set` (a "0" threshold required). */
    async setRefundPolicy(
      actor: Actor,
      input: Schemas['RefundPolicyInput'],
    ): Promise<Schemas['RefundRatios']> {
      const ratios = Object.fromEntries(
        input.thresholds.map((threshold) => [String(threshold.hours), threshold.ratio]),
      );
      if (!('0' in ratios)) {
        throw new AppError(
          'validation_failed',
          { problems: 'the thresholds need one of 0 hours (the refund just before the start)' },
          {
            fields: [{ field: 'thresholds', problem: 'invalid' }],
          },
        );
      }
      return audited(actor, (trx) => changeRefundRatios(trx, ratios));
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
