import { z } from 'zod';
import {
  priceGridsFromToday,
  createBranch,
  createBranchService,
  setPriceGrid,
  updateBranch,
  type BranchChangeDependencies,
  type SetPriceGridResult,
} from '../../catalog/index.ts';
import { mapBranchDoors } from '../../doors/index.ts';
import { LOCALES, isLocale, type Locale } from '../../kernel/i18n.ts';
import { runChange } from '../change.ts';
import {
  activation,
  activationOptions,
  BOTH_ACTIVATIONS,
  decimal,
  defineCommand,
  euros,
  idArgument,
  listCommand,
  money,
  refuseBothActivations,
  text,
  wholeNumber,
  type AdminContext,
} from '../command.ts';
import { describeSaved } from './prices.ts';

/** `--description <locale>=<html>`, repeated: the HTML per language given. */
const descriptions = () =>
  z.array(z.string()).transform((items, context) => {
    const result: Partial<Record<Locale, string>> = {};
    for (const item of items) {
      const at = item.indexOf('=');
      const locale = item.slice(0, at);
      if (at < 0 || !isLocale(locale)) {
        context.addIssue({
          code: 'custom',
          message: `must be <locale>=<html> with a locale of ${LOCALES.join(', ')}, not '${item}'`,
        });
        return z.NEVER;
      }
      result[locale] = item.slice(at + 1);
    }
    return result;
  });

const ARRIVAL_TEXTS = ['directions', 'keypad', 'rules'] as const;

/**
 * `--arrival <locale>.<text>=<words>`, repeated: the arrival kit's texts (directions, keypad, rules) per
 * language given; an empty value clears that text.
 */
const arrivalTexts = () =>
  z.array(z.string()).transform((items, context) => {
    const result: Partial<Record<Locale, Partial<Record<(typeof ARRIVAL_TEXTS)[number], string>>>> = {};
    for (const item of items) {
      const match = /^([a-z]{2})\.([a-z]+)=([\s\S]*)$/.exec(item);
      const [, locale = '', part = '', words = ''] = match ?? [];
      if (!match || !isLocale(locale) || !(ARRIVAL_TEXTS as readonly string[]).includes(part)) {
        context.addIssue({
          code: 'custom',
          message: `must be <locale>.<${ARRIVAL_TEXTS.join('|')}>=<text> with a locale of ${LOCALES.join(', ')}, not '${item}'`,
        });
        return z.NEVER;
      }
      result[locale] = { ...result[locale], [part]: words };
    }
    return result;
  });

/** A setting given as text, or `none` to clear it (null). */
const textOrNone = () => text().transform((value) => (value === 'none' ? null : value));

/** `24/7` (no hours: always open) or the JSON of opening hours, checked by the branch service. */
const openingHours = () =>
  z.string().transform((raw, context): unknown => {
    if (raw === '24/7') return null;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      context.addIssue({
        code: 'custom',
        message: `must be 24/7 or JSON such as {"1":[[420,1320]]}, not '${raw}'`,
      });
      return z.NEVER;
    }
  });

/** `--lock-device <seam device id>`, repeatable: the branch's doors, replacing the list; `none` clears it. */
function lockDevices() {
  return z.array(text()).transform((items, context) => {
    if (items.includes('none')) {
      if (items.length > 1) {
        context.addIssue({ code: 'custom', message: '--lock-device none clears the doors and stands alone' });
        return z.NEVER;
      }
      return [];
    }
    const bad = items.find((item) => !/^[\w.:-]{1,200}$/.test(item));
    if (bad !== undefined) {
      context.addIssue({ code: 'custom', message: `--lock-device must be a lock's device id, not '${bad}'` });
      return z.NEVER;
    }
    return items;
  });
}

/** `--vat-rate <percent>` (23, 13, 6) or `default` (the server's VAT_RATE): the rate as a fraction, or null. */
function vatRate() {
  return text().transform((value, context) => {
    if (value === 'default') return null;
    if (!/^\d{1,2}(\.\d{1,2})?$/.test(value) || Number(value) > 50) {
      context.addIssue({
        code: 'custom',
        message: '--vat-rate must be a percentage from 0 to 50, or default',
      });
      return z.NEVER;
    }
    return Math.round(Number(value) * 100) / 10_000;
  });
}

