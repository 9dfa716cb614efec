import type { ChildProcess } from 'node:child_process';
import { expect, test } from './support/test.ts';
import { apiLogin, outbox, storeToken, verifiedPerson } from './support/accounts.ts';
import { bookingDialog, firstActiveBranch, pickDate, slotButton, slotsOn } from './support/booking.ts';
import { freePort, newDataDir, startConsoleServer, stopConsoleServer } from './support/console-server.ts';
import { open } from './support/fixtures.ts';

// Issue 17, item 2: the banner promises the early-bird coupon, and an eligible member gets it. The shared server
// runs without the offer (playwright.config.ts), so this journey has a server of its own with the default
// (EARLYBIRD, which the demo data make for accounts registered before the opening, 60 days on).

const PORT = await freePort();
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

let server: ChildProcess | undefined;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startConsoleServer(newDataDir(), PORT);
});
test.afterAll(async () => stopConsoleServer(server));

test('a new member learns the early-bird code by e-mail, finds it applied with struck prices, can remove it, and sees its uses left', async ({
  page,
  request,
}) => {
  const person = await verifiedPerson(request, 'early-bird');
  const [verification] = (await outbox(request, person.email)).filter(
    (message) => message.channel === 'email',
  );
  expect(verification?.text).toContain(
    'o código EARLYBIRD dá-lhe 10% de desconto nos próximos 3 horários que reservar',
  );

  await storeToken(page, await apiLogin(request, person));
  const branch = await firstActiveBranch(request);
  const day = await slotsOn(request, branch, 10);
  const slot = day.slots[8]!;
  await open(page, `/pt?booking_tab=bookSessions&booking_branch_id=${branch.id}`);
  const dialog = bookingDialog(page, branch.name);
  await expect(
    dialog.getByText(
      'Cupão de cliente fundador EARLYBIRD aplicado automaticamente: 10% de desconto. Vale para os próximos 3 horários que reservar.',
    ),
  ).toBeVisible();
  await pickDate(dialog, day.today, day.date);
  const price = (amount: number) =>
    new Intl.NumberFormat('pt-PT', {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    }).format(amount);
  // Struck through as for a typed coupon: the basic price, then 10% off it.
  await expect(slotButton(dialog, slot).locator('s')).toHaveText(price(slot.basic_price_eur));
  await expect(slotButton(dialog, slot)).toContainText(
    price(Math.floor((Math.round(slot.basic_price_eur * 100) * 9000 + 5000) / 10_000) / 100),
  );

  await dialog.getByRole('button', { name: 'Remover cupão' }).click();
  await expect(dialog.getByLabel('Código de cupão')).toHaveValue('');
  await expect(slotButton(dialog, slot).locator('s')).toHaveCount(0);
  await expect(slotButton(dialog, slot)).toContainText(price(slot.basic_price_eur));

  await open(page, '/pt?account_tab=profile');
  const account = page.getByRole('dialog', { name: 'A minha conta' });
  await expect(account.getByText('Cupão de cliente fundador EARLYBIRD')).toBeVisible();
  await expect(account).toContainText('Restam-lhe 3 utilizações.');
});
