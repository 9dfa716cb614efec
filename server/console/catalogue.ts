import type { Actor } from '../kernel/audit.ts';
import {
  adminArrivalKit,
  mergeArrival,
  priceGridsFromToday,
  checkBranchLinks,
  createBranch,
  type BranchChangeDependencies,
  type PriceGrid,
  readAdminBranch,
  removeDatePrice,
  setDatePrice,
  setPriceGrid,
  setRefundRatios,
  updateBranch,
  catalogRepository as branchRepository,
  readRefundRatios,
} from '../catalog/index.ts';
import { centsToEuros, eurosToCents } from '../kernel/money.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import {
  createCoupon,
  createCouponService,
  readAdminCoupon,
  updateCoupon,
  couponsRepository as couponRepository,
  adminCreditPack,
  createCreditPack,
  updateCreditPack,
  listGiftVouchersForConsole,
  packSettings,
  walletRepository,
} from '../booking/index.ts';
import type { Db } from '../db/database.ts';
import { runTransaction } from '../kernel/transactions.ts';
import { AppError } from '../kernel/errors.ts';
import { mapBranchDoors } from '../doors/index.ts';
import type { components } from '../../openapi/schema.gen.ts';
import { mayActOnBranch, type BranchScope } from '../operators/index.ts';

// What the console changes of the catalogue (branches, prices, coupons, refund policy): the contract's shapes
// turned into the same use cases the CLI's commands call, each writing its own audit row in the transaction.

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
    arrival: input.arrival,
  };
}

