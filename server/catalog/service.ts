import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { dateFromInstant, inAcceptedYears, type Clock } from '../kernel/clock.ts';
import { checkBranchLinks } from './links.ts';
import type { Db } from '../db/database.ts';
import { inTransaction, runTransaction } from '../kernel/transactions.ts';
import type { Updateable } from 'kysely';
import type { BranchesTable, Descriptions, RefundRatios, StoredArrivalKit } from '../db/schema.ts';
import { centsToEuros } from '../kernel/money.ts';
import { AppError } from '../kernel/errors.ts';
import { LOCALES, type Locale } from '../kernel/i18n.ts';
import { arrivalChangeSchema, mergeArrival } from './arrival.ts';
import { sanitizeDescription } from './descriptions.ts';
import { readRefundRatios } from './refund-ratios.ts';
import {
  bringDueGridsInForce,
  localToday,
  readPriceGrids,
  refreshCachedPriceRange,
  scheduleOf,
} from './price-grids.ts';
import * as repository from './repository.ts';
import type { SlotDayCache } from './slot-day-cache.ts';
import { datesBetween, generateDaySlots, gridOn, MINUTES_PER_DAY, priceRange } from './schedule.ts';
import type { components } from '../../openapi/schema.gen.ts';

type Schemas = components['schemas'];

type SlotHorizonReport = { branchId: number; from: string; until: string; slotsAdded: number }[];

/**
 * ISO 8601 with the branch's offset and no zone annotation: 2026-03-29T03:00:00+01:00 to the second, or
 * 2026-11-22T07:45:12.123+00:00 to the millisecond (a fraction only when there is one).
 */
export function formatLocalTime(
  instant: Temporal.Instant,
  timeZone: string,
  precision: 'second' | 'millisecond' = 'second',
): string {
  return instant
    .round({ smallestUnit: precision, roundingMode: 'trunc' })
    .toZonedDateTimeISO(timeZone)
    .toString({ timeZoneName: 'never' });
}

