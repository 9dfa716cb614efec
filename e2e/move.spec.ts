import { expect, test, type APIRequestContext, type Page } from './support/test.ts';
import { apiLogin, bookAndPay, outbox, storeToken, verifiedPerson, type Person } from './support/accounts.ts';
import {
  firstActiveBranch,
  onPublicOrigin,
  payInLocalCheckout,
  dayLabel,
  slotButton,
  slotsOn,
  type ApiBranch,
  type ApiSlot,
} from './support/booking.ts';

// Moving a booking from My bookings (issue 17, item 10): to a dearer slot (the difference is paid with the
// local checkout's test card), a cheaper one (the difference is refunded) and one of the same price. The door
// code follows the booking to its new window, and the member gets the moved calendar event by e-mail.

type MyBooking = {
  id: number;
  time_slot_data: { start_time: string };
  final_price_eur: number;
  refunded_eur: number | null;
};

/** A euro amount as the Portuguese interface writes it (whole euros without decimals). */
function euros(amount: number): string {
  return new Intl.NumberFormat('pt-PT', {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount);
}

async function myBookings(request: APIRequestContext, token: string): Promise<MyBooking[]> {
  const response = await request.get('/api/bookings/my-bookings', {
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await response.json()) as MyBooking[];
}

/** A slot of the day at another price than `than` (dearer or cheaper), or at the same price, not `than` itself. */
function pick(slots: ApiSlot[], than: ApiSlot, relation: 'dearer' | 'cheaper' | 'same'): ApiSlot | undefined {
  return slots.find(
    (slot) =>
      slot.id !== than.id &&
      (relation === 'dearer'
        ? slot.basic_price_eur > than.basic_price_eur
        : relation === 'cheaper'
          ? slot.basic_price_eur < than.basic_price_eur
          : slot.basic_price_eur === than.basic_price_eur),
  );
}

async function openMove(
  page: Page,
  baseURL: string | undefined,
  token: string,
  from: ApiSlot,
  branch: ApiBranch,
) {
  await storeToken(page, token);
  await page.goto(onPublicOrigin(baseURL, '/pt?account_tab=myBookings'));
  const account = page.getByRole('dialog', { name: 'A minha conta' });
  const start = new Date(from.start_time);
  const hour = from.start_time.slice(11, 16);
  const move = account.getByRole('button', { name: new RegExp(`^Mudar a reserva de .*${hour}`) });
  await expect(move).toHaveCount(1);
  await move.click();
  const dialog = page.getByRole('dialog', { name: `Mudar reserva em ${branch.name}` });
  await expect(dialog).toBeVisible();
  expect(start.getTime()).toBeGreaterThan(Date.now());
  return dialog;
}

async function chooseAndReview(page: Page, dialog: ReturnType<Page['getByRole']>, date: string, to: ApiSlot) {
  // The calendar opens on the booking's own day (issue 30: it opened on today), where the new slot is.
  await expect(dialog.getByRole('heading', { name: dayLabel(date) })).toBeVisible();
  await expect(dialog.getByRole('button', { name: dayLabel(date), exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await slotButton(dialog, to).click();
  await dialog.getByRole('button', { name: 'Mudar para este horário' }).click();
  const review = page.getByRole('dialog', { name: 'Confirmar a mudança' });
  await expect(review).toBeVisible();
  return review;
}

async function codeOnDoor(page: Page, baseURL: string | undefined, branch: ApiBranch, slot: ApiSlot) {
  const windowStart = new Date(new Date(slot.start_time).getTime() - 15 * 60_000).toISOString();
  const row = page.getByRole('row').filter({ hasText: windowStart });
  await expect(async () => {
    await page.goto(onPublicOrigin(baseURL, `/api/dev/doors/${branch.id}`));
    await expect(row).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  return (await row.getByRole('cell').first().textContent())!.trim();
}

async function movedMail(request: APIRequestContext, person: Person) {
  await expect
    .poll(
      async () =>
        (await outbox(request, person.email)).some((message) =>
          message.subject?.startsWith('Reserva mudada'),
        ),
      {
        timeout: 10_000,
      },
    )
    .toBe(true);
  return (await outbox(request, person.email)).find((message) =>
    message.subject?.startsWith('Reserva mudada'),
  )!;
}

test.describe('moving a booking', () => {
  test('to a dearer slot: the difference is paid with the test card, the booking, its door code and its calendar event move', async ({
    page,
    request,
    baseURL,
  }) => {
    const branch = await firstActiveBranch(request);
    const person = await verifiedPerson(request, 'move-up');
    const token = await apiLogin(request, person);
    const day = await slotsOn(request, branch, 5);
    const cheapest = [...day.slots].sort((a, b) => a.basic_price_eur - b.basic_price_eur)[0]!;
    const to = pick(day.slots, cheapest, 'dearer');
    expect(to, 'the demo data prices slots by time of day: a slot of another price exists').toBeDefined();
    await bookAndPay(request, token, [cheapest]);
    const oldCode = await codeOnDoor(page, baseURL, branch, cheapest);

    const dialog = await openMove(page, baseURL, token, cheapest, branch);
    const review = await chooseAndReview(page, dialog, day.date, to!);
    const difference = to!.basic_price_eur - cheapest.basic_price_eur;
    await expect(review).toContainText('Diferença a pagar');
    await page.screenshot({ path: 'test-results/move-review-dearer.png' });
    await review.getByRole('button', { name: 'Pagar a diferença' }).click();
    await expect(page.getByRole('dialog', { name: 'Pagamento' })).toBeVisible();
    await page.screenshot({ path: 'test-results/move-checkout.png' });
    await payInLocalCheckout(page, '4242 4242 4242 4242');
    // The result says what happened: moved, to when and where, and the difference paid.
    const result = page.getByRole('dialog', { name: 'Reserva mudada' });
    await expect(result).toBeVisible({ timeout: 15_000 });
    await expect(result).toContainText('A sua reserva foi mudada para:');
    await expect(result.getByRole('list', { name: 'Nova hora da reserva' })).toContainText(
      `${to!.start_time.slice(11, 16)} - ${to!.end_time.slice(11, 16)}, ${branch.name}`,
    );
    await expect(result).toContainText(`Pagou a diferença de ${euros(difference)}.`);

    const [moved] = await myBookings(request, token);
    expect(moved!.time_slot_data.start_time).toBe(to!.start_time);
    expect(moved!.final_price_eur).toBeCloseTo(cheapest.basic_price_eur + difference, 2);
    // The new window's code is on the door; the old one is gone from it.
    const newCode = await codeOnDoor(page, baseURL, branch, to!);
    expect(newCode).toMatch(/^\d{6}$/);
    await expect(async () => {
      await page.goto(onPublicOrigin(baseURL, `/api/dev/doors/${branch.id}`));
      const windowStart = new Date(new Date(cheapest.start_time).getTime() - 15 * 60_000).toISOString();
      await expect(
        page.getByRole('row').filter({ hasText: windowStart }).filter({ hasText: oldCode }),
      ).toHaveCount(0, {
        timeout: 1000,
      });
    }).toPass({ timeout: 30_000 });
    const mail = await movedMail(request, person);
    expect(mail.text).toContain('Pagou a diferença');
    // The confirmation's calendar event, updated: the same UID at a higher SEQUENCE.
    const [event] = mail.attachments;
    expect(event!.content_type).toContain('method=REQUEST');
    expect(event!.content).toContain(`UID:booking-${moved!.id}@`);
    expect(event!.content).toContain('SEQUENCE:1');
  });

  test('to a cheaper slot: the booking moves at once and the refund is shown', async ({
    page,
    request,
    baseURL,
  }) => {
    const branch = await firstActiveBranch(request);
    const person = await verifiedPerson(request, 'move-down');
    const token = await apiLogin(request, person);
    const day = await slotsOn(request, branch, 6);
    const dearest = [...day.slots].sort((a, b) => b.basic_price_eur - a.basic_price_eur)[0]!;
    const to = pick(day.slots, dearest, 'cheaper');
    expect(to, 'the demo data prices slots by time of day: a slot of another price exists').toBeDefined();
    await bookAndPay(request, token, [dearest]);

    const dialog = await openMove(page, baseURL, token, dearest, branch);
    const review = await chooseAndReview(page, dialog, day.date, to!);
    await expect(review).toContainText('Diferença a reembolsar');
    await review.getByRole('button', { name: 'Confirmar a mudança' }).click();
    const movedNote = dialog.getByRole('status');
    await expect(movedNote).toContainText('A sua reserva foi mudada para ');
    await expect(movedNote).toContainText(
      `${to!.start_time.slice(11, 16)} - ${to!.end_time.slice(11, 16)}, ${branch.name}.`,
    );
    await expect(movedNote).toContainText(
      `Reembolsámos a diferença de ${euros(dearest.basic_price_eur - to!.basic_price_eur)} para o cartão usado no pagamento.`,
    );
    await page.screenshot({ path: 'test-results/move-refunded.png' });

    const [moved] = await myBookings(request, token);
    expect(moved!.time_slot_data.start_time).toBe(to!.start_time);
    // The refunded difference is part of the move: the booking now costs the cheaper slot's price, and nothing
    // was refunded for ending it (refunded_eur, from the money ledger, counts only that).
    expect(moved!.final_price_eur).toBeCloseTo(to!.basic_price_eur, 2);
    expect(moved!.refunded_eur).toBeNull();
    await codeOnDoor(page, baseURL, branch, to!);
    expect((await movedMail(request, person)).text).toContain('foi reembolsada');
  });

  test('to a slot of the same price: the booking moves at once', async ({ page, request, baseURL }) => {
    const branch = await firstActiveBranch(request);
    const person = await verifiedPerson(request, 'move-same');
    const token = await apiLogin(request, person);
    const day = await slotsOn(request, branch, 7);
    const from = day.slots[0]!;
    const to = pick(day.slots, from, 'same')!;
    await bookAndPay(request, token, [from]);

    const dialog = await openMove(page, baseURL, token, from, branch);
    const review = await chooseAndReview(page, dialog, day.date, to);
    await expect(review).toContainText('O preço é o mesmo.');
    await review.getByRole('button', { name: 'Confirmar a mudança' }).click();
    const movedNote = dialog.getByRole('status');
    await expect(movedNote).toContainText(
      `${to.start_time.slice(11, 16)} - ${to.end_time.slice(11, 16)}, ${branch.name}.`,
    );
    await expect(movedNote).toContainText('O preço é o mesmo: não há nada a pagar nem a reembolsar.');
    await dialog.getByRole('button', { name: 'Fechar' }).first().click();
    // Back in My bookings, the booking shows its new time.
    const account = page.getByRole('dialog', { name: 'A minha conta' });
    await expect(
      account.getByRole('button', {
        name: new RegExp(`^Mudar a reserva de .*${to.start_time.slice(11, 16)}`),
      }),
    ).toBeVisible();

    const [moved] = await myBookings(request, token);
    expect(moved!.time_slot_data.start_time).toBe(to.start_time);
    await codeOnDoor(page, baseURL, branch, to);
    expect((await movedMail(request, person)).text).toContain('O preço é o mesmo.');
  });
});
