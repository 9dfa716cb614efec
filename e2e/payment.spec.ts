import { expect, test, type APIRequestContext, type Page } from './support/test.ts';
import { apiLogin, DEMO_ACCOUNT, storeToken, verifiedPerson } from './support/accounts.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import {
  bookingDialog,
  dayLabel,
  firstActiveBranch,
  holdByApi,
  logInInModal,
  onPublicOrigin,
  payInLocalCheckout,
  pickDate,
  range,
  slotButton,
  slotsOn,
} from './support/booking.ts';

async function openBooking(page: Page, baseURL: string | undefined, branchId: number) {
  await page.goto(onPublicOrigin(baseURL, `/pt?booking_tab=bookSessions&booking_branch_id=${branchId}`));
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
}

function euros(amount: number): string {
  return new Intl.NumberFormat('pt-PT', {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount);
}

/** Logged in as the demo member, the booking modal open, a slot chosen on each of two days (`days` ahead). */
async function twoSlotsOnTwoDays(
  page: Page,
  request: APIRequestContext,
  baseURL: string | undefined,
  days: [number, number],
  indexes: [number, number],
) {
  const branch = await firstActiveBranch(request);
  await storeToken(page, await apiLogin(request, DEMO_ACCOUNT));
  const first = await slotsOn(request, branch, days[0]);
  const second = await slotsOn(request, branch, days[1]);
  const a = first.slots[indexes[0]]!;
  const b = second.slots[indexes[1]]!;
  await openBooking(page, baseURL, branch.id);
  const dialog = bookingDialog(page, branch.name);
  await pickDate(dialog, first.today, first.date);
  await slotButton(dialog, a).click();
  return { branch, first, second, a, b, dialog };
}

test.describe('booking and paying', () => {
  // Issue 30: the grid shows one day; what is chosen on other days is in the basket, removable there.
  test('shows every chosen slot across dates in the basket, with the count and total, and removes one from it', async ({
    page,
    request,
    baseURL,
  }) => {
    const { first, second, a, b, dialog } = await twoSlotsOnTwoDays(page, request, baseURL, [7, 8], [4, 5]);
    await pickDate(dialog, first.date, second.date);
    await slotButton(dialog, b).click();

    const basket = dialog.getByRole('region', { name: '2 horários escolhidos' });
    await expect(basket.getByRole('listitem')).toHaveCount(2);
    await expect(basket.getByRole('listitem').first()).toContainText(range(a));
    await expect(basket.getByRole('listitem').last()).toContainText(range(b));
    await expect(basket).toContainText(`Total: ${euros(a.basic_price_eur + b.basic_price_eur)}`);
    // The first day's slot is removed from the basket while the second day is in view.
    await basket
      .getByRole('button', { name: /^Remover / })
      .first()
      .click();
    const left = dialog.getByRole('region', { name: '1 horário escolhido' });
    await expect(left.getByRole('listitem')).toHaveCount(1);
    await expect(left).toContainText(range(b));
    await expect(left).toContainText(`Total: ${euros(b.basic_price_eur)}`);
    await pickDate(dialog, second.date, first.date);
    await expect(slotButton(dialog, a)).toHaveAttribute('aria-pressed', 'false');
    await expectNoSeriousViolations(page, 'basket');
  });

  test('books two slots on two dates with WELCOME5, pays with 4242 and sees success', async ({
    page,
    request,
    baseURL,
  }) => {
    const { first, second, a, b, dialog } = await twoSlotsOnTwoDays(page, request, baseURL, [5, 6], [2, 3]);
    await dialog.getByLabel('Código de cupão').fill('WELCOME5');
    await dialog.getByRole('button', { name: 'Aplicar' }).click();
    await expect(dialog.getByText('Cupão WELCOME5 aplicado: 5% de desconto')).toBeVisible();
    const discounted = (slot: typeof a) =>
      Math.floor((Math.round(slot.basic_price_eur * 100) * 9500 + 5000) / 10000) / 100;
    await expect(slotButton(dialog, a)).toContainText(euros(discounted(a)));
    await expect(slotButton(dialog, a).locator('s')).toHaveText(euros(a.basic_price_eur));
    // Read as was and now, not as two prices in a row (issue 30).
    const name = await slotButton(dialog, a).evaluate((button) => button.textContent ?? '');
    expect(name.replace(/\s+/g, ' ')).toContain(
      `Preço antes do desconto: ${euros(a.basic_price_eur)}, com desconto: ${euros(discounted(a))}`.replace(
        /\s+/g,
        ' ',
      ),
    );

    await pickDate(dialog, first.date, second.date);
    await slotButton(dialog, b).click();
    await dialog.getByRole('button', { name: 'Confirmar reserva' }).click();

    const summary = page.getByRole('dialog', { name: 'Resumo da reserva' });
    await expect(summary).toBeVisible();
    await expect(summary.getByRole('region', { name: dayLabel(first.date) })).toContainText(range(a));
    await expect(summary.getByRole('region', { name: dayLabel(second.date) })).toContainText(range(b));
    const total = Math.round((discounted(a) + discounted(b)) * 100) / 100;
    await expect(summary.getByText(euros(total), { exact: true })).toBeVisible();
    // Before paying, each slot says what cancelling it refunds and until when (issue 30).
    await expect(
      summary.getByText(/^Cancelamento gratuito até .+, depois 50% até .+, depois sem reembolso\.$/),
    ).toHaveCount(2);
    await expect(summary.getByRole('link', { name: 'regras, termos e condições' })).toHaveAttribute(
      'href',
      '/pt/rights',
    );
    await expect(summary.getByRole('button', { name: 'Confirmar', exact: true })).toBeDisabled();
    await expectNoSeriousViolations(page, 'summary');
    await summary.getByRole('checkbox').check();
    await summary.getByRole('button', { name: 'Confirmar', exact: true }).click();

    const payment = page.getByRole('dialog', { name: 'Pagamento' });
    await expect(payment).toBeVisible();
    await expect(summary).toHaveCount(0);
    await payInLocalCheckout(page, '4242 4242 4242 4242');

    const result = page.getByRole('dialog', { name: 'Pagamento concluído' });
    await expect(result).toBeVisible({ timeout: 15_000 });
    await expect(result.getByText('O seu pagamento foi efetuado com sucesso.')).toBeVisible();
    await expect(page).toHaveURL(/stripe_session_id=cs_local_/);
    await expect(result.getByRole('button', { name: 'Tentar novamente' })).toHaveCount(0);
    await expectNoSeriousViolations(page, 'success result');
    await result.getByRole('button', { name: 'Fechar', exact: true }).last().click();
    await expect(result).toHaveCount(0);
    await expect(page).not.toHaveURL(/stripe_session_id|booking_date/);
  });

  test('a declined card keeps the checkout open; the pending result offers Try again, which pays', async ({
    page,
    request,
    baseURL,
  }) => {
    const branch = await firstActiveBranch(request);
    await storeToken(page, await apiLogin(request, DEMO_ACCOUNT));
    const day = await slotsOn(request, branch, 7);
    const slot = day.slots[4]!;
    await openBooking(page, baseURL, branch.id);
    const dialog = bookingDialog(page, branch.name);
    await pickDate(dialog, day.today, day.date);
    await slotButton(dialog, slot).click();
    await dialog.getByRole('button', { name: 'Confirmar reserva' }).click();
    const summary = page.getByRole('dialog', { name: 'Resumo da reserva' });
    await summary.getByRole('checkbox').check();
    const created = page.waitForResponse((response) => response.url().endsWith('/api/bookings/'));
    await summary.getByRole('button', { name: 'Confirmar', exact: true }).click();
    const { checkout_session } = (await (await created).json()) as {
      checkout_session: { clientSecret: string };
    };
    const sessionId = checkout_session.clientSecret.split('_secret_')[0]!;

    await payInLocalCheckout(page, '4000 0000 0000 0002');
    const frame = page.frameLocator('iframe[title="Pagamento"]');
    await expect(frame.getByRole('status')).toHaveText(/recusad/i);
    await page.getByRole('dialog', { name: 'Pagamento' }).getByRole('button', { name: 'Fechar' }).click();
    // The held slot is no longer bookable.
    await expect(slotButton(dialog, slot)).toBeDisabled();

    await page.goto(onPublicOrigin(baseURL, `/pt?stripe_session_id=${sessionId}&booking_date=${day.date}`));
    const pending = page.getByRole('dialog', { name: 'Pagamento pendente' });
    await expect(pending).toBeVisible();
    await expect(pending.getByText('O seu pagamento ainda está pendente. Conclua o processo.')).toBeVisible();
    await expectNoSeriousViolations(page, 'pending result');
    await pending.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(page.getByRole('dialog', { name: 'Pagamento' })).toBeVisible();
    await payInLocalCheckout(page, '4242424242424242');
    await expect(page.getByRole('dialog', { name: 'Pagamento concluído' })).toBeVisible({ timeout: 15_000 });
  });

  test('an expired session shows the expired result without Try again, and its slot is free again', async ({
    page,
    request,
    baseURL,
  }) => {
    const branch = await firstActiveBranch(request);
    const token = await apiLogin(request, DEMO_ACCOUNT);
    await storeToken(page, token);
    const day = await slotsOn(request, branch, 9);
    const slot = day.slots[7]!;
    const sessionId = (await holdByApi(request, token, [slot])).split('_secret_')[0]!;
    // The development call ends the session as its 30 minutes running out would (the hold-expiry job's path).
    const expire = await request.post(`/api/dev/checkout/${sessionId}/expire`);
    expect(await expire.json()).toEqual({
      status: 'expired',
      clientSecret: null,
      bookings: [expect.objectContaining({ id: expect.any(Number), status: 'expired', refunded_eur: 0 })],
    });
    await page.goto(onPublicOrigin(baseURL, `/pt?stripe_session_id=${sessionId}&booking_date=${day.date}`));
    const expired = page.getByRole('dialog', { name: 'Sessão de pagamento expirada' });
    await expect(expired).toBeVisible();
    await expect(expired.getByText('A sua sessão de pagamento expirou. Tente novamente.')).toBeVisible();
    await expect(expired.getByRole('button', { name: 'Tentar novamente' })).toHaveCount(0);
    await expectNoSeriousViolations(page, 'expired result');
    await expired.getByRole('button', { name: 'Fechar', exact: true }).last().click();
    await expect(page).not.toHaveURL(/stripe_session_id/);
    const after = (await (await request.get(`/api/bookings/slots/${branch.id}/${day.date}`)).json()) as {
      id: number;
      is_bookeable: boolean;
    }[];
    expect(after.find((candidate) => candidate.id === slot.id)?.is_bookeable).toBe(true);
  });

  test('checking the status logged out opens login, then shows the result', async ({
    page,
    request,
    baseURL,
  }) => {
    const branch = await firstActiveBranch(request);
    const token = await apiLogin(request, DEMO_ACCOUNT);
    const day = await slotsOn(request, branch, 8);
    const secret = await holdByApi(request, token, [day.slots[6]!]);
    const sessionId = secret.split('_secret_')[0]!;
    await page.goto(onPublicOrigin(baseURL, `/pt?stripe_session_id=${sessionId}&booking_date=${day.date}`));
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
    await expect(page).toHaveURL(/auth_tab=login/);
    await logInInModal(page, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    await expect(page.getByRole('dialog', { name: 'Pagamento pendente' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`stripe_session_id=${sessionId}`));
  });

  test('a slot taken by someone else between selection and confirm is refused and dropped', async ({
    page,
    request,
    baseURL,
  }) => {
    const branch = await firstActiveBranch(request);
    await storeToken(page, await apiLogin(request, DEMO_ACCOUNT));
    const day = await slotsOn(request, branch, 9);
    const [mine, contested] = [day.slots[1]!, day.slots[2]!];
    await openBooking(page, baseURL, branch.id);
    const dialog = bookingDialog(page, branch.name);
    await pickDate(dialog, day.today, day.date);
    await slotButton(dialog, mine).click();
    await slotButton(dialog, contested).click();
    await dialog.getByRole('button', { name: 'Confirmar reserva' }).click();
    const summary = page.getByRole('dialog', { name: 'Resumo da reserva' });
    await expect(summary).toBeVisible();

    const other = await verifiedPerson(request, 'rival');
    await holdByApi(request, await apiLogin(request, other), [contested]);

    await summary.getByRole('checkbox').check();
    await summary.getByRole('button', { name: 'Confirmar', exact: true }).click();
    await expect(summary.getByRole('alert')).toHaveText(/.+/);
    await expect(summary.getByRole('alert')).not.toHaveText(
      'Não foi possível confirmar a reserva. Tente novamente mais tarde.',
    );
    await summary.getByRole('button', { name: 'Cancelar' }).click();
    await expect(summary).toHaveCount(0);
    await expect(slotButton(dialog, contested)).toBeDisabled();
    await expect(slotButton(dialog, contested)).toHaveAttribute('aria-pressed', 'false');
    await expect(slotButton(dialog, mine)).toHaveAttribute('aria-pressed', 'true');
    await dialog.getByRole('button', { name: 'Confirmar reserva' }).click();
    await expect(summary.getByRole('checkbox')).not.toBeChecked();
    await expect(summary).not.toContainText(range(contested));
  });
  test('the early-bird coupon on 4 slots discounts the first 3, as the server does, and goes to payment', async ({
    page,
    request,
    baseURL,
  }) => {
    const branch = await firstActiveBranch(request);
    const person = await verifiedPerson(request, 'madrugador');
    await storeToken(page, await apiLogin(request, person));
    const day = await slotsOn(request, branch, 10);
    const chosen = day.slots.slice(8, 12);
    await openBooking(page, baseURL, branch.id);
    const dialog = bookingDialog(page, branch.name);
    await pickDate(dialog, day.today, day.date);
    for (const slot of chosen) await slotButton(dialog, slot).click();
    await dialog.getByLabel('Código de cupão').fill('EARLYBIRD');
    await dialog.getByRole('button', { name: 'Aplicar' }).click();
    // Two sentences, each with its full stop (issue 17: they ran together).
    await expect(
      dialog.getByText(
        'Cupão EARLYBIRD aplicado: 10% de desconto. Vale para os próximos 3 horários que reservar.',
      ),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Confirmar reserva' }).click();
    const summary = page.getByRole('dialog', { name: 'Resumo da reserva' });
    // 10% off the three earliest slots, rounded half up per slot; the last one at its basic price.
    const cents = chosen.map((slot, index) =>
      index < 3
        ? Math.floor((Math.round(slot.basic_price_eur * 100) * 9000 + 5000) / 10_000)
        : Math.round(slot.basic_price_eur * 100),
    );
    const total = cents.reduce((sum, value) => sum + value, 0) / 100;
    await expect(summary.getByText(euros(total), { exact: true })).toBeVisible();
    await summary.getByRole('checkbox').check();
    await summary.getByRole('button', { name: 'Confirmar', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Pagamento' })).toBeVisible();
    const after = (await (await request.get(`/api/bookings/slots/${branch.id}/${day.date}`)).json()) as {
      id: number;
      is_bookeable: boolean;
    }[];
    const chosenIds = new Set(chosen.map((slot) => slot.id));
    expect(after.filter((slot) => chosenIds.has(slot.id)).every((slot) => !slot.is_bookeable)).toBe(true);
  });
  test('a payment provider that cannot start is reported in the summary', async ({
    page,
    request,
    baseURL,
  }) => {
    const branch = await firstActiveBranch(request);
    await storeToken(page, await apiLogin(request, DEMO_ACCOUNT));
    // The local provider never fails, so its 503 is staged at the network boundary.
    await page.route('**/api/bookings/', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ detail: 'unavailable', code: 'payment_provider_unavailable' }),
          })
        : route.fallback(),
    );
    const day = await slotsOn(request, branch, 11);
    await openBooking(page, baseURL, branch.id);
    const dialog = bookingDialog(page, branch.name);
    await pickDate(dialog, day.today, day.date);
    await slotButton(dialog, day.slots[3]!).click();
    await dialog.getByRole('button', { name: 'Confirmar reserva' }).click();
    const summary = page.getByRole('dialog', { name: 'Resumo da reserva' });
    await summary.getByRole('checkbox').check();
    await summary.getByRole('button', { name: 'Confirmar', exact: true }).click();
    await expect(summary.getByRole('alert')).toHaveText('O fornecedor de pagamentos não conseguiu iniciar.');
    await expect(page.getByRole('dialog', { name: 'Pagamento' })).toHaveCount(0);
  });
});