const branchOptions = {
  slug: text().optional(),
  name: text().optional(),
  location: text().optional(),
  latitude: decimal().optional(),
  longitude: decimal().optional(),
  'map-url': text().optional(),
  'time-zone': text().optional(),
  'slot-minutes': wholeNumber().optional(),
  'opening-hours': openingHours().optional(),
  price: euros().optional(),
  order: wholeNumber().optional(),
  image: z.array(text()).optional(),
  description: descriptions().optional(),
  arrival: arrivalTexts().optional(),
  'entrance-photo': textOrNone().optional(),
  'wifi-network': textOrNone().optional(),
  'wifi-password': textOrNone().optional(),
  'lock-device': lockDevices().optional(),
  ...activationOptions,
};

type BranchOptions = z.output<z.ZodObject<typeof branchOptions>>;

/** The options given, as the branch service names them. */
function branchChanges(options: BranchOptions) {
  return {
    slug: options.slug,
    name: options.name,
    order: options.order,
    location: options.location,
    latitude: options.latitude,
    longitude: options.longitude,
    mapUrl: options['map-url'],
    timeZone: options['time-zone'],
    slotMinutes: options['slot-minutes'],
    openingHours: options['opening-hours'] as never,
    activeWithSmartLock: activation(options),
    images: options.image,
    descriptions: options.description,
    arrival: arrivalChange(options),
  };
}

/** The arrival kit's options as one change of the kit, or undefined when none is given. */
function arrivalChange(options: BranchOptions) {
  const change = {
    entrance_photo_url: options['entrance-photo'],
    wifi_network: options['wifi-network'],
    wifi_password: options['wifi-password'],
    texts: options.arrival,
  };
  return Object.values(change).some((value) => value !== undefined) ? change : undefined;
}

function branchChangeDependencies(context: AdminContext): BranchChangeDependencies {
  return {
    clock: context.clock,
    horizonDays: context.horizonDays,
    allowPlainHttp: context.allowPlainHttp,
    mapDoors: (trx, branchId, deviceIds) => mapBranchDoors(trx, context.clock, branchId, deviceIds),
  };
}

