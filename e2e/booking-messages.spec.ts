import { expect, test, type APIRequestContext } from './support/test.ts';
import {
  apiLogin,
  bookableSlots,
  bookAndPay,
  outbox,
  storeToken,
  verifiedPerson,
  type OutboxMessage,
} from './support/accounts.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import { holdByApi, onPublicOrigin } from './support/booking.ts';
import { open } from './support/fixtures.ts';

// What a member is told about a booking after paying (issue 17, items 8 and 11): the payment result lists what
// was booked and when the door code comes; a cancellation is e-mailed with a calendar event removing the
// confirmation's; a payment that came after its hold ended is called a refund, never a success.

/** The newest e-mail to `to` whose subject starts with `subject`, once the outbox has it. */
async function emailTo(request: APIRequestContext, to: string, subject: string): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await outbox(request, to)).find((message) => message.subject?.startsWith(subject));
        return found !== undefined;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

/** A property of the calendar's first event, unfolded (RFC 5545 lines are folded at 75 octets). */
function icsValue(ics: string, name: string): string | undefined {
  const unfolded = ics.replace(/\r\n[ \t]/g, '');
  return new RegExp(`^${name}(?:;[^:\\r\\n]*)?:(.*)$`, 'm').exec(unfolded)?.[1]?.trim();
}

