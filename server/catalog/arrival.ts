import { z } from 'zod';
import type { StoredArrivalKit } from '../db/schema.ts';
import { LOCALES, type Locale } from '../kernel/i18n.ts';
import type { components } from '../../openapi/schema.gen.ts';

type Schemas = components['schemas'];

// A branch's arrival kit (issue 30, item 1): nobody is on site, so the door-code message and My bookings tell a
// member how to find the entrance, where the keypad is and how to type the code, what the house rules are, the
// Wi-Fi, an entrance photo, the map and whom to call. Texts are plain text per language (shown as written, line
// breaks kept, never as HTML); a language without its own text is given the Portuguese one, so no member meets
// an empty kit because a translation is missing.

const TEXT_LIMIT = 2000;
const text = (limit: number) => z.string().trim().max(limit);

const textsSchema = z.strictObject({
  directions: text(TEXT_LIMIT).optional(),
  keypad: text(TEXT_LIMIT).optional(),
  rules: text(300).optional(),
});

/** A change of the kit: the parts given replace the stored ones; texts are merged per language. */
export const arrivalChangeSchema = z.strictObject({
  entrance_photo_url: z.string().trim().max(2000).nullable().optional(),
  wifi_network: text(100).nullable().optional(),
  wifi_password: text(100).nullable().optional(),
  texts: z.partialRecord(z.enum(LOCALES), textsSchema).optional(),
});

export type ArrivalChange = z.input<typeof arrivalChangeSchema>;

/** The kit as operators see and edit it: every part present, empty texts as ''. */
export type AdminArrivalKit = Schemas['AdminArrivalKit'];

/** The kit as a member reads it, in one language, with the branch's map link and the help line. */
export type ArrivalKit = Schemas['ArrivalKit'];

const blankToNull = (value: string | null | undefined) => (value ? value : null);

/** The stored kit with `change` applied: texts merged per language, blank parts dropped. */
export function mergeArrival(stored: StoredArrivalKit, change: ArrivalChange): StoredArrivalKit {
  const parsed = arrivalChangeSchema.parse(change);
  const texts = { ...stored.texts };
  for (const [locale, given] of Object.entries(parsed.texts ?? {}) as [
    Locale,
    z.output<typeof textsSchema>,
  ][]) {
    const merged = { ...texts[locale], ...given };
    const kept = Object.fromEntries(Object.entries(merged).filter(([, value]) => value));
    if (Object.keys(kept).length > 0) texts[locale] = kept;
    else delete texts[locale];
  }
  const part = (key: 'entrance_photo_url' | 'wifi_network' | 'wifi_password') =>
    parsed[key] !== undefined ? blankToNull(parsed[key]) : blankToNull(stored[key]);
  return {
    entrance_photo_url: part('entrance_photo_url'),
    wifi_network: part('wifi_network'),
    wifi_password: part('wifi_password'),
    texts,
  };
}

export function adminArrivalKit(stored: StoredArrivalKit): AdminArrivalKit {
  return {
    entrance_photo_url: blankToNull(stored.entrance_photo_url),
    wifi_network: blankToNull(stored.wifi_network),
    wifi_password: blankToNull(stored.wifi_password),
    texts: Object.fromEntries(
      LOCALES.map((locale) => {
        const texts = stored.texts?.[locale];
        return [
          locale,
          { directions: texts?.directions ?? '', keypad: texts?.keypad ?? '', rules: texts?.rules ?? '' },
        ];
      }),
    ) as AdminArrivalKit['texts'],
  };
}

/**
 * The kit in `locale` (each text in Portuguese where that language has none), or null when the branch has none
 * (no text, photo, map or Wi-Fi).
 */
export function arrivalKitFor(
  stored: StoredArrivalKit,
  locale: Locale,
  branch: { mapUrl: string | null; supportPhone: string | null },
): ArrivalKit | null {
  const own = stored.texts?.[locale];
  const fallback = stored.texts?.pt;
  const pick = (key: 'directions' | 'keypad' | 'rules') => blankToNull(own?.[key] || fallback?.[key]);
  const kit: ArrivalKit = {
    directions: pick('directions'),
    keypad: pick('keypad'),
    rules: pick('rules'),
    entrance_photo_url: blankToNull(stored.entrance_photo_url),
    map_url: branch.mapUrl,
    wifi_network: blankToNull(stored.wifi_network),
    wifi_password: blankToNull(stored.wifi_network) ? blankToNull(stored.wifi_password) : null,
    support_phone: branch.supportPhone,
  };
  // The help line alone is no kit: a branch without one keeps its messages as they were.
  const { support_phone: _helpLine, ...branchParts } = kit;
  return Object.values(branchParts).some((value) => value !== null) ? kit : null;
}