export const branchCommands = {
  'branch list': listCommand({
    usage: 'branch list [--json]',
    summary: 'Lists branches with their zone, slot length, prices and activation.',
    async list(context) {
      const branches = await createBranchService(context).listBranchRecords();
      return branches.map((branch) => ({
        id: branch.id,
        slug: branch.slug,
        name: branch.name,
        order: branch.order,
        time_zone: branch.time_zone,
        slot_minutes: branch.slot_minutes,
        price_eur: money(branch.default_price_cents),
        active_with_smart_lock: branch.active_with_smart_lock,
        slots_until: branch.slots_generated_until,
      }));
    },
  }),

  'branch create': defineCommand({
    usage:
      'branch create --slug <slug> --name <name> --location <address> --latitude <deg> --longitude <deg> --time-zone <IANA zone> --price <eur> --image <url> [--image <url> ...] --description <locale>=<html> (all five) [--slot-minutes 60] [--opening-hours 24/7|<json>] [--order <n>] [--map-url <url>] [--lock-device <device id> ...] [--arrival <locale>.<directions|keypad|rules>=<text> ...] [--entrance-photo <url>] [--wifi-network <name>] [--wifi-password <password>] [--active|--inactive]',
    summary: 'Adds a branch and generates its slots; --lock-device maps its doors (Seam device ids).',
    schema: z
      .object({
        ...branchOptions,
        slug: text(),
        name: text(),
        location: text(),
        latitude: decimal(),
        longitude: decimal(),
        'time-zone': text(),
        price: euros(),
        image: z.array(text()),
        description: descriptions(),
      })
      .refine(refuseBothActivations, BOTH_ACTIVATIONS),
    async run(input, context) {
      const branchId = await runChange(
        context,
        (trx, actor) =>
          createBranch(trx, branchChangeDependencies(context), {
            actor,
            branch: {
              ...branchChanges(input),
              slug: input.slug,
              name: input.name,
              location: input.location,
              latitude: input.latitude,
              longitude: input.longitude,
              timeZone: input['time-zone'],
              images: input.image,
              descriptions: input.description,
              defaultPriceCents: input.price,
            },
            lockDevices: input['lock-device'],
          }),
        { branch_slug_taken: `another branch has the slug ${input.slug}` },
      );
      context.io.out(`created branch ${branchId} (${input.slug})`);
    },
  }),

  'branch update': defineCommand({
    usage:
      'branch update <branch-id> [--name ...] [--slug ...] [--location ...] [--latitude ...] [--longitude ...] [--map-url ...] [--time-zone ...] [--slot-minutes ...] [--opening-hours ...] [--price <eur>] [--order <n>] [--image <url> ... (replaces the gallery)] [--description <locale>=<html> ...] [--lock-device <device id>|none ... (replaces the doors)] [--arrival <locale>.<directions|keypad|rules>=<text> ...] [--entrance-photo <url>|none] [--wifi-network <name>|none] [--wifi-password <password>|none] [--vat-rate <percent>|default] [--guest-limit <n>] [--active|--inactive]',
    summary:
      'Changes a branch. --guest-limit sets how many guests, each with a door code of their own, a member may add to a booking (0 to 20; 0 turns guests off; guests already added stay). --arrival sets a text of the arrival kit the door-code message and My bookings show (an empty text clears it; a language without one gets the Portuguese text). --vat-rate sets the VAT of its payments from now on (23, 13, 6; default: VAT_RATE). Zone, slot length and hours apply to days whose slots are not generated yet; --price sets the default price of today’s grid and re-prices the free slots at once (as prices set).',
    schema: z
      .object({
        args: z.tuple([idArgument('the branch id')]),
        ...branchOptions,
        'vat-rate': vatRate().optional(),
        'guest-limit': wholeNumber({ min: 0, max: 20 }).optional(),
      })
      .refine(refuseBothActivations, BOTH_ACTIVATIONS),
    async run(input, context) {
      const [branchId] = input.args;
      const changes = branchChanges(input);
      let repriced: SetPriceGridResult | null = null;
      const { slotsGeneratedUntil } = await runChange(
        context,
        async (trx, actor) => {
          const updated = await updateBranch(trx, branchChangeDependencies(context), {
            actor,
            branchId,
            changes,
            lockDevices: input['lock-device'],
            vatRate: input['vat-rate'],
            guestLimit: input['guest-limit'],
          });
          if (input.price !== undefined) {
            // The price grid's own use case, in this transaction: the branch and its price change together.
            const grids = (await priceGridsFromToday(trx, branchId, context.clock.now()))!;
            repriced = await setPriceGrid(
              trx,
              { clock: context.clock },
              { actor, branchId, defaultPriceCents: input.price, bands: grids.current.priceRules },
            );
          }
          return updated;
        },
        {
          branch_not_found: `there is no branch ${branchId}`,
          branch_slug_taken: `another branch has the slug ${input.slug}`,
        },
      );
      if (input['lock-device']) {
        context.io.out(
          input['lock-device'].length === 0
            ? `branch ${branchId} has no mapped doors now`
            : `branch ${branchId} doors: ${input['lock-device'].join(', ')}`,
        );
      }
      context.io.out(`updated branch ${branchId}`);
      if (input['vat-rate'] !== undefined) {
        context.io.out(
          input['vat-rate'] === null
            ? `branch ${branchId} VAT: the server's VAT_RATE`
            : `branch ${branchId} VAT: ${(input['vat-rate'] * 100).toFixed(2).replace(/\.?0+$/, '')} % from now on`,
        );
      }
      if (input['guest-limit'] !== undefined) {
        context.io.out(`branch ${branchId} guests per booking: ${input['guest-limit']} from now on`);
      }
      if (repriced) context.io.out(describeSaved(branchId, repriced));
      const schedule = [changes.timeZone, changes.slotMinutes, changes.openingHours];
      if (slotsGeneratedUntil && schedule.some((value) => value !== undefined)) {
        context.io.out(`slots already generated (until ${slotsGeneratedUntil}) keep their times`);
      }
    },
  }),
};
