import { expect, test, type Page } from './support/test.ts';
import type { ChildProcess } from 'node:child_process';
import { apiLogin, bookAndPay, bookableSlots, field, outbox, verifiedPerson } from './support/accounts.ts';
import { expectNoSeriousViolationsOnPage } from './support/axe.ts';
import {
  addOperatorWithCli,
  freePort,
  newDataDir,
  startConsoleServer,
  stopConsoleServer,
  type CliOperator,
} from './support/console-server.ts';
import { logIn, setPasswordFromLink } from './support/operators.ts';

// A refund above the staff ceiling (issue 32, item 2): an owner sets the ceiling on the Approvals page, a staff
// member's cancellation with a full refund above it is sent for approval (the dialog says so before, the booking's
// page after; the booking stays as it was and the member hears nothing), and an owner approves it on the Approvals
// page, which cancels and refunds the booking and tells the member. axe at desktop and phone width.

// A server of its own on a free port: the console's specs run at once in several workers.
const PORT = await freePort();
test.use({ baseURL: `http://127.0.0.1:${PORT}` });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let owner: CliOperator;
let staff: CliOperator;
let member: { email: string };
let bookingId = 0;

const nav = (page: Page) => page.getByRole('navigation', { name: 'Secções da consola' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dataDir = newDataDir();
  owner = addOperatorWithCli(dataDir, 'dona@aprovacoes.example', 'owner');
  staff = addOperatorWithCli(dataDir, 'rececao@aprovacoes.example', 'staff');
  server = await startConsoleServer(dataDir, PORT);
});

test.afterAll(async () => {
  await stopConsoleServer(server);
});

test('an owner sets the staff refund ceiling on the Approvals page', async ({ page }) => {
  await setPasswordFromLink(page, owner);
  await logIn(page, owner);
  await nav(page).getByRole('link', { name: 'Aprovações' }).click();
  await expect(page.getByRole('heading', { name: 'Aprovações', level: 2 })).toBeVisible();
  await expect(page.getByText('Nenhum pedido à espera.')).toBeVisible();
  const ceiling = field(page, 'Limite de reembolso da equipa (€)');
  await expect(ceiling).toHaveValue('30');
  await ceiling.fill('5');
  await page.getByRole('button', { name: 'Guardar o limite' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Guardado.' })).toBeVisible();
});

test('a staff member’s cancellation above the ceiling is sent for approval and changes nothing yet', async ({
  page,
  request,
}) => {
  const person = await verifiedPerson(request, 'approvals');
  member = person;
  const { slots } = await bookableSlots(request, 4);
  const slot = slots.find((candidate) => candidate.basic_price_eur > 5)!;
  await bookAndPay(request, await apiLogin(request, person), [slot]);

  await setPasswordFromLink(page, staff);
  await logIn(page, staff);
  await page.goto('/pt/admin/bookings');
  await field(page, 'Cliente (e-mail, telefone ou nome)').fill(person.email);
  const row = page.getByRole('row').filter({ hasText: person.email });
  await expect(row).toHaveCount(1);
  await row.getByRole('link').first().click();
  bookingId = Number(/\/bookings\/(\d+)/.exec(page.url())![1]);
  await page.getByRole('button', { name: 'Cancelar…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: /^Total/ }).check();
  await field(dialog, 'Motivo').fill('Fuga de água no balneário');
  // Said before it is sent: above the ceiling, an owner decides.
  await expect(dialog.getByText('Precisa da aprovação de um proprietário')).toBeVisible();
  await expectNoSeriousViolationsOnPage(page, 'console, a cancellation above the staff ceiling');
  await page.screenshot({ path: 'test-results/approvals-cancel-dialog-desktop.png' });
  await dialog.getByRole('button', { name: 'Enviar para aprovação' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Enviado para aprovação' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancelar…' })).toBeEnabled();
  await expect(page.getByText('confirmada').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/approvals-booking-staff-desktop.png', fullPage: true });
  // The member hears of it only once an owner approves.
  const told = await outbox(request, person.email);
  expect(told.filter((message) => /cancelad/i.test(message.subject ?? ''))).toEqual([]);

  // The staff member follows their own request, without an owner's buttons.
  await nav(page).getByRole('link', { name: 'Aprovações' }).click();
  const request_ = page.getByRole('article').filter({ hasText: `Reserva #${bookingId}` });
  await expect(request_).toContainText('à espera');
  await expect(request_.getByRole('button', { name: 'Aprovar…' })).toHaveCount(0);
  await expect(
    page.getByText('Um reembolso acima de 5 € precisa da aprovação de um proprietário.'),
  ).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolationsOnPage(page, 'console, a staff member’s approvals at phone width');
  await page.screenshot({ path: 'test-results/approvals-staff-phone.png', fullPage: true });
});

test('an owner approves it: the booking is cancelled and refunded, the member told', async ({
  page,
  request,
}) => {
  await logIn(page, owner);
  // The navigation counts what waits for an owner.
  const link = nav(page).getByRole('link', { name: /^Aprovações/ });
  await expect(link).toContainText('1');
  await link.click();
  const card = page.getByRole('article').filter({ hasText: `Reserva #${bookingId}` });
  await expect(card).toContainText('Fuga de água no balneário');
  await expect(card).toContainText(staff.email);
  await expectNoSeriousViolationsOnPage(page, 'console, Approvals');
  await page.screenshot({ path: 'test-results/approvals-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolationsOnPage(page, 'console, Approvals at phone width');
  await page.screenshot({ path: 'test-results/approvals-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await card.getByRole('button', { name: 'Aprovar…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Aprovar o pedido/ });
  await expect(dialog).toContainText(`A reserva #${bookingId} é cancelada`);
  await expectNoSeriousViolationsOnPage(page, 'console, approving a refund');
  await dialog.getByRole('button', { name: 'Aprovar e cancelar a reserva' }).click();
  await expect(dialog).toHaveCount(0);
  const decided = page
    .getByRole('region', { name: 'Decididos' })
    .getByRole('article')
    .filter({ hasText: `Reserva #${bookingId}` });
  await expect(decided).toContainText('aprovado');
  await expect(page.getByText('Nenhum pedido à espera.')).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Aprovações', exact: true })).toBeVisible();
  await expectNoSeriousViolationsOnPage(page, 'console, Approvals decided');
  await page.screenshot({ path: 'test-results/approvals-decided-desktop.png', fullPage: true });

  await decided.getByRole('link', { name: `Reserva #${bookingId}` }).click();
  await expect(page.getByText('cancelada').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancelar…' })).toBeDisabled();
  const told = await outbox(request, member.email);
  expect(told.filter((message) => /cancelad/i.test(message.subject ?? ''))).toHaveLength(1);
});