// The same text without the polyfill, for lists that format a few times per row (my bookings): the engine's own
// Intl gives the zone's wall clock, and the offset is the wall clock read as UTC minus the instant. One formatter
// per zone, made once.
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** formatLocalTime(instant, timeZone, 'second') for epoch milliseconds, at a fraction of its cost. */
export function formatEpochInZone(epochMilliseconds: number, timeZone: string): string {
  let wallClock = wallClocks.get(timeZone);
  if (wallClock === undefined) {
    wallClock = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClocks.set(timeZone, wallClock);
  }
  const seconds = Math.floor(epochMilliseconds / 1000) * 1000;
  const parts: Record<string, string> = {};
  for (const part of wallClock.formatToParts(seconds)) parts[part.type] = part.value;
  const [year, month, day, hour, minute, second] = [
    parts.year,
    parts.month,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  ].map(Number) as [number, number, number, number, number, number];
  const offsetMinutes = Math.round((Date.UTC(year, month - 1, day, hour, minute, second) - seconds) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const two = (value: number) => String(value).padStart(2, '0');
  return (
    `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}` +
    `${sign}${two(Math.floor(absolute / 60))}:${two(absolute % 60)}`
  );
}

// A zone conversion costs ~40 µs with the Temporal polyfill, and a day's slot listing makes ~50 of them for
// the same few instants on every request (npm run bench). Slot times repeat, so their texts are kept, keyed by
// zone and epoch milliseconds (no Temporal object is made on a hit); the cache is emptied when it grows past
// the size of a busy horizon, so it never grows without bound.
const SLOT_TIME_CACHE_LIMIT = 200_000;
const slotTimeTexts = new Map<string, Map<number, string>>();
let slotTimeTextCount = 0;

/** formatLocalTime to the second, remembered: for slot boundaries, which are read far more than they change. */
function formatSlotTime(epochMilliseconds: number, timeZone: string): string {
  let texts = slotTimeTexts.get(timeZone);
  if (texts === undefined) {
    texts = new Map();
    slotTimeTexts.set(timeZone, texts);
  }
  let text = texts.get(epochMilliseconds);
  if (text === undefined) {
    if (slotTimeTextCount >= SLOT_TIME_CACHE_LIMIT) {
      for (const zoneTexts of slotTimeTexts.values()) zoneTexts.clear();
      slotTimeTextCount = 0;
    }
    text = formatLocalTime(Temporal.Instant.fromEpochMilliseconds(epochMilliseconds), timeZone);
    texts.set(epochMilliseconds, text);
    slotTimeTextCount += 1;
  }
  return text;
}

// Parsing a date with the polyfill costs more than the rest of a slot listing's own work; the dates clients ask
// for are few (the horizon's), so the valid ones are remembered. Bounded like the slot texts.
const parsedDates = new Map<string, Temporal.PlainDate>();
const PARSED_DATES_LIMIT = 10_000;

/** 'YYYY-MM-DD' naming a real calendar date (2026-02-30 is refused), else `invalid_date`. */
function parseCalendarDate(text: string): Temporal.PlainDate {
  const known = parsedDates.get(text);
  if (known) return known;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw new AppError('invalid_date');
  let date: Temporal.PlainDate;
  try {
    date = Temporal.PlainDate.from(text, { overflow: 'reject' });
  } catch {
    throw new AppError('invalid_date');
  }
  // PostgreSQL has no year 0; Temporal does. No slot exists outside the accepted years anyway.
  if (!inAcceptedYears(text)) throw new AppError('invalid_date');
  if (parsedDates.size >= PARSED_DATES_LIMIT) parsedDates.clear();
  parsedDates.set(text, date);
  return date;
}

// --- Reading stored branches into schedules -------------------------------------------------------------

const LAST_MINUTE = MINUTES_PER_DAY - 1;

const minuteRange = z
  .tuple([z.number().int().min(0).max(LAST_MINUTE), z.number().int().min(1).max(MINUTES_PER_DAY)])
  .refine(([open, close]) => close > open, 'a range closes after it opens');

const openingHoursSchema = z
  .partialRecord(z.enum(['1', '2', '3', '4', '5', '6', '7']), z.array(minuteRange))
  .refine(
    (days) =>
      Object.values(days).every((ranges) =>
        [...(ranges ?? [])]
          .sort((a, b) => a[0] - b[0])
          .every((range, index, sorted) => index === 0 || range[0] >= sorted[index - 1]![1]),
      ),
    'opening ranges of a day must not overlap',
  );

function isTimeZone(name: string): boolean {
  try {
    Temporal.Now.instant().toZonedDateTimeISO(name);
    return true;
  } catch {
    return false;
  }
}

// --- Defining branches (seed, admin) ---------------------------------------------------------------------

const priceRuleSchema = z
  .object({
    isoWeekday: z.number().int().min(1).max(7),
    startsAtMinute: z.number().int().min(0).max(LAST_MINUTE),
    endsAtMinute: z.number().int().min(1).max(MINUTES_PER_DAY),
    priceCents: z.number().int().min(0),
  })
  .refine((rule) => rule.endsAtMinute > rule.startsAtMinute, 'a price band ends after it starts');

const branchDefinitionSchema = z.object({
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  name: z.string().trim().min(1),
  order: z.number().int(),
  location: z.string().trim().min(1),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  // The services check links as the product publishes them (links.ts); this keeps any other writer to the web.
  mapUrl: z.url({ protocol: /^https?$/ }).nullable(),
  timeZone: z.string().refine(isTimeZone, 'not an IANA time zone'),
  slotMinutes: z.number().int().min(5).max(MINUTES_PER_DAY),
  openingHours: openingHoursSchema.nullable(),
  activeWithSmartLock: z.boolean(),
  /** The first is the main image. */
  images: z.array(z.string().min(1)).min(1),
  /** Sanitised HTML per interface language. */
  descriptions: z
    .partialRecord(z.enum(LOCALES), z.string())
    .superRefine((descriptions, context) => {
      const missing = LOCALES.filter((locale) => descriptions[locale] === undefined);
      if (missing.length > 0) {
        context.addIssue({
          code: 'custom',
          message: `a description is needed in every language; missing: ${missing.join(', ')}`,
        });
      }
    })
    .transform((descriptions) => descriptions as Descriptions),
  defaultPriceCents: z.number().int().min(0),
  priceRules: z.array(priceRuleSchema),
  /** The arrival kit (arrival.ts): on a change, the parts given replace the stored ones, texts per language. */
  arrival: arrivalChangeSchema.optional(),
});

export type BranchDefinition = z.input<typeof branchDefinitionSchema>;

/** A definition's field as the contract and the console name it: `timeZone` -> `time_zone`, `images.1` -> `images[1]`. */
function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, key) => {
    if (typeof key === 'number') return `${name}[${key}]`;
    const snake = String(key).replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    return name ? `${name}.${snake}` : snake;
  }, '');
}

