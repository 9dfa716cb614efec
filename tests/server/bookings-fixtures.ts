import { Temporal } from 'temporal-polyfill';
import { createLocalLockProvider } from '../../server/adapters/locks/local.ts';
import type { LockSyncScheduler } from '../../server/doors/doors.ts';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local.ts';
import type { PaymentProvider } from '../../server/adapters/payments/provider.ts';
import { createBookingService, type BookingServiceDependencies } from '../../server/booking/service.ts';
import { createCheckoutService } from '../../server/booking/checkout/service.ts';
import type { TestClock } from '../../server/kernel/clock.ts';
import type { Db } from '../../server/db/database.ts';
import { createUser, insertSlot } from './support/fixtures.ts';

// Builders shared by the bookings, checkout, locks and cancellation suites.

export const TEST_PUBLIC_URL = 'https://gym.example';
export const TEST_COMPANY = {
  name: 'Private Gym',
  address: 'Avenida da Liberdade 1, 1250-096 Lisboa, Portugal',
  taxId: '512345678',
  vatRate: 0.23,
  email: 'info@gym.example',
  socialUrl: 'https://social.example/gym',
};

export function bookingDependencies(
  db: Db,
  clock: TestClock,
  overrides: Partial<BookingServiceDependencies> = {},
): BookingServiceDependencies {
  return {
    db,
    clock,
    payments: createLocalPaymentProvider({ db, clock }),
    lockProvider: createLocalLockProvider(db),
    publicUrl: TEST_PUBLIC_URL,
    companyName: TEST_COMPANY.name,
    company: TEST_COMPANY,
    organizer: { name: TEST_COMPANY.name, email: 'no-reply@gym.example' },
    contact: { email: TEST_COMPANY.email, phone: null },
    checkoutExpiryMinutes: 30,
    // These suites are about bookings, not the door-code queue (tests/server/access-codes.test.ts).
    accessCodes: null,
    // Nor about tax documents (tests/server/invoicing*.test.ts).
    documents: null,
    ...overrides,
  };
}

export function bookingService(
  db: Db,
  clock: TestClock,
  overrides: Partial<BookingServiceDependencies> = {},
) {
  return createBookingService(bookingDependencies(db, clock, overrides));
}

/** A user who may book: e-mail and phone verified. */
export async function verifiedUser(
  db: Db,
  overrides: { email?: string; createdAt?: Date; locale?: 'pt' | 'en' | 'fr' | 'de' | 'sk' } = {},
): Promise<string> {
  const id = await createUser(db, overrides);
  await db
    .updateTable('users')
    .set({
      email_verified_at: new Date('2026-01-01T00:00:00Z'),
      phone_verified_at: new Date('2026-01-01T00:00:00Z'),
      ...(overrides.locale ? { locale: overrides.locale } : {}),
    })
    .where('id', '=', id)
    .execute();
  return id;
}

/** A slot of the branch starting at a local wall-clock time in Lisbon, `minutes` long. */
export async function lisbonSlot(
  db: Db,
  branchId: number,
  localStart: string,
  options: { priceCents?: number; minutes?: number } = {},
): Promise<number> {
  const start = Temporal.PlainDateTime.from(localStart).toZonedDateTime('Europe/Lisbon');
  const end = start.add({ minutes: options.minutes ?? 60 });
  return insertSlot(db, {
    branchId,
    start: start.toInstant().toString(),
    end: end.toInstant().toString(),
    localDate: start.toPlainDate().toString(),
    priceCents: options.priceCents ?? 1500,
  });
}

export async function createCoupon(
  db: Db,
  values: { code: string; discount: number; maxPerUser?: number; registeredBefore?: string },
): Promise<number> {
  const { id } = await db
    .insertInto('coupons')
    .values({
      code: values.code,
      discount: values.discount,
      valid_from: '2026-01-01T00:00:00Z',
      max_redemptions_per_user: values.maxPerUser ?? null,
      registered_before: values.registeredBefore ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A payment provider whose calls fail, as an unreachable Stripe would. */
export function failingProvider(base: PaymentProvider, failing: 'create' | 'refund'): PaymentProvider {
  return {
    ...base,
    createCheckoutSession:
      failing === 'create'
        ? async () => Promise.reject(new Error('provider down'))
        : base.createCheckoutSession,
    refund: failing === 'refund' ? async () => Promise.reject(new Error('provider down')) : base.refund,
  };
}

/** A lock provider that remembers what it was asked to do (the code is kept only in memory). */
/** A sync scheduler that only records which codes were queued, in order. */
export function recordingLockSync(): LockSyncScheduler & { queued: number[] } {
  const queued: number[] = [];
  return {
    queued,
    async schedule(_trx, lockCodeIds) {
      queued.push(...lockCodeIds);
    },
  };
}

export async function bookingsOf(db: Db, userId?: string) {
  let query = db.selectFrom('bookings').selectAll().orderBy('start_time').orderBy('id');
  if (userId) query = query.where('user_id', '=', userId);
  return query.execute();
}

export async function errorCode(promise: Promise<unknown>): Promise<string | null> {
  return promise.then(
    () => null,
    (error: unknown) => (error as { code?: string }).code ?? String(error),
  );
}

/** Books the slots and pays on the local checkout page: confirmed bookings, as a real client gets them. */
export async function bookAndPay(
  db: Db,
  clock: TestClock,
  userId: string,
  slotIds: number[],
  totalEur: number,
  overrides: Partial<BookingServiceDependencies> = {},
): Promise<string> {
  const deps = bookingDependencies(db, clock, overrides);
  const { checkout_session } = await createBookingService(deps).createBooking({
    userId,
    slotIds,
    couponId: null,
    expectedTotalEur: totalEur,
    locale: 'pt',
  });
  const sessionId = checkout_session.clientSecret!.split('_secret_')[0]!;
  await createCheckoutService(deps).completeLocalCheckout({ sessionId, cardNumber: '4242 4242 4242 4242' });
  return sessionId;
}

/** A paid booking of one 15 EUR slot at the Lisbon wall-clock time, paid with the local test card: its id. */
export async function paidBookingAt(
  db: Db,
  clock: TestClock,
  userId: string,
  branchId: number,
  localStart: string,
): Promise<number> {
  const slot = await lisbonSlot(db, branchId, localStart);
  await bookAndPay(db, clock, userId, [slot], 15);
  const booking = await db
    .selectFrom('bookings')
    .select('id')
    .where('slot_id', '=', slot)
    .where('status', '=', 'confirmed')
    .executeTakeFirstOrThrow();
  return booking.id;
}
