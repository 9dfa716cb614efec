import { expect, test } from './support/test.ts';
import { apiLogin, bookableSlots, bookAndPay, storeToken, verifiedPerson } from './support/accounts.ts';
import { bookingDialog, slotButton } from './support/booking.ts';

// "Book again" (issue 30, item 4): a cancelled booking offers the same branch and time on the next free week,
// into the normal booking flow: the booking modal opens on that day with the slot chosen, ready to pay.

test('a cancelled booking is booked again on the next week, its slot chosen in the booking modal', async ({
  page,
  request,
}) => {
  const person = await verifiedPerson(request, 'book-again', 'pt');
  const token = await apiLogin(request, person);
  const { branch, slots } = await bookableSlots(request, 41);
  const booked = slots[14]!;
  await bookAndPay(request, token, [booked]);
  const headers = { Authorization: `Bearer ${token}` };
  const [mine] = (await (await request.get('/api/bookings/my-bookings', { headers })).json()) as {
    id: number;
    refundable_eur: number;
  }[];
  const cancelled = await request.post('/api/bookings/cancel-bookings', {
    headers,
    data: { booking: [{ booking_id: mine!.id, expected_refund_eur: mine!.refundable_eur }] },
  });
  expect(cancelled.ok(), await cancelled.text()).toBe(true);

  await storeToken(page, token);
  await page.goto('/pt?account_tab=myBookings');
  const account = page.getByRole('dialog', { name: 'A minha conta' });
  await account.locator('summary').filter({ hasText: 'Reservas canceladas' }).click();
  await account.getByRole('button', { name: /^Reservar de novo/ }).click();

  // The booking modal, on the next week's day, with the same time chosen in the basket.
  const nextWeek = new Date(Date.parse(booked.start_time) + 7 * 24 * 3_600_000).toISOString().slice(0, 10);
  await expect(page).toHaveURL(new RegExp(`booking_date=${nextWeek}`));
  const modal = bookingDialog(page, branch.name);
  await expect(modal).toBeVisible();
  await expect(account).toHaveCount(0);
  await expect(slotButton(modal, booked)).toHaveAttribute('aria-pressed', 'true');
  await expect(modal.getByText('1 horário escolhido').first()).toBeVisible();
});
