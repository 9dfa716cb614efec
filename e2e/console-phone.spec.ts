import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect, test, type APIRequestContext, type Locator, type Page } from './support/test.ts';
import {
  apiLogin,
  bookAndPay,
  bookableSlots,
  field,
  payCheckout,
  verifiedPerson,
} from './support/accounts.ts';
import { expectNoSeriousViolationsOnPage } from './support/axe.ts';
import {
  addOperatorWithCli,
  freePort,
  newDataDir,
  startConsoleServer,
  stopConsoleServer,
} from './support/console-server.ts';
import { consoleSession, signedInWith } from './support/operators.ts';

// The console on a phone (issue 32, item 7): every console page, with rows in each of its tables, read at 390 px
// wide has nothing running past the screen's right edge and no region to scroll sideways; a booking's status and
// what was paid are on screen. The same pages at 1280 px stay tables. axe at both widths.

// A port of its own: the console's specs run at once in several workers, each with its own server.
const PORT = await freePort();
const BASE = `http://127.0.0.1:${PORT}`;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let ownerToken = '';

type Seeded = {
  bookingId: number;
  memberId: string;
  branchId: number;
  date: string;
  /** The seeded bookings' period, as the console's date fields take it. */
  period: { from: string; to: string };
};
let seeded: Seeded;

async function admin(
  request: APIRequestContext,
  method: 'post' | 'put' | 'patch',
  path: string,
  data: unknown,
) {
  const response = await request[method](`/api/admin/${path}`, {
    headers: { Authorization: `Bearer ${ownerToken}` },
    data,
  });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return response.json() as Promise<unknown>;
}

