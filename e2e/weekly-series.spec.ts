import { expect, test } from './support/test.ts';
import { apiLogin, DEMO_ACCOUNT, storeToken, verifiedPerson } from './support/accounts.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import {
  bookingDialog,
  firstActiveBranch,
  holdByApi,
  onPublicOrigin,
  payInLocalCheckout,
  pickDate,
  slotButton,
  slotsOn,
} from './support/booking.ts';

type MyBooking = { id: number; series_id?: number | null; time_slot_data: { start_time: string } };

// Issue 31: a slot repeated weekly from the booking modal, one week already taken by someone else, the other
// four paid in one checkout and listed in My bookings as one series.
test('repeats a slot weekly: five weeks asked for, the taken one left out, four paid at once', async ({
  page,
  request,
  baseURL,
}) => {
  const branch = await firstActiveBranch(request);
  const first = await slotsOn(request, branch, 22);
  const slot = first.slots[4]!;
  const time = slot.start_time.slice(11, 16);
  // Someone else holds the third week's slot (the same time two weeks later).
  const third = await slotsOn(request, branch, 36);
  const taken = third.slots.find((candidate) => candidate.start_time.slice(11, 16) === time)!;
  await holdByApi(request, await apiLogin(request, DEMO_ACCOUNT), [taken]);

  const member = await verifiedPerson(request, 'series');
  const token = await apiLogin(request, member);
  await storeToken(page, token);
  await page.goto(onPublicOrigin(baseURL, `/pt?booking_tab=bookSessions&booking_branch_id=${branch.id}`));
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
  const dialog = bookingDialog(page, branch.name);
  await pickDate(dialog, first.today, first.date);
  await slotButton(dialog, slot).click();

  await dialog.getByLabel('Repetir todas as semanas, durante (semanas)').fill('5');
  await dialog.getByRole('button', { name: 'Ver as semanas' }).click();
  const weeks = dialog.getByRole('group', { name: 'Semanas da série' });
  await expect(weeks.getByRole('checkbox')).toHaveCount(4);
  for (const box of await weeks.getByRole('checkbox').all()) await expect(box).toBeChecked();
  await expect(weeks.getByText(/^Semana 3: .+, já reservado$/)).toBeVisible();
  await expect(dialog.getByRole('heading', { name: '4 horários escolhidos' })).toBeVisible();
  await expectNoSeriousViolations(page, 'weekly series in the basket');

  await dialog.getByRole('button', { name: 'Confirmar reserva' }).click();
  const summary = page.getByRole('dialog', { name: 'Resumo da reserva' });
  await expect(summary.getByText('Uma série semanal de 4 semanas, paga de uma vez.')).toBeVisible();
  await expect(
    summary.getByText(/^Cancelamento gratuito até .+, depois 50% até .+, depois sem reembolso\.$/),
  ).toHaveCount(4);
  await summary.getByRole('checkbox').check();
  await summary.getByRole('button', { name: 'Confirmar', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Pagamento' })).toBeVisible();
  await payInLocalCheckout(page, '4242 4242 4242 4242');
  const result = page.getByRole('dialog', { name: 'Pagamento concluído' });
  await expect(result).toBeVisible({ timeout: 15_000 });
  await expect(result.getByRole('listitem')).toHaveCount(4);

  // Four bookings, one series: the weeks 1, 2, 4 and 5 at the same local time.
  const mine = (await (
    await request.get('/api/bookings/my-bookings', { headers: { authorization: `Bearer ${token}` } })
  ).json()) as MyBooking[];
  expect(mine).toHaveLength(4);
  expect(new Set(mine.map((booking) => booking.series_id)).size).toBe(1);
  expect(mine[0]!.series_id).toEqual(expect.any(Number));
  expect(new Set(mine.map((booking) => booking.time_slot_data.start_time.slice(11, 16)))).toEqual(
    new Set([time]),
  );

  await result.getByRole('button', { name: 'Fechar', exact: true }).last().click();
  await page.goto(onPublicOrigin(baseURL, '/pt?account_tab=myBookings'));
  const account = page.getByRole('dialog').filter({ hasText: 'As minhas reservas' }).first();
  for (const week of [1, 2, 3, 4]) await expect(account.getByText(`Semana ${week} de 4`)).toBeVisible();
});