/**
 * A branch definition (or change) read by `schema`; what it refuses (a time zone that is not one, a name of
 * spaces) is 422 `validation_failed` naming each field, as the contract's own refusals do.
 */
function parseDefinition<Output>(schema: z.ZodType<Output>, input: unknown): Output {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    field: fieldName(issue.path),
    message: issue.message,
  }));
  throw new AppError(
    'validation_failed',
    { problems: issues.map((issue) => `${issue.field || 'branch'}: ${issue.message}`).join('; ') },
    { fields: issues.map((issue) => ({ field: issue.field || 'branch', problem: 'invalid' as const })) },
  );
}

type DefaultedField =
  'order' | 'mapUrl' | 'slotMinutes' | 'openingHours' | 'activeWithSmartLock' | 'priceRules';

export type NewBranch = Omit<BranchDefinition, DefaultedField> &
  Partial<Pick<BranchDefinition, DefaultedField>>;

/**
 * A new branch as the CLI and the console add it: what is not given takes its default (first in order, no map
 * link, hourly slots, open all hours, active with the smart lock, no price rules).
 */

export function newBranchDefinition(branch: NewBranch): BranchDefinition {
  return {
    ...branch,
    order: branch.order ?? 0,
    mapUrl: branch.mapUrl ?? null,
    slotMinutes: branch.slotMinutes ?? 60,
    openingHours: branch.openingHours ?? null,
    activeWithSmartLock: branch.activeWithSmartLock ?? true,
    priceRules: branch.priceRules ?? [],
  };
}

/**
 * What an operator may change of a branch: any field of its definition but its prices, which change through the
 * price grid's own use case (use-cases/set-price-grid.ts).
 */
export type BranchChanges = Partial<Omit<BranchDefinition, 'priceRules' | 'defaultPriceCents'>>;

/** The stored kit with the change applied; a change the kit's schema refuses is left for parseDefinition to name. */
function mergeArrivalChange(stored: StoredArrivalKit, change: NonNullable<BranchChanges['arrival']>) {
  return arrivalChangeSchema.safeParse(change).success ? mergeArrival(stored, change) : change;
}

function sanitizeDescriptions<T extends BranchChanges>(definition: T): T {
  if (definition.descriptions === undefined) return definition;
  return {
    ...definition,
    descriptions: Object.fromEntries(
      Object.entries(definition.descriptions).map(([locale, html]) => [locale, sanitizeDescription(html)]),
    ),
  };
}

function branchColumns(
  patch: z.output<ReturnType<typeof branchDefinitionSchema.partial>>,
): Updateable<BranchesTable> {
  return {
    ...(patch.slug !== undefined && { slug: patch.slug }),
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.order !== undefined && { order: patch.order }),
    ...(patch.location !== undefined && { location: patch.location }),
    ...(patch.latitude !== undefined && { latitude: patch.latitude }),
    ...(patch.longitude !== undefined && { longitude: patch.longitude }),
    ...(patch.mapUrl !== undefined && { map_url: patch.mapUrl }),
    ...(patch.timeZone !== undefined && { time_zone: patch.timeZone }),
    ...(patch.slotMinutes !== undefined && { slot_minutes: patch.slotMinutes }),
    ...(patch.openingHours !== undefined && {
      opening_hours: patch.openingHours === null ? null : JSON.stringify(patch.openingHours),
    }),
    ...(patch.activeWithSmartLock !== undefined && { active_with_smart_lock: patch.activeWithSmartLock }),
    ...(patch.images !== undefined && { image: patch.images[0]! }),
    ...(patch.descriptions !== undefined && { descriptions: JSON.stringify(patch.descriptions) }),
    ...(patch.arrival !== undefined && { arrival: JSON.stringify(patch.arrival) }),
  };
}