async function adminGet<Body>(request: APIRequestContext, path: string): Promise<Body> {
  const response = await request.get(`/api/admin/${path}`, {
    headers: { Authorization: `Bearer ${ownerToken}` },
  });
  expect(response.ok(), `get ${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as Body;
}

/** An ISO time of the branch (with its offset) as the console's date fields take it: 26/03/2026 19:00. */
const typed = (iso: string) =>
  `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)}`;

/**
 * Something of everything the console lists: paid bookings (one cancelled with a refund), a pack and a gift voucher
 * bought, a coupon, a closure, a broadcast, a note, a date's price, a door opened from afar, on-call contacts and a
 * staff member limited to one branch, so each page has rows and the audit log has each kind of entry.
 */
async function seed(request: APIRequestContext, staffId: number): Promise<Seeded> {
  const { branch, date, slots } = await bookableSlots(request, 1);
  const members = [];
  for (const [index, prefix] of ['telefone-ana', 'telefone-rui', 'telefone-eva'].entries()) {
    const person = await verifiedPerson(request, prefix);
    const token = await apiLogin(request, person);
    await bookAndPay(request, token, [slots[index]!]);
    members.push({ person, token });
  }
  const bookings = await adminGet<{ items: { id: number; member: { id: string } | null }[] }>(
    request,
    `bookings?q=${encodeURIComponent(members[0]!.person.email)}`,
  );
  const booking = bookings.items[0]!;
  const cancelled = await adminGet<{ items: { id: number }[] }>(
    request,
    `bookings?q=${encodeURIComponent(members[2]!.person.email)}`,
  );
  await admin(request, 'post', `bookings/${cancelled.items[0]!.id}/cancel`, {
    refund: { mode: 'full' },
    reason: 'O cliente pediu por telefone',
  });

  const packs = (await (await request.get('/api/credit-packs')).json()) as { id: number }[];
  const pack = await request.post(`/api/credit-packs/${packs[0]!.id}/purchase`, {
    headers: { Authorization: `Bearer ${members[1]!.token}` },
    data: {},
  });
  expect(pack.status(), await pack.text()).toBe(201);
  await payCheckout(
    request,
    ((await pack.json()) as { checkout_session: { clientSecret: string } }).checkout_session.clientSecret,
  );
  const voucher = await request.post('/api/gift-vouchers', {
    headers: { Authorization: `Bearer ${members[1]!.token}` },
    data: {
      amount_eur: 40,
      recipient_name: 'Marta Sousa',
      recipient_email: 'marta.sousa@example.com',
      message: null,
    },
  });
  expect(voucher.status(), await voucher.text()).toBe(201);
  await payCheckout(
    request,
    ((await voucher.json()) as { checkout_session: { clientSecret: string } }).checkout_session.clientSecret,
  );

  await admin(request, 'post', 'coupons', { code: 'VERAO-TELEFONE', discount: 0.15, max_uses: 50 });
  await admin(request, 'patch', 'coupons/VERAO-TELEFONE', { discount: 0.2 });
  const { slots: later } = await bookableSlots(request, 12);
  await admin(request, 'post', 'closures', {
    branch_id: branch.id,
    starts_at: later[2]!.start_time,
    ends_at: later[4]!.end_time,
    reason: 'Manutenção do ar condicionado',
  });
  await admin(request, 'post', 'broadcasts', {
    idempotency_key: randomUUID(),
    branch_id: branch.id,
    starts_at: slots[0]!.start_time,
    ends_at: slots[2]!.end_time,
    channels: ['email', 'sms'],
    texts: {
      pt: { subject: 'Ar condicionado avariado', body: 'O ar condicionado está avariado esta noite.' },
    },
  });
  await admin(request, 'post', `members/${booking.member!.id}/notes`, { body: 'Pediu fatura com NIF.' });
  await admin(request, 'put', `branches/${branch.id}/prices/dates/${later[0]!.start_time.slice(0, 10)}`, {
    day_price_eur: 12,
    bands: [],
  });
  const doors = await adminGet<{ doors: { device_id: string }[] }>(request, `branches/${branch.id}/doors`);
  await admin(request, 'post', `branches/${branch.id}/doors/${doors.doors[0]!.device_id}/unlock`, {
    reason: 'Cliente à porta, o código não abre',
    request_id: randomUUID(),
  });
  await admin(request, 'put', `branches/${branch.id}/on-call`, {
    email: 'piquete@ginasio.example',
    phone: '+351912345678',
  });
  await admin(request, 'put', `operators/${staffId}/branches`, { branch_ids: [branch.id] });
  return {
    bookingId: booking.id,
    memberId: booking.member!.id,
    branchId: branch.id,
    date,
    period: { from: typed(slots[0]!.start_time), to: typed(slots[2]!.end_time) },
  };
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  const dataDir = newDataDir();
  const owner = addOperatorWithCli(dataDir, 'dona.telefone@ginasio.example', 'owner');
  addOperatorWithCli(dataDir, 'equipa.telefone@ginasio.example', 'staff');
  server = await startConsoleServer(dataDir, PORT);
  ownerToken = await consoleSession(request, owner);
  const operators = await adminGet<{ id: number; email: string }[]>(request, 'operators');
  seeded = await seed(request, operators.find((operator) => operator.email.startsWith('equipa'))!.id);
});

test.afterAll(async () => {
  await stopConsoleServer(server);
});

/** A page: its name, its address, its heading, and what to open on it so that each of its tables shows rows. */
const PAGES: [
  name: string,
  path: (seeded: Seeded) => string,
  heading: string | RegExp,
  open?: (page: Page, seeded: Seeded) => Promise<void>,
][] = [
  ['today', ({ date }) => `?date=${date}`, 'Hoje'],
  ['bookings', () => 'bookings', 'Reservas'],
  ['booking', ({ bookingId }) => `bookings/${bookingId}`, /^Reserva #/],
  ['doors', ({ branchId }) => `doors?branchId=${branchId}`, 'Portas'],
  [
    'closures',
    () => 'closures',
    'Encerramentos',
    // The bookings a closure would cancel, listed before it is confirmed (it is not).
    async (page, { branchId, period }) => {
      await field(page, 'Filial').selectOption(String(branchId));
      await field(page, 'Desde (hora da filial)').fill(period.from);
      await field(page, 'Até (hora da filial)').fill(period.to);
      await field(page, 'Motivo (dito aos clientes)').fill('Inundação');
      await page.getByRole('button', { name: 'Ver as reservas afetadas' }).click();
      await expect(page.getByRole('button', { name: 'Encerrar e reembolsar' })).toBeVisible();
    },
  ],
  [
    'broadcasts',
    () => 'broadcasts',
    'Mensagens aos clientes',
    async (page) => {
      await page.getByRole('button', { name: 'Ver os envios' }).first().click();
      await expect(page.getByRole('table', { name: /^Envios de/ })).toBeVisible();
    },
  ],
  ['members', () => 'members', 'Clientes'],
  ['member', ({ memberId }) => `members/${memberId}`, /.+/],
  ['branches', () => 'branches', 'Filiais'],
  ['branch', ({ branchId }) => `branches/${branchId}`, /.+/],
  ['prices', () => 'prices', 'Preços'],
  ['coupons', () => 'coupons', 'Cupões'],
  ['credit-packs', () => 'credit-packs', /.+/],
  ['gift-vouchers', () => 'gift-vouchers', /.+/],
  ['refund-policy', () => 'refund-policy', 'Política de reembolso'],
  ['money', () => 'money', 'Receitas e uso'],
  ['documents', () => 'documents', /.+/],
  ['audit', () => 'audit', 'Registo de auditoria'],
  ['operators', () => 'operators', 'Operadores'],
];

async function openPage(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`/pt/admin/${path}`);
  await expect(page.getByRole('heading', { level: 2, name: heading }).first()).toBeVisible();
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
  await expect(page.locator('.global-loader')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
}

/**
 * What runs past the right edge of the screen, or scrolls sideways, on the page as it is: the document itself, then
 * every element shown (a few named, with how far they reach).
 */
async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const problems: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > width) problems.push(`the page is ${root.scrollWidth} px wide`);
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${[...element.classList]
        .slice(0, 2)
        .map((name) => `.${name}`)
        .join('')} «${(element.textContent ?? '').trim().slice(0, 40)}»`;
    for (const element of document.body.querySelectorAll('*')) {
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.right > width + 0.5 && box.left < width)
        problems.push(`${name(element)} reaches ${Math.round(box.right)} px`);
      const style = getComputedStyle(element);
      if (/(auto|scroll)/.test(style.overflowX) && element.scrollWidth > element.clientWidth + 1)
        problems.push(
          `${name(element)} scrolls sideways (${element.scrollWidth} in ${element.clientWidth} px)`,
        );
    }
    return problems.slice(0, 8);
  });
}

