import { expect, test } from './support/test.ts';
import { apiLogin, storeToken, verifiedPerson } from './support/accounts.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import {
  bookingDialog,
  firstActiveBranch,
  onPublicOrigin,
  payInLocalCheckout,
  pickDate,
  slotButton,
  slotsOn,
} from './support/booking.ts';

type WalletAnswer = {
  lots: { name: string; remaining: number; initial: number }[];
  movements: { kind: string; booking_id: number | null }[];
};
type MyBooking = { id: number; status: string; credit_eur?: number; final_price_eur: number };

// Issue 31: a prepaid pack bought in My account → Carteira with the local test card, then spent in the booking
// modal: the summary says what credit pays and what is left, and a slot the credit pays whole is booked without a
// checkout; My bookings says it was paid with credit, and the wallet shows the spend.

test('a pack bought in the wallet pays a booking made in the booking modal', async ({
  page,
  request,
  baseURL,
}) => {
  const branch = await firstActiveBranch(request);
  const member = await verifiedPerson(request, 'wallet');
  const token = await apiLogin(request, member);
  await storeToken(page, token);

  await page.goto(onPublicOrigin(baseURL, '/pt?account_tab=wallet'));
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
  const account = page.getByRole('dialog', { name: 'A minha conta' });
  await expect(
    account.getByText('Ainda não tem crédito. Compre um pacote e pague as suas reservas com ele.'),
  ).toBeVisible();
  await expectNoSeriousViolations(page, 'an empty wallet with packs on sale');
  await account.getByRole('button', { name: 'Comprar 10 horas' }).click();
  await expect(page.getByRole('dialog', { name: 'Pagamento', exact: true })).toBeVisible();
  await payInLocalCheckout(page, '4242 4242 4242 4242');
  const result = page.getByRole('dialog', { name: 'Pacote comprado' });
  await expect(result).toBeVisible({ timeout: 15_000 });
  await expect(result.getByText(/^O pacote «10 horas» está na sua carteira: /)).toBeVisible();

  const wallet = async () =>
    (await (
      await request.get('/api/wallet', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as WalletAnswer;
  expect((await wallet()).lots).toEqual([
    expect.objectContaining({ name: '10 horas', remaining: 10, initial: 10 }),
  ]);

  // A slot eight days ahead: the credit pays it whole, so nothing is left to pay and no checkout opens.
  const { today, date, slots } = await slotsOn(request, branch, 8);
  const slot = slots[2]!;
  await page.goto(onPublicOrigin(baseURL, `/pt?booking_tab=bookSessions&booking_branch_id=${branch.id}`));
  const dialog = bookingDialog(page, branch.name);
  await pickDate(dialog, today, date);
  await slotButton(dialog, slot).click();
  await dialog.getByRole('button', { name: 'Confirmar reserva' }).click();
  const summary = page.getByRole('dialog', { name: 'Resumo da reserva' });
  await expect(summary.getByRole('checkbox', { name: 'Usar o meu crédito' })).toBeChecked();
  await expect(summary.getByText('Pago com crédito')).toBeVisible();
  await expect(summary.getByText('A pagar')).toBeVisible();
  await expectNoSeriousViolations(page, 'the summary with credit');
  await summary.getByRole('checkbox', { name: /termos|condições/i }).check();
  await summary.getByRole('button', { name: 'Confirmar', exact: true }).click();
  // Nothing is left to pay: the result opens at once and the checkout ('Pagamento') never does.
  await expect(page.getByRole('dialog', { name: 'Pagamento concluído' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Pagamento', exact: true })).toHaveCount(0);

  await expect(async () => {
    const mine = (await (
      await request.get('/api/bookings/my-bookings', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as MyBooking[];
    expect(mine).toEqual([expect.objectContaining({ status: 'confirmed', final_price_eur: 0 })]);
    expect(mine[0]!.credit_eur).toBeGreaterThan(0);
  }).toPass({ timeout: 15_000 });
  const after = await wallet();
  expect(after.lots[0]!.remaining).toBe(9);
  expect(after.movements.map((movement) => movement.kind)).toEqual(['spend', 'grant']);

  await page.goto(onPublicOrigin(baseURL, '/pt?account_tab=myBookings'));
  const card = page.getByRole('dialog', { name: 'A minha conta' });
  await expect(card.getByRole('term').filter({ hasText: 'Pago com crédito' })).toBeVisible();
  await expect(card.getByRole('definition').filter({ hasText: /€/ }).first()).toBeVisible();
});