/**
 * Stores a new branch with its gallery and price rules, cached price range included. Runs on the given
 * executor, so callers that need it atomic pass a transaction.
 */
export async function insertBranchDefinition(db: Db, definition: BranchDefinition): Promise<number> {
  const branch = parseDefinition(branchDefinitionSchema, definition);
  const range = priceRange(branch);
  const branchId = await repository.insertBranch(db, {
    slug: branch.slug,
    name: branch.name,
    order: branch.order,
    location: branch.location,
    latitude: branch.latitude,
    longitude: branch.longitude,
    map_url: branch.mapUrl,
    time_zone: branch.timeZone,
    slot_minutes: branch.slotMinutes,
    opening_hours: branch.openingHours === null ? null : JSON.stringify(branch.openingHours),
    active_with_smart_lock: branch.activeWithSmartLock,
    image: branch.images[0]!,
    descriptions: JSON.stringify(branch.descriptions),
    // Given only with a kit: the column's default is the empty kit (and a database not migrated to it yet, as
    // the migrations' own tests make, takes a branch without one).
    ...(branch.arrival !== undefined && { arrival: JSON.stringify(mergeArrival({}, branch.arrival)) }),
    default_price_cents: branch.defaultPriceCents,
    min_price_cents: range.minCents,
    max_price_cents: range.maxCents,
  });
  // Created bookable: bookable since it exists (none of its slots is older).
  if (branch.activeWithSmartLock) await repository.recordBookable(db, branchId, true, '-infinity');
  await repository.insertBranchImages(db, branchId, branch.images);
  await repository.insertPriceRules(
    db,
    branch.priceRules.map((rule) => ({
      branch_id: branchId,
      iso_weekday: rule.isoWeekday,
      starts_at_minute: rule.startsAtMinute,
      ends_at_minute: rule.endsAtMinute,
      price_cents: rule.priceCents,
    })),
  );
  return branchId;
}

// --- The service -----------------------------------------------------------------------------------------

export type BranchServiceDependencies = {
  db: Db;
  clock: Clock;
  /** How many branch-local days, today included, have slots. */
  horizonDays: number;
  /** Whether map and image links may be plain `http:` (outside production); `https:` or site paths otherwise. */
  allowPlainHttp?: boolean;
  /** The slot listing's rows kept until they change; none (every listing read from the database) when null. */
  slotDays?: SlotDayCache | null;
};

/**
 * The slots starting on a branch-local date, as `GET /bookings/slots` lists them. Bookable: the branch takes
 * bookings, the slot starts after now, and no confirmed booking or unexpired hold covers it. Dates outside the
 * horizon have none.
 */
export async function listSlotsOfDay(
  db: Db,
  branchId: number,
  date: string,
  nowMs: number,
  kept: SlotDayCache | null = null,
): Promise<Schemas['TimeSlot'][]> {
  // Validated; a valid date's text is already its canonical form.
  parseCalendarDate(date);
  // One round trip: the branch comes with its day's slots.
  const read = () => repository.listSlotsOnDate(db, branchId, date, nowMs);
  const day = await (kept ? kept.read(branchId, date, nowMs, read) : read());
  if (!day) throw new AppError('branch_not_found');
  if (day.slots === null) return [];
  const { time_zone: timeZone, active_with_smart_lock: active } = day;
  return day.slots.map(([id, startMs, endMs, priceCents, taken]) => ({
    id,
    start_time: formatSlotTime(startMs, timeZone),
    end_time: formatSlotTime(endMs, timeZone),
    basic_price_eur: centsToEuros(priceCents),
    is_bookeable: active && startMs > nowMs && !taken,
  }));
}

