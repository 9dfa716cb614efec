import { beforeEach, describe, expect, it } from 'vitest';
import { isValidPortugueseTaxId } from '../../openapi/tax-id.ts';
import { createCheckoutService } from '../../server/booking/checkout/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { includedVatCents } from '../../server/booking/receipt.ts';
import {
  bookingDependencies,
  bookingService,
  createCoupon,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

// Issue 17 item 9: the confirmation e-mail carries a receipt with the seller, the buyer, each slot's price, the
// coupon, the VAT the prices include and the payment's reference.

describe('the VAT a price includes', () => {
  it('is the price less its net, the net rounded half up to the cent', () => {
    // 15.00 / 1.23 = 12.195... -> 12.20 net, 2.80 VAT.
    expect(includedVatCents(1500, 0.23)).toBe(280);
    // 1.23 / 1.23 = 1.00 exactly.
    expect(includedVatCents(123, 0.23)).toBe(23);
    // 0.05 / 1.23 = 0.0406... -> 0.04 net, 0.01 VAT; 0.06 / 1.23 = 0.04878 -> 0.05 net.
    expect(includedVatCents(5, 0.23)).toBe(1);
    expect(includedVatCents(6, 0.23)).toBe(1);
    // 10.60 / 1.06 = 10.00 exactly; a rate of 0 contains no VAT.
    expect(includedVatCents(0, 0.23)).toBe(0);
    expect(includedVatCents(2700, 0)).toBe(0);
    expect(includedVatCents(1060, 0.06)).toBe(60);
  });
});

describe('the Portuguese tax number (NIF)', () => {
  it('accepts nine digits with the right check digit, spaces and a PT prefix, and nothing else', () => {
    for (const valid of ['123456789', '512345678', '509 999 999', 'PT123456789', 'pt 123 456 789']) {
      expect(isValidPortugueseTaxId(valid), valid).toBe(true);
    }
    for (const invalid of ['123456788', '12345678', '1234567890', '023456789', 'abcdefghi', '']) {
      expect(isValidPortugueseTaxId(invalid), invalid).toBe(false);
    }
  });
});

const clock = fixedClock('2026-03-20T10:00:00Z');

describeOnPglite('the receipt in the confirmation e-mail', (getDb) => {
  let branchId: number;

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb(), { name: 'Lisboa – Avenidas Novas' });
  });

  it('names seller and buyer with their tax numbers, each slot, the coupon, the VAT and the payment', async () => {
    const user = await verifiedUser(getDb(), { email: 'ana@example.com', locale: 'en' });
    await getDb()
      .updateTable('users')
      .set({ first_name: 'Ana', last_name: 'Lopes', tax_id: '123456789' })
      .where('id', '=', user)
      .execute();
    const couponId = await createCoupon(getDb(), { code: 'SPRING10', discount: 0.1 });
    const slots = [
      await lisbonSlot(getDb(), branchId, '2026-03-25T10:00', { priceCents: 1500 }),
      await lisbonSlot(getDb(), branchId, '2026-03-25T11:00', { priceCents: 1255 }),
    ];
    const deps = bookingDependencies(getDb(), clock);
    // 15.00 -> 13.50 and 12.55 -> 11.30 (11.295 rounded half up): 24.80 in all.
    const created = await bookingService(getDb(), clock).createBooking({
      userId: user,
      slotIds: slots,
      couponId,
      expectedTotalEur: 24.8,
      locale: 'en',
    });
    const sessionId = created.checkout_session.clientSecret!.split('_secret_')[0]!;
    await createCheckoutService(deps).completeLocalCheckout({ sessionId, cardNumber: '4242424242424242' });

    const mail = await getDb()
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'booking_confirmed')
      .executeTakeFirstOrThrow();
    const receipt = mail.text_body.slice(mail.text_body.indexOf('Receipt'));
    expect(receipt.split('\n')).toEqual([
      'Receipt (not an invoice)',
      'Seller: Private Gym, Avenida da Liberdade 1, 1250-096 Lisboa, Portugal, tax number 512345678',
      'Customer: Ana Lopes, tax number 123456789',
      '- Wednesday, 25 March 2026, 10:00 am–11:00 am (Europe/Lisbon): €15.00 -> €13.50',
      '- Wednesday, 25 March 2026, 11:00 am–12:00 pm (Europe/Lisbon): €12.55 -> €11.30',
      'Coupon SPRING10: -10% on each time it covers',
      'Total (VAT included): €24.80',
      // 24.80 / 1.23 = 20.1626... -> 20.16 net, 4.64 VAT.
      'VAT 23% included: €4.64',
      `Payment reference: ${sessionId}`,
      '',
    ]);
    expect(mail.html_body).toContain('<h2 style="font-size:1.1em">Receipt (not an invoice)</h2>');
    expect(mail.html_body).toContain('VAT 23% included: €4.64');
  });

  it('leaves the buyer’s tax number out when none was given, and says when nothing was paid', async () => {
    const user = await verifiedUser(getDb(), { email: 'rui@example.com', locale: 'pt' });
    await getDb()
      .updateTable('users')
      .set({ first_name: 'Rui', last_name: 'Costa' })
      .where('id', '=', user)
      .execute();
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00', { priceCents: 0 });
    await bookingService(getDb(), clock).createBooking({
      userId: user,
      slotIds: [slot],
      couponId: null,
      expectedTotalEur: 0,
      locale: 'pt',
    });
    const mail = await getDb()
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'booking_confirmed')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain('Cliente: Rui Costa\n');
    expect(mail.text_body).toMatch(/IVA 23% incluído: 0,00\s€/);
    expect(mail.text_body).toContain('Sem pagamento (total 0).');
  });
});
