import { expect, test } from './support/test.ts';
import { apiLogin, bookAndPay, storeToken, verifiedPerson } from './support/accounts.ts';
import { firstActiveBranch, onPublicOrigin, slotsOn } from './support/booking.ts';

// The virtual door end to end: book and pay, the code reaches the branch's virtual door, the keypad opens it
// inside the window (and refuses a wrong code, too early and too late), and My bookings shows the entry.

test('the virtual door opens with the booking’s code inside its window, and My bookings shows the entry', async ({
  page,
  request,
  baseURL,
}) => {
  const branch = await firstActiveBranch(request);
  const person = await verifiedPerson(request, 'door');
  const token = await apiLogin(request, person);
  const { slots } = await slotsOn(request, branch, 3);
  const slot = slots[4]!;
  await bookAndPay(request, token, [slot]);

  // The door takes the code within a few seconds (the queue's worker programs it).
  const keypad = onPublicOrigin(baseURL, `/api/dev/doors/${branch.id}`);
  const start = new Date(slot.start_time).getTime();
  const windowStart = new Date(start - 15 * 60_000).toISOString();
  const row = page.getByRole('row').filter({ hasText: windowStart });
  await expect(async () => {
    await page.goto(keypad);
    await expect(row).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const code = (await row.getByRole('cell').first().textContent())!.trim();
  expect(code).toMatch(/^\d{6}$/);

  const tryCode = async (digits: string, at: Date) => {
    await page.getByLabel('Código', { exact: true }).fill(digits);
    await page.getByLabel('Momento (opcional, ISO)').fill(at.toISOString());
    await page.getByRole('button', { name: 'Abrir' }).click();
  };
  const status = page.getByRole('status');

  await tryCode(code === '000000' ? '000001' : '000000', new Date(start + 5 * 60_000));
  await expect(status).toHaveText('Código recusado.');
  await tryCode(code, new Date(start - 16 * 60_000));
  await expect(status).toHaveText('Código recusado.');
  await tryCode(code, new Date(start + 75 * 60_000));
  await expect(status).toHaveText('Código recusado.');
  await page.screenshot({ path: 'test-results/doors-keypad-refused.png' });
  const entry = new Date(start - 5 * 60_000);
  await tryCode(code, entry);
  await expect(status).toHaveText('Porta aberta.');
  await page.screenshot({ path: 'test-results/doors-keypad-opened.png' });

  await storeToken(page, token);
  await page.goto(onPublicOrigin(baseURL, '/pt?account_tab=myBookings'));
  const account = page.getByRole('dialog', { name: 'A minha conta' });
  const local = slot.start_time.slice(11, 16);
  const entered = new Date(new Date(`2000-01-01T${local}:00Z`).getTime() - 5 * 60_000)
    .toISOString()
    .slice(11, 16);
  await expect(account.getByText(`Entrou às ${entered}`)).toBeVisible();
  await page.screenshot({ path: 'test-results/doors-my-bookings-entered.png', fullPage: true });
});
