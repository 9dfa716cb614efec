import { parseArgs, type ParseArgsConfig } from 'node:util';
import { Temporal } from 'temporal-polyfill';
import { ZodError } from 'zod';
import { branchDefinitionSchema, createBranchService, formatLocalTime } from '../branches/service.ts';
import * as branchRepository from '../branches/repository.ts';
import { instantFromDate, type Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { BookingStatus, Descriptions } from '../db/schema.ts';
import { sqlState } from '../bookings/database-errors.ts';
import { AppError } from '../errors.ts';
import { LOCALES, isLocale } from '../i18n.ts';
import { readRefundRatios, refundRatiosSchema, writeRefundRatios } from '../settings/refund-ratios.ts';
import * as repository from './repository.ts';
import { sanitizeDescription } from './sanitize.ts';

// The back office: `npm run admin -- <command> [arguments] [options]`. Every command is a function of the same
// database, clock and services as the server; output goes to `io`, so tests read it.

export type AdminIo = { out(line: string): void; err(line: string): void };
export type AdminContext = { db: Db; clock: Clock; horizonDays: number; io: AdminIo };

/** Bad input: the message is for the operator, and the exit code is 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;
type Command = {
  usage: string;
  summary: string;
  options: Options;
  run(context: AdminContext, positionals: string[], values: Values): Promise<void>;
};

const JSON_OPTION: Options = { json: { type: 'boolean' } };

// --- Reading arguments -----------------------------------------------------------------------------------

function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function list(values: Values, name: string): string[] | undefined {
  const value = values[name];
  return Array.isArray(value) ? value.map(String) : undefined;
}

function integer(values: Values, name: string, { min = -Infinity, max = Infinity } = {}): number | undefined {
  const raw = text(values, name);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(
      `--${name} must be a whole number${min > -Infinity ? ` from ${min}` : ''}${max < Infinity ? ` to ${max}` : ''}, not '${raw}'`,
    );
  }
  return Number(raw);
}

function decimal(values: Values, name: string): number | undefined {
  const raw = text(values, name);
  if (raw === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(raw)) throw new UsageError(`--${name} must be a number, not '${raw}'`);
  return Number(raw);
}

/** Euros as '15' or '15.50' into cents, exactly. */
function euros(values: Values, name: string): number | undefined {
  const raw = text(values, name);
  if (raw === undefined) return undefined;
  const match = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(raw);
  if (!match) throw new UsageError(`--${name} must be an amount in euros such as 15 or 15.50, not '${raw}'`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** An instant: ISO 8601 with an offset, or a date (midnight UTC). */
function instant(values: Values, name: string): Date | undefined {
  const raw = text(values, name);
  if (raw === undefined) return undefined;
  try {
    if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
      return new Date(Temporal.PlainDate.from(raw, { overflow: 'reject' }).toString() + 'T00:00:00Z');
    }
    return new Date(Temporal.Instant.from(raw).epochMilliseconds);
  } catch {
    throw new UsageError(
      `--${name} must be a date (2026-05-01) or an instant with its offset (2026-05-01T09:00:00+01:00), not '${raw}'`,
    );
  }
}

function minuteOfDay(raw: string, name: string, allowEnd: boolean): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(raw);
  const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
  if (!match || Number(match[2]) > 59 || minutes > (allowEnd ? 1440 : 1439)) {
    throw new UsageError(
      `--${name} must be a time of day such as 07:00${allowEnd ? ' (or 24:00)' : ''}, not '${raw}'`,
    );
  }
  return minutes;
}

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

function positional(positionals: string[], index: number, what: string): string {
  const value = positionals[index];
  if (value === undefined) throw new UsageError(`missing ${what}`);
  return value;
}

function id(raw: string, what: string): number {
  if (!/^\d+$/.test(raw)) throw new UsageError(`${what} must be a number, not '${raw}'`);
  return Number(raw);
}

function descriptions(values: Values, base?: Descriptions): Descriptions | undefined {
  const items = list(values, 'description');
  if (!items) return base;
  const result: Partial<Descriptions> = { ...base };
  for (const item of items) {
    const at = item.indexOf('=');
    const locale = item.slice(0, at);
    if (at < 0 || !isLocale(locale)) {
      throw new UsageError(
        `--description must be <locale>=<html> with a locale of ${LOCALES.join(', ')}, not '${item}'`,
      );
    }
    result[locale] = sanitizeDescription(item.slice(at + 1));
  }
  const missing = LOCALES.filter((locale) => result[locale] === undefined);
  if (missing.length > 0)
    throw new UsageError(`a description is needed in every language; missing: ${missing.join(', ')}`);
  return result as Descriptions;
}

function activation(values: Values): boolean | undefined {
  if (values.active && values.inactive) throw new UsageError('--active and --inactive exclude each other');
  if (values.active) return true;
  if (values.inactive) return false;
  return undefined;
}

function openingHours(values: Values): unknown {
  const raw = text(values, 'opening-hours');
  if (raw === undefined) return undefined;
  if (raw === '24/7') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new UsageError(`--opening-hours must be 24/7 or JSON such as {"1":[[420,1320]]}, not '${raw}'`);
  }
}