/** A picture of the whole page in CONSOLE_SHOTS_DIR, when set: to look at each page at each width. */
async function look(page: Page, name: string): Promise<void> {
  const folder = process.env.CONSOLE_SHOTS_DIR;
  if (folder) await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}

/** Where a text sits across the screen: its left and right edges. */
async function across(locator: Locator): Promise<[number, number]> {
  const box = (await locator.boundingBox())!;
  return [Math.round(box.x), Math.round(box.x + box.width)];
}

/** A booking's status and payment, as its row shows them: both fully inside the phone's width. */
async function expectStatusAndPaidOnScreen(row: Locator, what: string): Promise<void> {
  await expect(row).toBeVisible();
  for (const text of [row.getByText('confirmada', { exact: true }), row.getByText('paga', { exact: true })]) {
    const [left, right] = await across(text);
    expect(left, `${what}: left edge`).toBeGreaterThanOrEqual(0);
    expect(right, `${what}: right edge`).toBeLessThanOrEqual(390);
  }
}

for (const [width, height, device] of [
  [390, 844, 'phone'],
  [1280, 900, 'desktop'],
] as const) {
  test(`every console page at ${width} px: nothing runs past the screen, no table scrolls sideways, axe passes`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await signedInWith(page, ownerToken);
    await page.setViewportSize({ width, height });
    for (const [name, path, heading, open] of PAGES) {
      await openPage(page, path(seeded), heading);
      await open?.(page, seeded);
      expect.soft(await sidewaysOverflow(page), `console ${name} at ${width} px`).toEqual([]);
      await expectNoSeriousViolationsOnPage(page, `console ${name} at ${width} px`);
      await look(page, `${name}-${device}`);
    }
  });
}

test("a booking's status and what was paid are on a phone's screen, in the list, the day's view and the member's page; its card opens by keyboard", async ({
  page,
}) => {
  await signedInWith(page, ownerToken);
  await page.setViewportSize({ width: 390, height: 844 });
  const { bookingId, memberId, date } = seeded;
  await openPage(page, 'bookings', 'Reservas');
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `#${bookingId}`, exact: true }) });
  await expectStatusAndPaidOnScreen(row, 'bookings');
  // The amount paid, under its column's name, on screen too.
  const paid = row.getByRole('cell').nth(3);
  await expect(paid).toContainText(/\d+\s€/);
  const [left, right] = await across(paid);
  expect(left).toBeGreaterThanOrEqual(0);
  expect(right).toBeLessThanOrEqual(390);
  // Cards: the header row is out of sight, yet the card is read as the table it is (each value's cell keeps its
  // column, which a screen reader names).
  await expect(page.getByRole('table').locator('thead')).toHaveCSS('position', 'absolute');
  await expect(page.getByRole('columnheader', { name: 'Pago' })).toHaveCount(1);
  // By keyboard: Tab reaches the card's link (no scrolling region to pass through first), Enter opens the booking.
  const link = row.getByRole('link', { name: `#${bookingId}`, exact: true });
  for (let presses = 0; presses < 40; presses += 1) {
    if (await link.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(link).toBeFocused();
  await expect(link).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: `Reserva #${bookingId}` })).toBeVisible();

  await openPage(page, `?date=${date}`, 'Hoje');
  await expectStatusAndPaidOnScreen(
    page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: /–/ }) })
      .first(),
    'today',
  );
  await openPage(page, `members/${memberId}`, /.+/);
  await expectStatusAndPaidOnScreen(page.getByRole('region', { name: 'Reservas' }), 'member');
});

test('on a desktop the bookings are a table, its header row on view', async ({ page }) => {
  await signedInWith(page, ownerToken);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openPage(page, 'bookings', 'Reservas');
  await expect(page.getByRole('columnheader', { name: 'Estado' })).toBeVisible();
  await expect(page.getByRole('table').locator('thead')).toHaveCSS('display', 'table-header-group');
});
