// zod's tree-shakable build: the schema is in the landing page's bundle (tests/ui/bundle-budgets.test.ts).
import { z } from 'zod/mini';

/**
 * The query parameters that open the modals (auth, booking, account, payment result), as one zod schema: the
 * `/$lang` route's `validateSearch`. Each parameter falls back to absent when malformed (`.catch`), so a
 * hand-edited or stale URL never opens a modal in a broken state and never fails the page.
 */
const AUTH_TABS = ['login', 'register', 'forgotPassword', 'resetPassword', 'verify'] as const;
const BOOKING_TABS = ['bookSessions', 'branchInformation'] as const;
const ACCOUNT_TABS = ['myBookings', 'profile', 'settings', 'wallet'] as const;

const authTab = z.enum(AUTH_TABS);
export const bookingTab = z.enum(BOOKING_TABS);
export const accountTab = z.enum(ACCOUNT_TABS);

export type AuthTab = z.output<typeof authTab>;
export type BookingTab = z.output<typeof bookingTab>;
export type AccountTab = z.output<typeof accountTab>;

/** The older spelling of the bookings tab, accepted and rewritten (docs/decisions.md, 'Client'). */
const OLD_BOOKINGS_TAB = 'my-bookings';

const accountTabOrAlias = z.union([
  accountTab,
  z.pipe(
    z.literal(OLD_BOOKINGS_TAB),
    z.transform((): AccountTab => 'myBookings'),
  ),
]);

/** Absent, or dropped when malformed (the console's filters too: machines/adminSearch.ts). */
export const optional = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);

/**
 * The router's search parser turns digits into numbers; tokens, codes and the console's text filters are strings
 * either way.
 */
export const stringOrDigits = z.union([
  z.string(),
  z.pipe(z.number().check(z.refine(Number.isFinite)), z.transform(String)),
]);

const token = z.pipe(stringOrDigits, z.string().check(z.regex(/^[A-Za-z0-9._~-]{1,512}$/)));

const email = z.string().check(z.maxLength(254), z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/));

// z.int() is bounded to the safe integers already (no maximum to spell out: this schema is the landing page's).
const positiveId = z.pipe(
  z.union([z.pipe(z.string().check(z.regex(/^\d{1,15}$/)), z.transform(Number)), z.number()]),
  z.int().check(z.positive()),
);

export const modalSearchSchema = z.pipe(
  z.object({
    auth_tab: optional(authTab),
    reset_token: optional(token),
    verify_email: optional(email),
    verify_email_code: optional(token),
    booking_tab: optional(bookingTab),
    booking_branch_id: optional(positiveId),
    // The booking modal in move mode for this booking (docs/decisions.md, "Moving a booking").
    move_booking_id: optional(positiveId),
    account_tab: optional(accountTabOrAlias),
    // A gift voucher's code from its e-mail (issue 31): kept through a login, read by the wallet.
    voucher: optional(token),
    stripe_session_id: optional(token),
    // A real calendar date (2026-02-30 is not one).
    booking_date: optional(z.iso.date()),
    // "Book again": the slot of `booking_date` the booking modal opens with chosen.
    booking_slot_id: optional(positiveId),
  }),
  // Absent keys stay absent, so links and history entries do not fill with empty parameters.
  z.transform(<T extends object>(search: T): T => {
    const present = { ...search };
    for (const key of Object.keys(present) as (keyof T)[]) {
      if (present[key] === undefined) delete present[key];
    }
    return present;
  }),
);

export type ModalSearch = z.output<typeof modalSearchSchema>;

/** True when the raw search used the old tab name that the schema rewrote (the URL should be replaced). */
export function usesSearchAlias(raw: Record<string, unknown>): boolean {
  return raw.account_tab === OLD_BOOKINGS_TAB;
}