test.describe('messages after a booking', () => {
  test('the success result lists the booked slots and says how the door code arrives', async ({
    page,
    request,
    baseURL,
  }) => {
    const person = await verifiedPerson(request, 'result');
    const token = await apiLogin(request, person);
    const { branch, date, slots } = await bookableSlots(request, 4);
    const chosen = slots.filter((slot) => /T1[01]:00:00/.test(slot.start_time)).slice(0, 2);
    expect(chosen).toHaveLength(2);
    const sessionId = await bookAndPay(request, token, chosen);
    await storeToken(page, token);
    await page.goto(onPublicOrigin(baseURL, `/en?stripe_session_id=${sessionId}&booking_date=${date}`));

    const result = page.getByRole('dialog', { name: 'Payment successful' });
    await expect(result.getByText('Your payment was successful.')).toBeVisible();
    const booked = result.getByRole('list', { name: 'Booked times' }).getByRole('listitem');
    await expect(booked).toHaveCount(2);
    // In the branch's zone, English's 12-hour clock, with the branch named.
    await expect(booked.nth(0)).toContainText(/\d{4},? (at )?1[01]:00 am - 1[12]:00 (am|pm), /);
    await expect(booked.nth(0)).toContainText(branch.name);
    await expect(
      result.getByText(
        'You will receive the door code by e-mail and SMS 30 minutes before each booking starts. You will also find it in My bookings.',
      ),
    ).toBeVisible();
    await expectNoSeriousViolations(page, 'success result with slots');
  });

  test('cancelling in My bookings e-mails the refund with a calendar event that removes the booking', async ({
    page,
    request,
  }) => {
    const person = await verifiedPerson(request, 'cancelmail', 'en');
    const token = await apiLogin(request, person);
    const { branch, slots } = await bookableSlots(request, 3);
    const slot = slots.find((candidate) => /T1[4-6]:00:00/.test(candidate.start_time))!;
    await bookAndPay(request, token, [slot]);
    const confirmation = await emailTo(request, person.email, 'Booking confirmed');
    await storeToken(page, token);

    await open(page, '/en?account_tab=myBookings');
    const account = page.getByRole('dialog', { name: 'My account' });
    const section = account.getByRole('region', { name: `${branch.name} - ${branch.location}` });
    await section.getByRole('checkbox').first().check();
    await account.getByRole('button', { name: 'Cancel selected bookings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel bookings' });
    await dialog.getByRole('button', { name: 'Cancel booking', exact: true }).click();
    await expect(section.getByText('Canceled bookings (1)')).toBeVisible();

    const mail = await emailTo(request, person.email, 'Booking cancelled');
    expect(mail.subject).toBe(`Booking cancelled: ${branch.name}`);
    expect(mail.text).toContain('You cancelled this booking:');
    expect(mail.text).toMatch(/Total refund: €\d+\.\d{2}, to the Visa card ending in 4242\./);
    const [cancel] = mail.attachments;
    expect(cancel?.content_type).toBe('text/calendar; charset=utf-8; method=CANCEL');
    const created = confirmation.attachments[0]!.content;
    expect(icsValue(cancel!.content, 'METHOD')).toBe('CANCEL');
    expect(icsValue(cancel!.content, 'STATUS')).toBe('CANCELLED');
    expect(icsValue(cancel!.content, 'UID')).toBe(icsValue(created, 'UID'));
    expect(Number(icsValue(cancel!.content, 'SEQUENCE'))).toBeGreaterThan(
      Number(icsValue(created, 'SEQUENCE') ?? 0),
    );
  });

  test('a payment that arrived after its hold ended is shown and e-mailed as refunded, never as successful', async ({
    page,
    request,
    baseURL,
  }) => {
    const person = await verifiedPerson(request, 'latepay');
    const token = await apiLogin(request, person);
    const { date, slots } = await bookableSlots(request, 5);
    const sessionId = (await holdByApi(request, token, [slots[3]!])).split('_secret_')[0]!;
    // The development call: the hold ends, then the payment arrives (Stripe's late bank payment).
    const late = await request.post(`/api/dev/checkout/${sessionId}/pay-late`);
    expect(late.ok()).toBe(true);
    await storeToken(page, token);
    await page.goto(onPublicOrigin(baseURL, `/pt?stripe_session_id=${sessionId}&booking_date=${date}`));

    const result = page.getByRole('dialog', { name: 'Pagamento reembolsado' });
    await expect(
      result.getByText(
        /O pagamento destas horas chegou depois de terminar a reserva temporária, por isso não ficaram reservadas\. Reembolsámos .+ para o cartão usado no pagamento e enviámos-lhe um e-mail\./,
      ),
    ).toBeVisible();
    await expect(result.getByRole('list', { name: 'Horas reembolsadas' }).getByRole('listitem')).toHaveCount(
      1,
    );
    await expect(page.getByText('O seu pagamento foi efetuado com sucesso.')).toHaveCount(0);
    await expectNoSeriousViolations(page, 'late payment result');

    const mail = await emailTo(request, person.email, 'Pagamento reembolsado');
    expect(mail.text).toContain('O seu pagamento chegou depois de terminar a reserva temporária');
    expect(mail.attachments).toEqual([]);
  });

  test('the profile refuses a wrong NIF beside the field, and the receipt in the confirmation names a saved one', async ({
    page,
    request,
  }) => {
    const person = await verifiedPerson(request, 'receipt');
    const token = await apiLogin(request, person);
    await storeToken(page, token);
    await open(page, '/pt?account_tab=profile');
    const account = page.getByRole('dialog', { name: 'A minha conta' });
    const nif = account.getByRole('textbox', { name: 'NIF (opcional, para o recibo)' });
    await nif.fill('123456788');
    await account.getByRole('button', { name: 'Atualizar perfil' }).click();
    await expect(
      account.getByText('O NIF não é válido: tem 9 algarismos e o último é de controlo.'),
    ).toBeVisible();
    await nif.fill('123 456 789');
    await account.getByRole('button', { name: 'Atualizar perfil' }).click();
    await expect(nif).toHaveValue('123456789');

    const { slots } = await bookableSlots(request, 6);
    const sessionId = await bookAndPay(request, token, [slots[2]!]);
    const mail = await emailTo(request, person.email, 'Reserva confirmada');
    expect(mail.text).toContain('Recibo (não é uma fatura)');
    expect(mail.text).toMatch(/Vendedor: Private Gym, .+, NIF \d{9}/);
    expect(mail.text).toContain(`Cliente: ${person.firstName} ${person.lastName}, NIF 123456789`);
    expect(mail.text).toMatch(/IVA 23% incluído: \d+,\d{2}\s€/);
    expect(mail.text).toContain(`Referência do pagamento: ${sessionId}`);
  });
});
