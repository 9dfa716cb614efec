import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { firstActiveBranch, holdByApi, slotsOn, type ApiSlot } from './booking.ts';

// Accounts and bookings for the auth and account journeys, made through the real API.

export const DEMO_ACCOUNT = { email: 'demo@example.com', password: 'Demo-gym-2026!' };
export const PASSWORD = 'Treino-privado-2026!';

export type OutboxMessage = {
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  attachments: { filename: string; content_type: string; content: string }[];
};

let counter = 0;

/** A fresh identity: a unique e-mail and a unique Portuguese mobile number. */
export function newPerson(prefix: string) {
  counter += 1;
  const unique = `${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
  return {
    email: `${prefix}-${unique}@example.com`,
    phone: `+3519${String(Math.floor(Math.random() * 100_000_000)).padStart(8, '0')}`,
    firstName: 'Rita',
    lastName: 'Lopes',
    password: PASSWORD,
  };
}

export type Person = ReturnType<typeof newPerson>;

/** The newest messages to a recipient (GET /api/dev/outbox, newest first). */
export async function outbox(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as OutboxMessage[];
}

/** Waits for the newest message to a recipient whose text matches, and returns the match. */
export async function waitForMessage(
  request: APIRequestContext,
  to: string,
  pattern: RegExp,
  skip = 0,
): Promise<RegExpExecArray> {
  let found: RegExpExecArray | null = null;
  await expect
    .poll(
      async () => {
        const messages = (await outbox(request, to)).filter((message) => pattern.test(message.text));
        const message = messages.length > skip ? messages[0] : undefined;
        found = message ? pattern.exec(message.text) : null;
        return found !== null;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found as unknown as RegExpExecArray;
}

/** The link of the verification e-mail, as a path on the app under test (PUBLIC_URL may differ). */
export async function verificationLink(request: APIRequestContext, email: string): Promise<string> {
  const match = await waitForMessage(request, email, /https?:\/\/[^\s"<>]+verify_email_code=\d+/);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

export async function smsCode(request: APIRequestContext, phone: string): Promise<string> {
  const match = await waitForMessage(request, phone, /\b(\d{6})\b/);
  return match[1] as string;
}

export async function resetLink(request: APIRequestContext, email: string): Promise<string> {
  const match = await waitForMessage(request, email, /https?:\/\/[^\s"<>]+reset_token=[A-Za-z0-9_-]+/);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

export async function registerByApi(
  request: APIRequestContext,
  person: Person,
  locale = 'pt',
): Promise<void> {
  const response = await request.post('/api/auth/register', {
    headers: { locale },
    data: {
      email: person.email,
      first_name: person.firstName,
      last_name: person.lastName,
      phone_number: person.phone,
      password: person.password,
      confirm_password: person.password,
      agree_newsletter: true,
      locale,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Registers and verifies both contacts through the API: the account can log in and book. */
export async function verifiedPerson(
  request: APIRequestContext,
  prefix: string,
  locale = 'pt',
): Promise<Person> {
  const person = newPerson(prefix);
  await registerByApi(request, person, locale);
  const emailCode = new URL(`http://x${await verificationLink(request, person.email)}`).searchParams.get(
    'verify_email_code',
  );
  expect((await request.get(`/api/auth/confirm-email/${emailCode}`)).ok()).toBe(true);
  expect(
    (await request.get(`/api/auth/confirm-phone-number/${await smsCode(request, person.phone)}`)).ok(),
  ).toBe(true);
  return person;
}

export async function apiLogin(request: APIRequestContext, person: { email: string; password: string }) {
  const response = await request.post('/api/auth/login', {
    form: { username: person.email, password: person.password },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Opens the app already logged in (the token in local storage, as after a login). */
export async function storeToken(page: Page, token: string): Promise<void> {
  await page.addInitScript((value) => window.localStorage.setItem('token', value), token);
}

/** The first bookable branch and its bookable slots on the day `daysAhead` after the branch's today. */
export async function bookableSlots(request: APIRequestContext, daysAhead: number) {
  const branch = await firstActiveBranch(request);
  const { date, slots } = await slotsOn(request, branch, daysAhead);
  return { branch, date, slots };
}

/** Books slots through the API and pays on the local checkout with the test card: the checkout session id. */
export async function bookAndPay(
  request: APIRequestContext,
  token: string,
  slots: ApiSlot[],
): Promise<string> {
  return payCheckout(request, await holdByApi(request, token, slots));
}

/** Pays a checkout (its client secret) on the local checkout with the test card: the checkout session id. */
export async function payCheckout(request: APIRequestContext, clientSecret: string): Promise<string> {
  const sessionId = clientSecret.split('_secret_')[0]!;
  const paid = await request.post(`/api/checkout/local/${sessionId}/complete`, {
    data: { card_number: '4242424242424242' },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  expect(((await paid.json()) as { outcome: string }).outcome).toBe('paid');
  return sessionId;
}

/** A form field by its exact label; a required field's label ends with Mantine's asterisk. */
export function field(scope: Page | Locator, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return scope.getByLabel(new RegExp(`^${escaped}( \\*)?$`));
}
