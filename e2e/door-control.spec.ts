import type { ChildProcess } from 'node:child_process';
import { consoleSession, signedInWith } from './support/operators.ts';
import { expect, test, type Page } from './support/test.ts';
import { field } from './support/accounts.ts';
import { expectNoSeriousViolationsOnPage } from './support/axe.ts';
import {
  addOperatorWithCli,
  freePort,
  newDataDir,
  startConsoleServer,
  stopConsoleServer,
  type CliOperator,
} from './support/console-server.ts';

// Live door control (issue 32, item 1) in Chromium against the real server: a staff operator opens the branch's
// virtual door from the console's door page with a reason, the opening shows in the door's events and in the audit
// log; the page passes axe on a phone and on a desktop; an owner sets the branch's on-call contacts.

// A port of its own: the console's specs run at once in several workers, each with its own server.
const PORT = await freePort();
const BASE = `http://127.0.0.1:${PORT}`;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let owner: CliOperator;
let staff: CliOperator;
async function signedIn(page: Page, operator: CliOperator): Promise<void> {
  await signedInWith(page, await consoleSession(page.request, operator));
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dataDir = newDataDir();
  owner = addOperatorWithCli(dataDir, 'dona.portas@ginasio.example', 'owner');
  staff = addOperatorWithCli(dataDir, 'equipa.portas@ginasio.example', 'staff');
  server = await startConsoleServer(dataDir, PORT);
});

test.afterAll(async () => {
  await stopConsoleServer(server);
});

test('staff open the virtual door now with a reason; the opening is in the feed and the audit log', async ({
  page,
  request,
}) => {
  await signedIn(page, staff);
  await page.goto('/pt/admin/doors');
  await expect(page.getByRole('heading', { name: 'Portas', level: 2 })).toBeVisible();
  const door = page.getByRole('region', { name: /Porta virtual de/ });
  await expect(door).toContainText('ligada');
  await door.getByRole('button', { name: 'Abrir agora…' }).click();
  const dialog = page.getByRole('dialog');
  const open = dialog.getByRole('button', { name: 'Abrir agora', exact: true });
  // No reason, no opening.
  await expect(open).toBeDisabled();
  await field(dialog, 'Motivo').fill('Cliente à porta, o código não abre');
  await expectNoSeriousViolationsOnPage(page, 'door page, open-now dialog');
  await open.click();
  await expect(dialog.getByRole('status')).toContainText('A porta abriu');
  await dialog.getByRole('button', { name: 'Fechar' }).last().click();
  await expect(dialog).toHaveCount(0);
  const events = page.getByRole('table', { name: 'Eventos das portas' });
  await expect(events.getByRole('row').filter({ hasText: 'Aberta à distância' })).toContainText(
    'Cliente à porta, o código não abre',
  );
  const audit = (await (
    await request.get('/api/admin/audit?action=door.unlock', {
      headers: { Authorization: `Bearer ${await consoleSession(request, owner)}` },
    })
  ).json()) as { items: { action: string; reason: string; operator_email: string }[] };
  expect(audit.items.map((item) => [item.action, item.reason, item.operator_email])).toEqual([
    ['door.unlock', 'Cliente à porta, o código não abre', staff.email],
  ]);
});

test('the door page passes axe on a phone and on a desktop', async ({ page }) => {
  await signedIn(page, owner);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto('/pt/admin/doors');
    await expect(page.getByRole('table', { name: 'Eventos das portas' })).toBeVisible();
    await expectNoSeriousViolationsOnPage(page, `door page at ${width} px`);
    await page.screenshot({
      path: `test-results/door-page-${width === 390 ? 'phone' : 'desktop'}.png`,
      fullPage: true,
    });
  }
});

test("an owner sets the branch's on-call e-mail and phone for door alerts", async ({ page }) => {
  await signedIn(page, owner);
  await page.goto('/pt/admin/doors');
  await field(page, 'E-mail de piquete').fill('piquete@ginasio.example');
  await field(page, 'Telefone de piquete (SMS)').fill('+351 912 345 678');
  await page.getByRole('button', { name: 'Guardar contactos' }).click();
  await expect(page.getByText('Guardado.')).toBeVisible();
  await page.reload();
  await expect(field(page, 'Telefone de piquete (SMS)')).toHaveValue('+351912345678');
});
