import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

export type ApiSlot = {
  id: number;
  start_time: string;
  end_time: string;
  basic_price_eur: number;
  is_bookeable: boolean;
};
export type ApiBranch = {
  id: number;
  name: string;
  location: string;
  active_with_smart_lock: boolean;
  time_zone: string;
  /** The main image's address. */
  image: string;
};

export async function firstActiveBranch(request: APIRequestContext): Promise<ApiBranch> {
  const branches = (await (await request.get('/api/bookings/branches')).json()) as ApiBranch[];
  const branch = branches.find((candidate) => candidate.active_with_smart_lock);
  if (!branch) throw new Error('no bookable branch');
  return branch;
}

/** The branch's date `daysAhead` after its today, and that day's bookable slots. */
export async function slotsOn(request: APIRequestContext, branch: ApiBranch, daysAhead: number) {
  const now = (await (await request.get(`/api/bookings/local-time/branch/${branch.id}`)).json()) as string;
  const day = new Date(`${now.slice(0, 10)}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + daysAhead);
  const date = day.toISOString().slice(0, 10);
  const slots = (await (await request.get(`/api/bookings/slots/${branch.id}/${date}`)).json()) as ApiSlot[];
  return { today: now.slice(0, 10), date, slots: slots.filter((slot) => slot.is_bookeable) };
}

const CLOCK_TAGS = { pt: 'pt-PT', en: 'en-GB', fr: 'fr-FR', de: 'de-DE', sk: 'sk-SK' } as const;

/** A wall-clock time (the ISO string carries the branch's offset) on a language's clock: '21:00', '9:00 pm'. */
function wallClock(iso: string, locale: keyof typeof CLOCK_TAGS): string {
  const [hours, minutes] = iso.slice(11, 16).split(':').map(Number) as [number, number];
  const twelveHour = locale === 'en';
  return new Intl.DateTimeFormat(CLOCK_TAGS[locale], {
    hour: twelveHour ? 'numeric' : '2-digit',
    minute: '2-digit',
    hour12: twelveHour,
    timeZone: 'UTC',
  }).format(Date.UTC(2026, 0, 1, hours, minutes));
}

/** 'HH:mm - HH:mm' ('9:00 am - 10:00 am' in English) on the branch's wall clock, as the slot buttons show it. */
export function range(slot: ApiSlot, locale: keyof typeof CLOCK_TAGS = 'pt'): string {
  return `${wallClock(slot.start_time, locale)} - ${wallClock(slot.end_time, locale)}`;
}

/** The name of a calendar day (Portuguese unless told), as the calendar's day buttons are labelled. */
export function dayLabel(date: string, languageTag = 'pt-PT'): string {
  return new Intl.DateTimeFormat(languageTag, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}

/** Clicks a day in the booking modal's calendar, moving to the next month when the day lies there. */
export async function pickDate(dialog: Locator, today: string, date: string): Promise<void> {
  if (date.slice(0, 7) !== today.slice(0, 7))
    await dialog.getByRole('button', { name: 'Mês seguinte' }).click();
  await dialog.getByRole('button', { name: dayLabel(date), exact: true }).click();
  await expect(dialog.getByRole('heading', { name: dayLabel(date) })).toBeVisible();
}

export function slotButton(dialog: Locator, slot: ApiSlot): Locator {
  return dialog.getByRole('button', { name: new RegExp(`^${range(slot)}`) });
}

export function bookingDialog(page: Page, branchName: string): Locator {
  return page.getByRole('dialog', { name: branchName });
}

/** The demo account's login in the auth modal (opened over the booking modal). */
export async function logInInModal(page: Page, email: string, password: string): Promise<void> {
  const login = page.getByRole('dialog', { name: 'Iniciar sessão' });
  await expect(login).toBeVisible();
  await login.getByLabel(/^E-mail( \*)?$/).fill(email);
  await login.getByLabel(/^Palavra-passe( \*)?$/).fill(password);
  await login.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(login).toHaveCount(0);
}

/** Creates a booking through the API (the slots are held until its checkout ends); answers the client secret. */
export async function holdByApi(
  request: APIRequestContext,
  token: string,
  slots: ApiSlot[],
): Promise<string> {
  const total = slots.reduce((sum, slot) => sum + Math.round(slot.basic_price_eur * 100), 0) / 100;
  const response = await request.post('/api/bookings/', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      time_slot_id: slots.map((slot) => slot.id),
      max_bookings_per_slot: 1,
      coupon_code: null,
      expected_total_final_price_eur: total,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { checkout_session: { clientSecret: string } };
  return body.checkout_session.clientSecret;
}

/** The return URL's origin is PUBLIC_URL (http://localhost:{port}): the app is opened there, so the token survives. */
export function onPublicOrigin(baseURL: string | undefined, path: string): string {
  return `${(baseURL ?? '').replace('127.0.0.1', 'localhost')}${path}`;
}

/** Pays in the local test checkout inside the payment dialog. */
export async function payInLocalCheckout(page: Page, card: string, title = 'Pagamento'): Promise<void> {
  const frame = page.frameLocator(`iframe[title="${title}"]`);
  await frame.locator('input[name="card_number"]').fill(card);
  await frame.getByRole('button').click();
}