/** A date an update sets, clears (null) or leaves as it is (undefined). */
function dateChange(value: string | null | undefined): Date | null | undefined {
  return value === undefined || value === null ? value : new Date(value);
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
  const branchDependencies: BranchChangeDependencies = {
    clock,
    horizonDays: deps.horizonDays,
    ...linkRule,
    mapDoors: (trx, branchId, deviceIds) => mapBranchDoors(trx, clock, branchId, deviceIds),
  };
  const change = <T>(name: string, work: (trx: Db) => Promise<T>) => runTransaction(db, { name }, work);
  const branchView = readAdminBranch;

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
      by_date: grids.byDate.map(({ date, price }) => ({
        date,
        day_price_eur: centsToEuros(price.dayPriceCents),
        bands: price.bands.map((band) => ({
          from: clockTime(band.startsAtMinute),
          to: clockTime(band.endsAtMinute),
          price_eur: centsToEuros(band.priceCents),
        })),
      })),
    };
  }

  const couponView = (executor: Db, coupon: couponRepository.CouponRow) =>
    readAdminCoupon(executor, coupon, dateFromInstant(clock.now()));

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
    /** The caller's branches (every branch for owners and unlimited staff). */
    async listBranches(scope: BranchScope): Promise<Schemas['AdminBranch'][]> {
      const branches = (await branchRepository.listBranches(db)).filter((branch) =>
        mayActOnBranch(scope, branch.id),
      );
      return Promise.all(branches.map((branch) => branchView(db, branch.id)));
    },

    getBranch: (branchId: number) => branchView(db, branchId),

    async createBranch(actor: Actor, input: Schemas['AdminBranchCreate']): Promise<Schemas['AdminBranch']> {
      const branchId = await change('createBranch', (trx) =>
        createBranch(trx, branchDependencies, {
          actor,
          branch: {
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
          },
          lockDevices: input.lock_devices,
        }),
      );
      return branchView(db, branchId);
    },

    async previewBranchUpdate(
      branchId: number,
      input: Schemas['AdminBranchUpdate'],
    ): Promise<Schemas['BranchChangePreview']> {
      // A change that saving would refuse is refused here too, before it is shown as if it could be made.
      checkBranchLinks(changesOf(input), linkRule);
      const before = await branchView(db, branchId);
      // The kit's change is merged into the stored kit: what it will be, not only the parts sent.
      const afterOf = (field: string, value: unknown) =>
        field === 'arrival' && input.arrival
          ? adminArrivalKit(mergeArrival(before.arrival, input.arrival))
          : value;
      const changes = Object.entries(input)
        .filter(([field, value]) => {
          const current = (before as Record<string, unknown>)[field];
          if (field === 'descriptions') {
            return Object.entries(value as object).some(
              ([locale, html]) => before.descriptions[locale as 'pt'] !== html,
            );
          }
          return JSON.stringify(current) !== JSON.stringify(afterOf(field, value));
        })
        .map(([field, after]) => ({
          field,
          before: (before as Record<string, unknown>)[field] ?? null,
          after: afterOf(field, after),
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

    /** The use case of `branch update` (fields, gallery, descriptions merged) and `--lock-device`. */
    async updateBranch(
      actor: Actor,
      branchId: number,
      input: Schemas['AdminBranchUpdate'],
    ): Promise<Schemas['AdminBranch']> {
      const { lock_devices: lockDevices, vat_rate: vatRate, guest_limit: guestLimit, ...fields } = input;
      await change('updateBranch', (trx) =>
        updateBranch(trx, branchDependencies, {
          actor,
          branchId,
          changes: changesOf(fields),
          lockDevices,
          vatRate,
          guestLimit,
        }),
      );
      return branchView(db, branchId);
    },

    getPrices: (branchId: number) => priceGrid(db, branchId),

    /** The price grid's use case, as the CLI's `prices set` calls it: re-prices the free slots at once. */
    async setPrices(
      actor: Actor,
      branchId: number,
      input: Schemas['PriceGridInput'],
    ): Promise<Schemas['PriceGrid']> {
      await change('setPrices', (trx) =>
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

    /** A date's own price (issue 32), by its use case (server/catalog/use-cases/set-date-price.ts). */
    async setDatePrice(
      actor: Actor,
      branchId: number,
      date: string,
      input: Schemas['DatePriceInput'],
    ): Promise<Schemas['PriceGrid']> {
      await change('setDatePrice', (trx) =>
        setDatePrice(
          trx,
          { clock },
          {
            actor,
            branchId,
            date,
            price: {
              dayPriceCents: eurosToCents(input.day_price_eur),
              bands: input.bands.map((band) => ({
                startsAtMinute: minuteOf(band.from),
                endsAtMinute: minuteOf(band.to),
                priceCents: eurosToCents(band.price_eur),
              })),
            },
          },
        ),
      );
      return priceGrid(db, branchId);
    },

    async removeDatePrice(actor: Actor, branchId: number, date: string): Promise<Schemas['PriceGrid']> {
      await change('removeDatePrice', (trx) => removeDatePrice(trx, { clock }, { actor, branchId, date }));
      return priceGrid(db, branchId);
    },

    async listCoupons(): Promise<Schemas['AdminCoupon'][]> {
      const coupons = await createCouponService({ db, clock }).listCoupons();
      return Promise.all(coupons.map((coupon) => couponView(db, coupon)));
    },

    async createCoupon(actor: Actor, input: Schemas['AdminCouponCreate']): Promise<Schemas['AdminCoupon']> {
      const { code: typed, ...settings } = input;
      const code = await change('createCoupon', (trx) =>
        createCoupon(
          trx,
          { clock },
          { actor, code: typed, settings: { ...couponSettings(settings), discount: input.discount } },
        ),
      );
      return couponView(db, (await couponRepository.findCouponByCode(db, code))!);
    },

    async updateCoupon(
      actor: Actor,
      typed: string,
      input: Schemas['AdminCouponUpdate'],
    ): Promise<Schemas['AdminCoupon']> {
      const code = await change('updateCoupon', (trx) =>
        updateCoupon(trx, { clock }, { actor, code: typed, changes: couponSettings(input) }),
      );
      return couponView(db, (await couponRepository.findCouponByCode(db, code))!);
    },

    async listCreditPacks(): Promise<Schemas['AdminCreditPack'][]> {
      return (await walletRepository.listPacks(db, { onSale: false })).map(adminCreditPack);
    },

    async createCreditPack(
      actor: Actor,
      input: Schemas['AdminCreditPackCreate'],
    ): Promise<Schemas['AdminCreditPack']> {
      const id = await change('createCreditPack', (trx) =>
        createCreditPack(trx, { clock }, { actor, settings: packSettings(input, null) }),
      );
      return adminCreditPack((await walletRepository.findPack(db, id))!);
    },

    async updateCreditPack(
      actor: Actor,
      packId: number,
      input: Schemas['AdminCreditPackUpdate'],
    ): Promise<Schemas['AdminCreditPack']> {
      await change('updateCreditPack', (trx) =>
        updateCreditPack(
          trx,
          { clock },
          { actor, packId, changes: (current) => packSettings(input, current) },
        ),
      );
      return adminCreditPack((await walletRepository.findPack(db, packId))!);
    },

    /** The gift vouchers sold (issue 31), for the console's list. */
    listGiftVouchers: (status?: Schemas['GiftVoucherStatus'] | 'expiring') =>
      listGiftVouchersForConsole(db, dateFromInstant(clock.now()), status),

    getRefundPolicy: () => readRefundRatios(db),

    /** The use case of `refund-ratios set`: the thresholds as hours -> ratio, a "0" one required. */
    async setRefundPolicy(
      actor: Actor,
      input: Schemas['RefundPolicyInput'],
    ): Promise<Schemas['RefundRatios']> {
      const ratios = Object.fromEntries(
        input.thresholds.map((threshold) => [String(threshold.hours), threshold.ratio]),
      );
      return change('setRefundPolicy', (trx) => setRefundRatios(trx, { clock }, { actor, ratios }));
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
