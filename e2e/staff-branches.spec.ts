import { expect, test, type Page } from './support/test.ts';
import type { ChildProcess } from 'node:child_process';
import { apiLogin, bookAndPay, bookableSlots, field, verifiedPerson } from './support/accounts.ts';
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

// A staff member limited to one branch (issue 32, item 2): an owner picks the branch on the Operators page, the
// staff member then sees that branch only (its bookings, its filter) and is refused another branch's booking;
// exporting a member's data is an owner's button. An operator added in the console shows a QR code to scan.

const LIMITED_TO = 'Porto – Boavista';

// A server of its own on a free port: the console journeys of admin.spec.ts own E2E_PORT + 100 and may run meanwhile.
const PORT = await freePort();
test.use({ baseURL: `http://127.0.0.1:${PORT}` });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let owner: CliOperator;
let staff: CliOperator;
/** Sets the password from the CLI's link, then logs in through the console's form. */
async function firstLogIn(page: Page, operator: CliOperator): Promise<void> {
  await setPasswordFromLink(page, operator);
  await logIn(page, operator);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dataDir = newDataDir();
  owner = addOperatorWithCli(dataDir, 'dona@filiais.example', 'owner');
  staff = addOperatorWithCli(dataDir, 'porto@filiais.example', 'staff');
  server = await startConsoleServer(dataDir, PORT);
});

test.afterAll(async () => {
  await stopConsoleServer(server);
});

test('an owner limits a staff member to one branch and sees a new operator’s TOTP as a QR code', async ({
  page,
}) => {
  await firstLogIn(page, owner);
  await page.goto('/pt/admin/operators');
  const row = page.getByRole('row').filter({ hasText: staff.email });
  await expect(row).toContainText('todas as filiais');
  await row.getByRole('button', { name: `Filiais de ${staff.email}…` }).click();
  const choice = page.getByRole('group', { name: `Filiais de ${staff.email}` });
  await choice.getByRole('checkbox', { name: LIMITED_TO }).check();
  await expectNoSeriousViolationsOnPage(page, 'console, an operator’s branches');
  await page.screenshot({ path: 'test-results/staff-branches-operators-desktop.png', fullPage: true });
  await page.getByRole('button', { name: 'Guardar as filiais' }).click();
  await expect(row).toContainText(LIMITED_TO);
  await expect(row).not.toContainText('todas as filiais');

  await field(page, 'E-mail').fill('nova@filiais.example');
  await page.getByRole('button', { name: 'Criar' }).click();
  await expect(page.getByRole('img', { name: 'Código QR do segredo TOTP' })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolationsOnPage(page, 'console, operators at phone width');
  await page.screenshot({ path: 'test-results/staff-branches-operators-phone.png', fullPage: true });
});

test('a staff member limited to one branch sees only that branch, and no export or block of a member', async ({
  page,
  request,
}) => {
  // A booking at the first branch, which is not the staff member's.
  const person = await verifiedPerson(request, 'staff-branches');
  const { branch, slots } = await bookableSlots(request, 4);
  expect(branch.name).not.toBe(LIMITED_TO);
  await bookAndPay(request, await apiLogin(request, person), [slots[0]!]);

  await firstLogIn(page, staff);
  await page.goto('/pt/admin/branches');
  await expect(page.getByRole('link', { name: LIMITED_TO })).toBeVisible();
  await expect(page.getByRole('link', { name: branch.name })).toHaveCount(0);
  await page.goto('/pt/admin/bookings');
  await expect(field(page, 'Filial').getByRole('option')).toHaveText(['Todas as filiais', LIMITED_TO]);
  await field(page, 'Cliente (e-mail, telefone ou nome)').fill(person.email);
  await field(page, 'Cliente (e-mail, telefone ou nome)').press('Enter');
  await expect(page.getByText('Nenhuma reserva encontrada.')).toBeVisible();
  await expectNoSeriousViolationsOnPage(page, 'console, a limited staff member’s bookings');
  await page.screenshot({ path: 'test-results/staff-branches-bookings-desktop.png', fullPage: true });

  const token = await page.evaluate(() => window.localStorage.getItem('admin_token'));
  const bookings = await request.get(`/api/admin/bookings?q=${encodeURIComponent(person.email)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(((await bookings.json()) as { total: number }).total).toBe(0);
  const ownerSees = await request.get('/api/admin/members?q=' + encodeURIComponent(person.email), {
    headers: { Authorization: `Bearer ${token}` },
  });
  const memberId = ((await ownerSees.json()) as { items: { id: string }[] }).items[0]!.id;
  await page.goto(`/pt/admin/members/${memberId}`);
  await expect(page.getByRole('heading', { level: 2 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Exportar os dados (JSON)' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Bloquear…' })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolationsOnPage(page, 'console, a member for limited staff at phone width');
  await page.screenshot({ path: 'test-results/staff-branches-member-phone.png', fullPage: true });
});
