/**
 * The query parameters that open the three modals (spec 2.5 to 2.8), parsed and validated. Anything
 * malformed is dropped, so a hand-edited or stale URL never opens a modal in a broken state.
 */
export const AUTH_TABS = ['login', 'register', 'forgotPassword', 'resetPassword', 'verify'] as const;
export const BOOKING_TABS = ['bookSessions', 'branchInformation'] as const;
export const ACCOUNT_TABS = ['myBookings', 'profile', 'settings'] as const;

export type AuthTab = (typeof AUTH_TABS)[number];
export type BookingTab = (typeof BOOKING_TABS)[number];
export type AccountTab = (typeof ACCOUNT_TABS)[number];

/** The older spelling of the bookings tab, accepted and rewritten (DECISIONS.md). */
const ACCOUNT_TAB_ALIASES: Record<string, AccountTab> = { 'my-bookings': 'myBookings' };

export type ModalSearch = {
  auth_tab?: AuthTab;
  reset_token?: string;
  verify_email?: string;
  verify_email_code?: string;
  booking_tab?: BookingTab;
  booking_branch_id?: number;
  account_tab?: AccountTab;
  stripe_session_id?: string;
  booking_date?: string;
};

function oneOf<T extends string>(options: readonly T[], value: unknown): T | undefined {
  return typeof value === 'string' && (options as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

/** Router search parsers may turn digits into numbers; tokens and codes are strings either way. */
function token(value: unknown): string | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  return typeof text === 'string' && /^[A-Za-z0-9._~-]{1,512}$/.test(text) ? text : undefined;
}

function email(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
    ? value
    : undefined;
}

function positiveId(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? value
    : undefined;
}

function accountTab(value: unknown): AccountTab | undefined {
  if (typeof value === 'string' && value in ACCOUNT_TAB_ALIASES) return ACCOUNT_TAB_ALIASES[value];
  return oneOf(ACCOUNT_TABS, value);
}

export function parseModalSearch(raw: Record<string, unknown>): ModalSearch {
  const parsed: ModalSearch = {
    auth_tab: oneOf(AUTH_TABS, raw.auth_tab),
    reset_token: token(raw.reset_token),
    verify_email: email(raw.verify_email),
    verify_email_code: token(raw.verify_email_code),
    booking_tab: oneOf(BOOKING_TABS, raw.booking_tab),
    booking_branch_id: positiveId(raw.booking_branch_id),
    account_tab: accountTab(raw.account_tab),
    stripe_session_id: token(raw.stripe_session_id),
    booking_date: isoDate(raw.booking_date),
  };
  // Absent keys stay absent, so links and history entries do not fill with empty parameters.
  for (const key of Object.keys(parsed) as (keyof ModalSearch)[]) {
    if (parsed[key] === undefined) delete parsed[key];
  }
  return parsed;
}

/** True when the raw search used an alias that `parseModalSearch` rewrote (the URL should be replaced). */
export function usesSearchAlias(raw: Record<string, unknown>): boolean {
  return typeof raw.account_tab === 'string' && raw.account_tab in ACCOUNT_TAB_ALIASES;
}

export type StartupModal = 'auth' | 'booking' | 'account' | null;

/**
 * Spec 2.5: a password-reset token, an e-mail-verification marker or a pending auth tab opens the
 * auth modal; otherwise a pending booking tab opens the booking modal; otherwise, with a valid token, a
 * pending account tab opens the account modal. At most one modal opens.
 */
export function chooseStartupModal(search: ModalSearch, tokenValid: boolean): StartupModal {
  if (search.reset_token || search.verify_email || search.auth_tab) return 'auth';
  if (search.booking_tab) return 'booking';
  if (tokenValid && search.account_tab) return 'account';
  return null;
}