export function createBranchService({
  db,
  clock,
  horizonDays,
  allowPlainHttp = false,
  slotDays = null,
}: BranchServiceDependencies) {
  async function requireBranch(branchId: number): Promise<repository.BranchRow> {
    const branch = await repository.findBranch(db, branchId);
    if (!branch) throw new AppError('branch_not_found');
    return branch;
  }

  /** Re-derives the branch's cached [min, max] price after its grids, hours or slot horizon change. */
  async function recomputeCachedPrices(branchId: number): Promise<{ minCents: number; maxCents: number }> {
    const range = await refreshCachedPriceRange(db, branchId, clock.now());
    if (!range) throw new AppError('branch_not_found');
    return range;
  }

  /**
   * Generates the branch's slots of the days past its horizon, each day priced by its own grid, and refreshes its
   * price range (a dated grid may have come within the horizon). Under the branch's lock, as saving a grid is, so
   * a grid saved meanwhile either priced these days already or waits until they exist and prices them.
   */
  async function generateSlotsFor(branchId: number) {
    return runTransaction(db, { name: 'slotHorizon' }, async (trx) => {
      const branch = await repository.lockBranch(trx, branchId);
      if (!branch) return null;
      const today = localToday(branch, clock.now());
      const until = today.add({ days: horizonDays - 1 });
      const generatedUntil = branch.slots_generated_until
        ? Temporal.PlainDate.from(branch.slots_generated_until)
        : null;
      const from =
        generatedUntil && Temporal.PlainDate.compare(generatedUntil, today) >= 0
          ? generatedUntil.add({ days: 1 })
          : today;
      if (Temporal.PlainDate.compare(from, until) > 0) return null;

      const grids = await readPriceGrids(trx, branch);
      const slots = datesBetween(from, until).flatMap((date) =>
        generateDaySlots(scheduleOf(branch, gridOn(grids, date)), date),
      );
      const slotsAdded = await repository.insertSlots(
        trx,
        slots.map((slot) => ({
          branch_id: branch.id,
          start_time: slot.startTime.toString(),
          end_time: slot.endTime.toString(),
          local_date: slot.localDate.toString(),
          price_cents: slot.priceCents,
        })),
      );
      await repository.advanceSlotsGeneratedUntil(trx, branch.id, until.toString());
      await refreshCachedPriceRange(trx, branch.id, clock.now());
      return { branchId: branch.id, from: from.toString(), until: until.toString(), slotsAdded };
    });
  }

  return {
    /** Every branch; with `lang`, its description in that language only (the listing's size follows the branches). */
    async listBranches(lang: Locale | null = null): Promise<Schemas['Branch'][]> {
      const [branches, images] = await Promise.all([
        repository.listBranches(db),
        repository.listBranchImages(db),
      ]);
      return branches.map((branch) => ({
        id: branch.id,
        name: branch.name,
        order: branch.order,
        image: branch.image,
        images_urls: images.get(branch.id) ?? [],
        location: branch.location,
        active_with_smart_lock: branch.active_with_smart_lock,
        descriptions_data: lang
          ? { [lang]: branch.descriptions[lang] }
          : {
              pt: branch.descriptions.pt,
              en: branch.descriptions.en,
              fr: branch.descriptions.fr,
              de: branch.descriptions.de,
              sk: branch.descriptions.sk,
            },
        min_and_max_price_eur_long_cached: [
          centsToEuros(branch.min_price_cents),
          centsToEuros(branch.max_price_cents),
        ],
        time_zone: branch.time_zone,
        slot_minutes: branch.slot_minutes,
        latitude: branch.latitude,
        longitude: branch.longitude,
        map_url: branch.map_url,
      }));
    },

    /** The branch's current local date-time, e.g. 2026-11-22T07:45:12.123+00:00. */
    async getLocalTime(branchId: number): Promise<string> {
      const branch = await requireBranch(branchId);
      return formatLocalTime(clock.now(), branch.time_zone, 'millisecond');
    },

    /** listSlotsOfDay at the clock's now, from the rows kept until they change where the process keeps them. */
    async listSlots(branchId: number, date: string): Promise<Schemas['TimeSlot'][]> {
      return listSlotsOfDay(db, branchId, date, clock.now().epochMilliseconds, slotDays);
    },

    async getRefundRatios(): Promise<RefundRatios> {
      return readRefundRatios(db);
    },

    /**
     * Makes every branch have its slots from its local today through `horizonDays` days. Idempotent and
     * safe to run concurrently; only days past each branch's generated horizon are computed.
     */
    async ensureSlotHorizon(): Promise<SlotHorizonReport> {
      const report: SlotHorizonReport = [];
      for (const branch of await repository.listBranches(db)) {
        const generated = await generateSlotsFor(branch.id);
        if (generated) report.push(generated);
      }
      return report;
    },

    /**
     * Keeps slots and the landing's ranges with the grids as days pass and bookings end (the minute sweep): dated
     * grids whose first day has come in their branch's zone become the grids in force, with the range refreshed
     * (the grid before no longer prices a bookable day), and free slots that kept their price while a booking held
     * them take their grid's. Answers how many slots changed price.
     */
    async keepPricesCurrent(): Promise<number> {
      const now = clock.now();
      const dated = await repository.listDatedPriceGrids(db);
      for (const branch of await repository.listBranches(db)) {
        const today = localToday(branch, now).toString();
        if (!dated.some((grid) => grid.branch_id === branch.id && grid.starts_on <= today)) continue;
        await runTransaction(db, { name: 'pricesInForce' }, async (trx) => {
          const locked = await repository.lockBranch(trx, branch.id);
          if (!locked) return;
          if (await bringDueGridsInForce(trx, branch.id, localToday(locked, now))) {
            await refreshCachedPriceRange(trx, branch.id, now);
          }
        });
      }
      return runTransaction(db, { name: 'nextSlotPrices' }, (trx) =>
        repository.takeNextPricesOfFreeSlots(trx, dateFromInstant(now)),
      );
    },

    /** ensureSlotHorizon for one branch: a branch just added, in the transaction that adds it. */
    async ensureSlotHorizonOf(branchId: number): Promise<void> {
      await generateSlotsFor(branchId);
    },

    recomputeCachedPrices,

    /** Adds a branch atomically (gallery, price rules and cached prices with it); descriptions sanitised. */
    async createBranch(definition: BranchDefinition): Promise<number> {
      checkBranchLinks(definition, { allowPlainHttp });
      const safe = sanitizeDescriptions(definition);
      return inTransaction(db, (trx) => insertBranchDefinition(trx, safe));
    },

    /** The stored branch, or undefined. */
    async findBranch(branchId: number): Promise<repository.BranchRow | undefined> {
      return repository.findBranch(db, branchId);
    },

    /** The stored branches as operators see them (slug, prices in cents, slot horizon). */
    async listBranchRecords(): Promise<repository.BranchRow[]> {
      return repository.listBranches(db);
    },

    /**
     * Changes a branch atomically: its fields, its gallery (replaced when `images` is given), descriptions
     * merged into the stored ones per language; then its cached prices. Slots already generated keep their
     * times (zone, slot length and hours apply to days not generated yet). Answers how far slots were generated
     * before the change.
     */
    async updateBranch(
      branchId: number,
      changes: BranchChanges,
    ): Promise<{ slotsGeneratedUntil: string | null }> {
      checkBranchLinks(changes, { allowPlainHttp });
      const branch = await requireBranch(branchId);
      const patch = parseDefinition(
        branchDefinitionSchema.partial(),
        sanitizeDescriptions({
          ...changes,
          ...(changes.descriptions && { descriptions: { ...branch.descriptions, ...changes.descriptions } }),
          ...(changes.arrival && { arrival: mergeArrivalChange(branch.arrival, changes.arrival) }),
        }),
      );
      await inTransaction(db, async (trx) => {
        // Read under the row's lock: two changes of the flag at once open or end one period, never two.
        const wasBookable = (await repository.lockBranch(trx, branchId))?.active_with_smart_lock;
        await repository.updateBranch(trx, branchId, branchColumns(patch));
        if (patch.images !== undefined) await repository.replaceBranchImages(trx, branchId, patch.images);
        if (patch.activeWithSmartLock !== undefined && patch.activeWithSmartLock !== wasBookable)
          await repository.recordBookable(
            trx,
            branchId,
            patch.activeWithSmartLock,
            dateFromInstant(clock.now()),
          );
      });
      await recomputeCachedPrices(branchId);
      return { slotsGeneratedUntil: branch.slots_generated_until };
    },

    async listPriceRules(branchId: number): Promise<repository.PriceRuleRow[]> {
      return repository.listPriceRules(db, branchId);
    },
  };
}

export type BranchService = ReturnType<typeof createBranchService>;