// --- Writing results -------------------------------------------------------------------------------------

function table(io: AdminIo, rows: Record<string, unknown>[], asJson: boolean): void {
  if (asJson) {
    io.out(JSON.stringify(rows, null, 2));
    return;
  }
  if (rows.length === 0) {
    io.out('(none)');
    return;
  }
  const cell = (value: unknown) =>
    value === null || value === undefined ? '-' : value instanceof Date ? value.toISOString() : String(value);
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => cell(row[column]).length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((value, index) => value.padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  io.out(line(columns));
  for (const row of rows) io.out(line(columns.map((column) => cell(row[column]))));
}

const money = (cents: number) => (cents / 100).toFixed(2);

// --- Commands --------------------------------------------------------------------------------------------

const BRANCH_OPTIONS: Options = {
  slug: { type: 'string' },
  name: { type: 'string' },
  location: { type: 'string' },
  latitude: { type: 'string' },
  longitude: { type: 'string' },
  'map-url': { type: 'string' },
  'time-zone': { type: 'string' },
  'slot-minutes': { type: 'string' },
  'opening-hours': { type: 'string' },
  price: { type: 'string' },
  order: { type: 'string' },
  image: { type: 'string', multiple: true },
  description: { type: 'string', multiple: true },
  active: { type: 'boolean' },
  inactive: { type: 'boolean' },
};

const COUPON_OPTIONS: Options = {
  discount: { type: 'string' },
  'valid-from': { type: 'string' },
  'valid-until': { type: 'string' },
  'max-uses': { type: 'string' },
  'max-uses-per-user': { type: 'string' },
  'registered-before': { type: 'string' },
  active: { type: 'boolean' },
  inactive: { type: 'boolean' },
};

function couponDiscount(values: Values): number | undefined {
  const discount = decimal(values, 'discount');
  if (discount !== undefined && !(discount > 0 && discount <= 1)) {
    throw new UsageError('--discount is a fraction above 0 and at most 1 (0.10 is 10% off)');
  }
  return discount;
}

function contact(positionals: string[]): { kind: 'email' | 'phone'; value: string } {
  const kind = positional(positionals, 0, 'what to block: email or phone');
  const raw = positional(positionals, 1, `the ${kind}`);
  if (kind === 'email') {
    const value = raw.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new UsageError(`'${raw}' is not an e-mail address`);
    return { kind, value };
  }
  if (kind === 'phone') {
    // Stored as registration stores it: without whitespace.
    const value = raw.replace(/\s+/g, '');
    if (!/^\+\d{6,15}$/.test(value))
      throw new UsageError(`'${raw}' is not a phone number in +<country><number> form`);
    return { kind, value };
  }
  throw new UsageError(`the first argument is email or phone, not '${kind}'`);
}

const BOOKING_STATUSES: readonly BookingStatus[] = ['pending', 'confirmed', 'canceled', 'expired'];

export const COMMANDS: Record<string, Command> = {
  'branch list': {
    usage: 'branch list [--json]',
    summary: 'Lists branches with their zone, slot length, prices and activation.',
    options: JSON_OPTION,
    async run({ db, io }, _positionals, values) {
      const branches = await branchRepository.listBranches(db);
      table(
        io,
        branches.map((branch) => ({
          id: branch.id,
          slug: branch.slug,
          name: branch.name,
          order: branch.order,
          time_zone: branch.time_zone,
          slot_minutes: branch.slot_minutes,
          price_eur: money(branch.default_price_cents),
          active_with_smart_lock: branch.active_with_smart_lock,
          slots_until: branch.slots_generated_until,
        })),
        Boolean(values.json),
      );
    },
  },

  'branch create': {
    usage:
      'branch create --slug <slug> --name <name> --location <address> --latitude <deg> --longitude <deg> --time-zone <IANA zone> --price <eur> --image <url> [--image <url> ...] --description <locale>=<html> (all five) [--slot-minutes 60] [--opening-hours 24/7|<json>] [--order <n>] [--map-url <url>] [--active|--inactive]',
    summary: 'Adds a branch and generates its slots.',
    options: BRANCH_OPTIONS,
    async run({ db, clock, horizonDays, io }, _positionals, values) {
      const definition = branchDefinitionSchema.parse({
        slug: required(text(values, 'slug'), 'slug'),
        name: required(text(values, 'name'), 'name'),
        order: integer(values, 'order') ?? 0,
        location: required(text(values, 'location'), 'location'),
        latitude: required(decimal(values, 'latitude'), 'latitude'),
        longitude: required(decimal(values, 'longitude'), 'longitude'),
        mapUrl: text(values, 'map-url') ?? null,
        timeZone: required(text(values, 'time-zone'), 'time-zone'),
        slotMinutes: integer(values, 'slot-minutes') ?? 60,
        openingHours: openingHours(values) ?? null,
        activeWithSmartLock: activation(values) ?? true,
        images: required(list(values, 'image'), 'image'),
        descriptions: required(descriptions(values), 'description'),
        defaultPriceCents: required(euros(values, 'price'), 'price'),
        priceRules: [],
      });
      const branches = createBranchService({ db, clock, horizonDays });
      const branchId = await branches.createBranch(definition);
      await branches.ensureSlotHorizon();
      io.out(`created branch ${branchId} (${definition.slug})`);
    },
  },

  'branch update': {
    usage:
      'branch update <branch-id> [--name ...] [--slug ...] [--location ...] [--latitude ...] [--longitude ...] [--map-url ...] [--time-zone ...] [--slot-minutes ...] [--opening-hours ...] [--price <eur>] [--order <n>] [--image <url> ... (replaces the gallery)] [--description <locale>=<html> ...] [--active|--inactive]',
    summary:
      'Changes a branch. Zone, slot length, hours and prices apply to days whose slots are not generated yet.',
    options: BRANCH_OPTIONS,
    async run(context, positionals, values) {
      const { db, io } = context;
      const branchId = id(positional(positionals, 0, 'the branch id'), 'the branch id');
      const branch = await branchRepository.findBranch(db, branchId);
      if (!branch) throw new UsageError(`there is no branch ${branchId}`);
      const patch = branchDefinitionSchema.partial().parse({
        slug: text(values, 'slug'),
        name: text(values, 'name'),
        order: integer(values, 'order'),
        location: text(values, 'location'),
        latitude: decimal(values, 'latitude'),
        longitude: decimal(values, 'longitude'),
        mapUrl: text(values, 'map-url'),
        timeZone: text(values, 'time-zone'),
        slotMinutes: integer(values, 'slot-minutes'),
        openingHours: openingHours(values),
        activeWithSmartLock: activation(values),
        images: list(values, 'image'),
        descriptions: values.description ? descriptions(values, branch.descriptions) : undefined,
        defaultPriceCents: euros(values, 'price'),
      });
      await db.transaction().execute(async (trx) => {
        await repository.updateBranch(trx, branchId, {
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
          ...(patch.activeWithSmartLock !== undefined && {
            active_with_smart_lock: patch.activeWithSmartLock,
          }),
          ...(patch.images !== undefined && { image: patch.images[0]! }),
          ...(patch.descriptions !== undefined && { descriptions: JSON.stringify(patch.descriptions) }),
          ...(patch.defaultPriceCents !== undefined && { default_price_cents: patch.defaultPriceCents }),
        });
        if (patch.images !== undefined) await repository.replaceBranchImages(trx, branchId, patch.images);
      });
      await recomputePrices(context, branchId);
      io.out(`updated branch ${branchId}`);
      const schedule = ['timeZone', 'slotMinutes', 'openingHours', 'defaultPriceCents'] as const;
      if (branch.slots_generated_until && schedule.some((key) => patch[key] !== undefined)) {
        io.out(`slots already generated (until ${branch.slots_generated_until}) keep their times and prices`);
      }
    },
  },

  'price-rule list': {
    usage: 'price-rule list <branch-id> [--json]',
    summary: 'Lists the price bands of a branch (weekday 1 = Monday, times in the branch’s zone).',
    options: JSON_OPTION,
    async run({ db, io }, positionals, values) {
      const branchId = id(positional(positionals, 0, 'the branch id'), 'the branch id');
      const rules = await branchRepository.listPriceRules(db, branchId);
      const clock = (minute: number) =>
        `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
      table(
        io,
        rules.map((rule) => ({
          id: rule.id,
          weekday: rule.iso_weekday,
          from: clock(rule.starts_at_minute),
          to: clock(rule.ends_at_minute),
          price_eur: money(rule.price_cents),
        })),
        Boolean(values.json),
      );
    },
  },

  'price-rule add': {
    usage: 'price-rule add <branch-id> --weekdays 1,2,3,4,5 --from 07:00 --to 10:00 --price <eur>',
    summary: 'Adds a price band on the given weekdays (1 = Monday ... 7 = Sunday).',
    options: {
      weekdays: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      price: { type: 'string' },
    },
    async run(context, positionals, values) {
      const { db, io } = context;
      const branchId = id(positional(positionals, 0, 'the branch id'), 'the branch id');
      if (!(await branchRepository.findBranch(db, branchId)))
        throw new UsageError(`there is no branch ${branchId}`);
      const weekdays = required(text(values, 'weekdays'), 'weekdays')
        .split(',')
        .map((day) => day.trim());
      if (weekdays.some((day) => !/^[1-7]$/.test(day))) {
        throw new UsageError('--weekdays is a comma list of 1 (Monday) to 7 (Sunday), e.g. 1,2,3,4,5');
      }
      const startsAtMinute = minuteOfDay(required(text(values, 'from'), 'from'), 'from', false);
      const endsAtMinute = minuteOfDay(required(text(values, 'to'), 'to'), 'to', true);
      if (endsAtMinute <= startsAtMinute) throw new UsageError('--to must be later than --from');
      const priceCents = required(euros(values, 'price'), 'price');
      const ids = await db.transaction().execute(async (trx) => {
        const added: number[] = [];
        for (const day of new Set(weekdays)) {
          added.push(
            await repository.insertPriceRule(trx, {
              branchId,
              isoWeekday: Number(day),
              startsAtMinute,
              endsAtMinute,
              priceCents,
            }),
          );
        }
        return added;
      });
      await recomputePrices(context, branchId);
      io.out(`added price rule${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`);
    },
  },

  'price-rule remove': {
    usage: 'price-rule remove <rule-id>',
    summary: 'Removes a price band.',
    options: {},
    async run(context, positionals) {
      const { db, io } = context;
      const ruleId = id(positional(positionals, 0, 'the price rule id'), 'the price rule id');
      const branchId = await repository.deletePriceRule(db, ruleId);
      if (branchId === undefined) throw new UsageError(`there is no price rule ${ruleId}`);
      await recomputePrices(context, branchId);
      io.out(`removed price rule ${ruleId}`);
    },
  },

  'coupon list': {
    usage: 'coupon list [--json]',
    summary: 'Lists coupons with their discount, window and caps.',
    options: JSON_OPTION,
    async run({ db, io }, _positionals, values) {
      const coupons = await repository.listCoupons(db);
      table(
        io,
        coupons.map((coupon) => ({
          code: coupon.code,
          discount: coupon.discount,
          valid_from: coupon.valid_from,
          valid_until: coupon.valid_until,
          max_uses: coupon.max_redemptions,
          max_uses_per_user: coupon.max_redemptions_per_user,
          registered_before: coupon.registered_before,
          active: coupon.active,
        })),
        Boolean(values.json),
      );
    },
  },

  'coupon create': {
    usage:
      'coupon create <CODE> --discount <fraction> [--valid-from <when>] [--valid-until <when>] [--max-uses <n>] [--max-uses-per-user <n>] [--registered-before <when>] [--inactive]',
    summary: 'Adds a coupon (codes are case-insensitive, stored upper-case).',
    options: COUPON_OPTIONS,
    async run({ db, clock, io }, positionals, values) {
      const code = positional(positionals, 0, 'the coupon code').trim().toUpperCase();
      if (!/^[A-Z0-9_-]{2,40}$/.test(code))
        throw new UsageError('a coupon code is 2 to 40 letters, digits, - or _');
      if (await repository.findCouponByCodeInsensitive(db, code))
        throw new UsageError(`coupon ${code} exists already`);
      const validFrom = instant(values, 'valid-from') ?? new Date(clock.now().epochMilliseconds);
      const validUntil = instant(values, 'valid-until') ?? null;
      if (validUntil && validUntil <= validFrom)
        throw new UsageError('--valid-until must be after --valid-from');
      await repository.insertCoupon(db, {
        code,
        discount: required(couponDiscount(values), 'discount'),
        valid_from: validFrom,
        valid_until: validUntil,
        max_redemptions: integer(values, 'max-uses', { min: 1 }) ?? null,
        max_redemptions_per_user: integer(values, 'max-uses-per-user', { min: 1 }) ?? null,
        registered_before: instant(values, 'registered-before') ?? null,
        active: activation(values) ?? true,
      });
      io.out(`created coupon ${code}`);
    },
  },

  'coupon update': {
    usage:
      'coupon update <CODE> [--discount <fraction>] [--valid-from <when>] [--valid-until <when>|none] [--max-uses <n>|none] [--max-uses-per-user <n>|none] [--registered-before <when>|none] [--active|--inactive]',
    summary: 'Changes a coupon; `none` lifts a limit.',
    options: COUPON_OPTIONS,
    async run({ db, io }, positionals, values) {
      const code = positional(positionals, 0, 'the coupon code');
      const coupon = await repository.findCouponByCodeInsensitive(db, code);
      if (!coupon) throw new UsageError(`there is no coupon ${code.toUpperCase()}`);
      const orNone = <T>(name: string, read: (values: Values, name: string) => T) =>
        text(values, name) === 'none' ? null : read(values, name);
      const cap = (values: Values, name: string) => integer(values, name, { min: 1 });
      const patch = {
        discount: couponDiscount(values),
        valid_from: instant(values, 'valid-from'),
        valid_until: orNone('valid-until', instant),
        max_redemptions: orNone('max-uses', cap),
        max_redemptions_per_user: orNone('max-uses-per-user', cap),
        registered_before: orNone('registered-before', instant),
        active: activation(values),
      };
      const validFrom = patch.valid_from ?? coupon.valid_from;
      const validUntil = patch.valid_until === undefined ? coupon.valid_until : patch.valid_until;
      if (validUntil && validUntil <= validFrom)
        throw new UsageError('--valid-until must be after --valid-from');
      await repository.updateCoupon(
        db,
        coupon.id,
        Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)),
      );
      io.out(`updated coupon ${coupon.code}`);
    },
  },

  'refund-ratios show': {
    usage: 'refund-ratios show',
    summary: 'Shows the refund policy given to new bookings: hours before the start -> refunded fraction.',
    options: {},
    async run({ db, io }) {
      io.out(JSON.stringify(await readRefundRatios(db)));
    },
  },

  'refund-ratios set': {
    usage: `refund-ratios set '{"48": 1, "24": 0.5, "0": 0}'`,
    summary: 'Sets the refund policy of bookings made from now on (existing bookings keep theirs).',
    options: {},
    async run({ db, io }, positionals) {
      const raw = positional(positionals, 0, 'the ratios as JSON');
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new UsageError(`the ratios must be JSON such as {"48": 1, "24": 0.5, "0": 0}, not '${raw}'`);
      }
      const ratios = refundRatiosSchema.parse(parsed);
      if (!('0' in ratios))
        throw new UsageError('the ratios need a "0" threshold (the refund just before the start)');
      await writeRefundRatios(db, ratios);
      io.out(`refund ratios set to ${JSON.stringify(ratios)}`);
    },
  },

  'block add': {
    usage: 'block add email|phone <value> [--reason <text>]',
    summary: 'Blocks an e-mail address or phone number from registering and booking.',
    options: { reason: { type: 'string' } },
    async run({ db, io }, positionals, values) {
      const blocked = contact(positionals);
      const added = await repository.insertBlockedContact(db, {
        ...blocked,
        reason: text(values, 'reason') ?? null,
      });
      io.out(
        added
          ? `blocked ${blocked.kind} ${blocked.value}`
          : `${blocked.kind} ${blocked.value} was blocked already`,
      );
    },
  },

  'block remove': {
    usage: 'block remove email|phone <value>',
    summary: 'Lifts a block.',
    options: {},
    async run({ db, io }, positionals) {
      const blocked = contact(positionals);
      if (!(await repository.deleteBlockedContact(db, blocked))) {
        throw new UsageError(`${blocked.kind} ${blocked.value} is not blocked`);
      }
      io.out(`unblocked ${blocked.kind} ${blocked.value}`);
    },
  },

  'block list': {
    usage: 'block list [--json]',
    summary: 'Lists blocked e-mail addresses and phone numbers.',
    options: JSON_OPTION,
    async run({ db, io }, _positionals, values) {
      table(io, await repository.listBlockedContacts(db), Boolean(values.json));
    },
  },

  'bookings list': {
    usage:
      'bookings list [--branch <id>] [--status pending|confirmed|canceled|expired] [--from <when>] [--until <when>] [--email <address>] [--limit 50] [--json]',
    summary: 'Lists bookings by start, newest first; times in each branch’s zone.',
    options: {
      ...JSON_OPTION,
      branch: { type: 'string' },
      status: { type: 'string' },
      from: { type: 'string' },
      until: { type: 'string' },
      email: { type: 'string' },
      limit: { type: 'string' },
    },
    async run({ db, io }, _positionals, values) {
      const status = text(values, 'status');
      if (status !== undefined && !BOOKING_STATUSES.includes(status as BookingStatus)) {
        throw new UsageError(`--status is one of ${BOOKING_STATUSES.join(', ')}, not '${status}'`);
      }
      const rows = await repository.listBookings(db, {
        branchId: integer(values, 'branch', { min: 1 }),
        status: status as BookingStatus | undefined,
        from: instant(values, 'from'),
        until: instant(values, 'until'),
        email: text(values, 'email'),
        limit: integer(values, 'limit', { min: 1, max: 10_000 }) ?? 50,
      });
      table(
        io,
        rows.map((row) => ({
          id: row.id,
          branch: row.branch_name,
          start: formatLocalTime(instantFromDate(row.start_time), row.time_zone),
          end: formatLocalTime(instantFromDate(row.end_time), row.time_zone),
          status: row.status,
          price_eur: money(row.final_price_cents),
          paid: row.paid_at !== null,
          coupon: row.coupon_code,
          client: row.email,
          session: row.checkout_session_id,
        })),
        Boolean(values.json),
      );
    },
  },

  'payments list': {
    usage:
      'payments list [--status paid|unpaid|no_payment_required] [--from <when>] [--until <when>] [--limit 50] [--json]',
    summary: 'Lists checkout sessions (payments), newest first, with their refunds.',
    options: {
      ...JSON_OPTION,
      status: { type: 'string' },
      from: { type: 'string' },
      until: { type: 'string' },
      limit: { type: 'string' },
    },
    async run({ db, io }, _positionals, values) {
      const status = text(values, 'status');
      const statuses = ['paid', 'unpaid', 'no_payment_required'] as const;
      if (status !== undefined && !(statuses as readonly string[]).includes(status)) {
        throw new UsageError(`--status is one of ${statuses.join(', ')}, not '${status}'`);
      }
      const rows = await repository.listPayments(db, {
        paymentStatus: status as (typeof statuses)[number] | undefined,
        from: instant(values, 'from'),
        until: instant(values, 'until'),
        limit: integer(values, 'limit', { min: 1, max: 10_000 }) ?? 50,
      });
      table(
        io,
        rows.map((row) => ({
          session: row.id,
          provider: row.provider,
          status: row.status,
          payment: row.payment_status,
          amount_eur: money(row.amount_cents),
          refunded_eur: money(Number(row.refunded_cents ?? 0)),
          client: row.email,
          created: row.created_at,
          payment_intent: row.payment_intent_id,
        })),
        Boolean(values.json),
      );
    },
  },
};

/** The cached [min, max] price comes from the same rules the slots are priced with. */
async function recomputePrices(context: AdminContext, branchId: number): Promise<void> {
  await createBranchService(context).recomputeCachedPrices(branchId);
}

export function helpText(): string {
  const lines = [
    'Back office of the private gym. Uses the server’s configuration (DATABASE_URL, or the PGlite DATA_DIR).',
    '',
    'Usage: npm run admin -- <command> [arguments] [options]',
    '',
    'Commands:',
  ];
  for (const command of Object.values(COMMANDS)) lines.push(`  ${command.usage}`, `      ${command.summary}`);
  lines.push(
    '',
    '<when> is a date (2026-05-01, midnight UTC) or an instant with its offset (2026-05-01T09:00:00+01:00).',
    'Exit codes: 0 done, 2 bad input (the message says what), 1 anything else.',
  );
  return lines.join('\n');
}

function describeInvalid(error: ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ');
}

/** Runs one command line; answers the process exit code. */
export async function runAdmin(argv: readonly string[], context: AdminContext): Promise<number> {
  const [noun, verb, ...rest] = argv;
  if (noun === undefined || noun === '--help' || noun === '-h' || noun === 'help') {
    context.io.out(helpText());
    return noun === undefined ? 2 : 0;
  }
  const command = COMMANDS[`${noun} ${verb ?? ''}`];
  if (!command) {
    context.io.err(
      `unknown command '${[noun, verb].filter(Boolean).join(' ')}'. Run with --help for the list.`,
    );
    return 2;
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...rest],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      context.io.out(`Usage: npm run admin -- ${command.usage}\n${command.summary}`);
      return 0;
    }
    await command.run(context, positionals, values);
    return 0;
  } catch (error) {
    const invalid =
      error instanceof UsageError
        ? error.message
        : error instanceof ZodError
          ? describeInvalid(error)
          : error instanceof AppError
            ? error.code
            : sqlState(error)?.startsWith('ERR_PARSE_ARGS')
              ? (error as Error).message
              : sqlState(error)?.startsWith('23')
                ? `refused by the database: ${(error as { detail?: string }).detail ?? (error as Error).message}`
                : null;
    if (invalid === null) throw error;
    context.io.err(`${noun} ${verb}: ${invalid}`);
    context.io.err(`usage: npm run admin -- ${command.usage}`);
    return 2;
  }
}
