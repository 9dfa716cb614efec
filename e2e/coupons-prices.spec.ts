import { expect, test, type Page } from './support/test.ts';
import type { ChildProcess } from 'node:child_process';
import { consoleSession, signedInWith } from './support/operators.ts';
import { expectNoSeriousViolationsOnPage } from './support/axe.ts';
import {
  addOperatorWithCli,
  freePort,
  newDataDir,
  startConsoleServer,
  stopConsoleServer,
} from './support/console-server.ts';

// Issue 32, items 4 and 5, in Chromium against the real server: an owner edits a coupon (each refused field
// worded beside it, the form empty after a create) and sets a date's price on the prices calendar.

// A port of its own: the console's specs run at once in several workers, each with its own server.
const PORT = await freePort();
const BASE = `http://127.0.0.1:${PORT}`;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let ownerToken = '';

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  const dataDir = newDataDir();
  const owner = addOperatorWithCli(dataDir, 'dona@ginasio.example', 'owner');
  server = await startConsoleServer(dataDir, PORT);
  // The owner signs in through the API: the console's own login has its journey in admin.spec.ts.
  ownerToken = await consoleSession(request, owner);
});

test.afterAll(async () => {
  await stopConsoleServer(server);
});

async function asOwner(page: Page): Promise<void> {
  await signedInWith(page, ownerToken);
}

test('a coupon edited: errors beside their fields, an empty form after a create, the new values in the list', async ({
  page,
}) => {
  await asOwner(page);
  await page.goto('/pt/admin/coupons');
  const form = page.getByRole('region', { name: 'Novo cupão' });
  await expect(form).toBeVisible();
  await form.getByRole('textbox', { name: 'Código', exact: true }).fill('PASCOA');
  await form.getByRole('textbox', { name: 'Desconto (%)', exact: true }).fill('150');
  // The button is never silently disabled: saving says what is wrong, beside the field.
  await form.getByRole('button', { name: 'Criar' }).click();
  await expect(form.getByText('O desconto é um número inteiro de 1 a 100.')).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Desconto (%)', exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expectNoSeriousViolationsOnPage(page, 'coupons, a refused discount');
  await form.getByRole('textbox', { name: 'Desconto (%)', exact: true }).fill('15');
  await form.getByRole('textbox', { name: 'Usos por cliente', exact: true }).fill('3');
  await form.getByRole('button', { name: 'Criar' }).click();
  const row = page.getByRole('row').filter({ hasText: 'PASCOA' });
  await expect(row).toContainText('15%');
  // Every field is empty again for the next coupon.
  await expect(form.getByRole('textbox', { name: 'Código', exact: true })).toHaveValue('');
  await expect(form.getByRole('textbox', { name: 'Desconto (%)', exact: true })).toHaveValue('');
  await expect(form.getByRole('textbox', { name: 'Usos por cliente', exact: true })).toHaveValue('');
  // A code taken is said beside the code.
  await form.getByRole('textbox', { name: 'Código', exact: true }).fill('pascoa');
  await form.getByRole('textbox', { name: 'Desconto (%)', exact: true }).fill('5');
  await form.getByRole('button', { name: 'Criar' }).click();
  await expect(form.getByText('Já existe um cupão com este código.')).toBeVisible();

  await row.getByRole('button', { name: 'Alterar PASCOA' }).click();
  const dialog = page.getByRole('dialog', { name: 'Alterar o cupão PASCOA' });
  await expect(dialog.getByRole('textbox', { name: 'Desconto (%)', exact: true })).toHaveValue('15');
  await dialog.getByRole('textbox', { name: 'Desconto (%)', exact: true }).fill('20');
  await dialog.getByRole('textbox', { name: 'Usos no total', exact: true }).fill('100');
  await dialog.getByRole('textbox', { name: 'Válido desde', exact: true }).fill('01/04/2027');
  await dialog.getByRole('textbox', { name: 'Válido até (inclusive)', exact: true }).fill('31/03/2027');
  await dialog
    .getByRole('textbox', { name: 'Só para contas registadas antes de', exact: true })
    .fill('15/03/2027');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('O último dia não pode ser antes do primeiro.')).toBeVisible();
  await expectNoSeriousViolationsOnPage(page, 'coupons, the edit dialog with a refused day');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolationsOnPage(page, 'coupons, the edit dialog at phone width');
  await page.screenshot({ path: 'test-results/coupon-edit-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await dialog.getByRole('textbox', { name: 'Válido até (inclusive)', exact: true }).fill('30/04/2027');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('20%');
  await expect(row).toContainText('/ 100');
  await expect(row).toContainText('3 por cliente');
  await expect(row).toContainText('15/03/2027');
  await page.screenshot({ path: 'test-results/coupon-list-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolationsOnPage(page, 'coupons at phone width');
  await page.screenshot({ path: 'test-results/coupon-list-phone.png', fullPage: true });
  const audit = (await (
    await page.request.get('/api/admin/audit?page_size=100', {
      headers: { Authorization: `Bearer ${ownerToken}` },
    })
  ).json()) as { items: { action: string }[] };
  expect(audit.items.map((item) => item.action)).toContain('coupon.update');
});

test('a date priced on the prices calendar: marked on its day, its free slots at the new price, removed again', async ({
  page,
}) => {
  await asOwner(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/pt/admin/prices');
  const calendar = page.getByRole('region', { name: 'Preços por data' });
  await expect(calendar).toBeVisible();
  await calendar.getByRole('button', { name: 'Mês seguinte ›' }).click();
  const day = calendar.getByRole('button', { name: /^[^,]+, 15 de / });
  await day.click();
  await calendar.getByRole('textbox', { name: 'Preço do dia (€)' }).fill('doze');
  await calendar.getByRole('button', { name: 'Guardar o preço do dia' }).click();
  await expect(calendar.getByText('Escreva um valor em euros, por exemplo 12,50.')).toBeVisible();
  await calendar.getByRole('textbox', { name: 'Preço do dia (€)' }).fill('20');
  await calendar.getByRole('button', { name: 'Acrescentar horas com outro preço' }).click();
  await calendar.getByRole('textbox', { name: 'Horas 1: das (HH:MM)' }).fill('18:00');
  await calendar.getByRole('textbox', { name: 'Horas 1: às (HH:MM)' }).fill('22:00');
  await calendar.getByRole('textbox', { name: 'Horas 1: preço (€)' }).fill('30');
  await calendar.getByRole('button', { name: 'Guardar o preço do dia' }).click();
  await expect(day).toHaveAccessibleName(/preço próprio: 20\s€ e horas/);
  await expect(calendar.getByRole('button', { name: 'Voltar ao preço da grelha' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoSeriousViolationsOnPage(page, 'prices calendar, desktop');
  await calendar.screenshot({ path: '/work/tr/prices-calendar-desktop.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolationsOnPage(page, 'prices calendar, phone');
  await calendar.screenshot({ path: 'test-results/prices-calendar-phone.png' });
  await calendar.getByRole('button', { name: 'Voltar ao preço da grelha' }).click();
  await expect(day).not.toHaveAccessibleName(/preço próprio/);
});
