import { expect, test, type APIRequestContext } from './support/test.ts';
import { apiLogin, outbox, storeToken, verifiedPerson } from './support/accounts.ts';
import { firstActiveBranch, holdByApi, onPublicOrigin, slotsOn } from './support/booking.ts';

// MB WAY and Multibanco in the local checkout, offline (issue 29, items 4 and 5).

/** Waits until the outbox holds an e-mail to `to` whose subject matches, and answers it. */
async function mailTo(request: APIRequestContext, to: string, subject: RegExp) {
  let found: Awaited<ReturnType<typeof outbox>>[number] | undefined;
  await expect
    .poll(
      async () => {
        found = (await outbox(request, to)).find((message) => subject.test(message.subject ?? ''));
        return found !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

test.describe('MB WAY and Multibanco', () => {
  test('pays by MB WAY approved on the simulated phone; the invoice PDF reaches the outbox', async ({
    page,
    request,
    baseURL,
  }) => {
    const person = await verifiedPerson(request, 'mbway');
    const token = await apiLogin(request, person);
    await storeToken(page, token);
    const branch = await firstActiveBranch(request);
    const day = await slotsOn(request, branch, 1);
    const sessionId = (await holdByApi(request, token, [day.slots.at(-1)!])).split('_secret_')[0]!;

    await page.goto(onPublicOrigin(baseURL, `/api/checkout/local/${sessionId}`));
    // One day ahead: too soon for a Multibanco voucher.
    await expect(page.getByRole('radio', { name: 'Referência Multibanco' })).toHaveCount(0);
    await page.getByRole('radio', { name: 'MB WAY' }).check();
    await page.getByLabel('Número de telemóvel').fill('912 345 678');
    await page.getByRole('button', { name: 'Enviar pedido MB WAY' }).click();
    await page.getByRole('button', { name: 'Aprovar' }).click();

    const result = page.getByRole('dialog', { name: 'Pagamento concluído' });
    await expect(result).toBeVisible({ timeout: 15_000 });
    const invoice = await mailTo(request, person.email, /^Fatura/);
    expect(invoice.attachments.map((attachment) => attachment.content_type)).toContain('application/pdf');
  });

  test('a Multibanco voucher holds the slot until it is paid, then the booking is confirmed', async ({
    page,
    request,
    baseURL,
  }) => {
    const person = await verifiedPerson(request, 'multibanco');
    const token = await apiLogin(request, person);
    await storeToken(page, token);
    const branch = await firstActiveBranch(request);
    const day = await slotsOn(request, branch, 5);
    const sessionId = (await holdByApi(request, token, [day.slots.at(-1)!])).split('_secret_')[0]!;

    await page.goto(onPublicOrigin(baseURL, `/api/checkout/local/${sessionId}`));
    await page.getByRole('radio', { name: 'Referência Multibanco' }).check();
    await page.getByRole('button', { name: /Gerar referência Multibanco/ }).click();

    const awaiting = page.getByRole('dialog', { name: 'A aguardar pagamento' });
    await expect(awaiting).toBeVisible({ timeout: 15_000 });
    const voucher = awaiting.getByRole('definition');
    await expect(voucher.first()).toHaveText('12345');
    await expect(voucher.nth(1)).toHaveText(/^\d{9}$/);
    const mail = await mailTo(request, person.email, /Multibanco/);
    expect(mail.text).toContain('12345');

    // The slot is held: My bookings says so.
    await page.goto(onPublicOrigin(baseURL, '/pt?account_tab=myBookings'));
    await expect(page.getByText('A aguardar pagamento').first()).toBeVisible();

    const paid = await request.post(`/api/dev/checkout/${sessionId}/pay-voucher`);
    expect(await paid.json()).toMatchObject({ status: 'complete', bookings: [{ status: 'confirmed' }] });
    await page.goto(onPublicOrigin(baseURL, `/pt?stripe_session_id=${sessionId}&booking_date=${day.date}`));
    await expect(page.getByRole('dialog', { name: 'Pagamento concluído' })).toBeVisible({ timeout: 15_000 });
  });
});
