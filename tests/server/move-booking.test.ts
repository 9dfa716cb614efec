import { beforeEach, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import type { PaymentEvent, PaymentProvider } from '../../server/adapters/payments/provider.ts';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local.ts';
import { createCheckoutService } from '../../server/booking/checkout/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { listBookingRecords } from '../../server/booking/index.ts';
import { AppError } from '../../server/kernel/errors.ts';
import {
  bookAndPay,
  bookingDependencies,
  bookingService,
  createCoupon,
  errorCode,
  failingProvider,
  lisbonSlot,
  verifiedUser,
} from './bookings-fixtures.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { anyOf } from './support/matchers.ts';

const clock = fixedClock('2026-03-20T10:00:00Z');
const CARD = '4242 4242 4242 4242';

describeOnPglite('moving a booking', (getDb) => {
  let branchId: number;
  let user: string;
  const deps = (overrides: { payments?: PaymentProvider } = {}) =>
    bookingDependencies(getDb(), clock, overrides);
  const service = (overrides: { payments?: PaymentProvider } = {}) =>
    bookingService(getDb(), clock, overrides);
  const checkout = () => createCheckoutService(deps());
  /** The local provider, whose checkout opening waits (`reached` once called) until `wake()`. */
  function stalledProvider() {
    const local = createLocalPaymentProvider({ db: getDb(), clock });
    let wakeUp = () => {};
    let called = () => {};
    const reached = new Promise<void>((resolve) => (called = resolve));
    const stalled: PaymentProvider = {
      ...local,
      createCheckoutSession: async (request) => {
        called();
        await new Promise<void>((resolve) => (wakeUp = resolve));
        return local.createCheckoutSession(request);
      },
    };
    return { stalled, reached, wake: () => wakeUp() };
  }
  const move = (
    bookingId: number,
    slotId: number,
    expectedDifferenceEur: number,
    options: { userId?: string; payments?: PaymentProvider } = {},
  ) =>
    service(options).moveBooking({
      userId: options.userId ?? user,
      bookingId,
      slotId,
      expectedDifferenceEur,
      locale: 'en',
    });
  const booking = (id: number) =>
    getDb().selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const refunds = () =>
    getDb()
      .selectFrom('refunds')
      .select(['booking_id', 'amount_cents', 'idempotency_key', 'checkout_session_id'])
      .orderBy('id')
      .execute();
  const codes = () => getDb().selectFrom('lock_codes').selectAll().orderBy('id').execute();
  const movedMails = () =>
    getDb().selectFrom('outbox').selectAll().where('kind', 'like', 'booking_move%').orderBy('id').execute();

  /** A paid booking of one slot (15 EUR unless said) starting at the Lisbon wall-clock time. */
  async function paidBooking(localStart: string, options: { userId?: string; priceCents?: number } = {}) {
    const slot = await lisbonSlot(getDb(), branchId, localStart, { priceCents: options.priceCents });
    await bookAndPay(getDb(), clock, options.userId ?? user, [slot], (options.priceCents ?? 1500) / 100);
    const row = await getDb()
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', slot)
      .where('status', '=', 'confirmed')
      .executeTakeFirstOrThrow();
    return { id: row.id, slot };
  }

  /** Another member books the slot (and holds it): it must be free. */
  async function someoneElseBooks(slotId: number, totalEur: number) {
    const other = await verifiedUser(getDb());
    return service().createBooking({
      userId: other,
      slotIds: [slotId],
      couponId: null,
      expectedTotalEur: totalEur,
      locale: 'pt',
    });
  }

  async function pay(clientSecret: string) {
    const sessionId = clientSecret.split('_secret_')[0]!;
    return checkout().completeLocalCheckout({ sessionId, cardNumber: CARD });
  }

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb());
    user = await verifiedUser(getDb(), { locale: 'en' });
  });

  it('moves a booking to a slot of the same price at once: same booking, new time, old slot free, the door code follows', async () => {
    const { id, slot: oldSlot } = await paidBooking('2026-03-25T10:00');
    const [oldCode] = await codes();
    const target = await lisbonSlot(getDb(), branchId, '2026-03-26T18:00');

    expect(await move(id, target, 0)).toEqual({
      status: 'moved',
      price_difference_eur: 0,
      refunded_eur: null,
      checkout_session: null,
    });

    const moved = await booking(id);
    expect(moved).toMatchObject({ slot_id: target, status: 'confirmed', final_price_cents: 1500 });
    expect(moved.start_time.toISOString()).toBe('2026-03-26T18:00:00.000Z');
    // The old code no longer opens the door; the booking has a code for its new window.
    const all = await codes();
    expect(all.find((code) => code.id === oldCode!.id)!.revoked_at).not.toBeNull();
    const fresh = all.find((code) => code.id === moved.lock_code_id)!;
    expect(fresh.revoked_at).toBeNull();
    expect(fresh.valid_from.toISOString()).toBe('2026-03-26T17:45:00.000Z');
    expect(fresh.valid_until.toISOString()).toBe('2026-03-26T19:15:00.000Z');
    // The old slot can be booked by someone else.
    await expect(someoneElseBooks(oldSlot, 15)).resolves.toBeTruthy();
    // The member is told, with the same calendar event (same UID) at a higher SEQUENCE.
    const [mail] = await movedMails();
    expect(mail!.subject).toMatch(/^Booking moved: /);
    expect(mail!.text_body).toContain('The price is the same.');
    const [calendar] = mail!.attachments as { content: string }[];
    expect(calendar!.content).toContain(`UID:booking-${id}@gym.example`);
    expect(calendar!.content).toContain('SEQUENCE:1');
    expect(calendar!.content).toContain('METHOD:REQUEST');
    expect(calendar!.content).toContain('DTSTART:20260326T180000Z');
    // A second move out-ranks the first.
    const again = await lisbonSlot(getDb(), branchId, '2026-03-27T18:00');
    await move(id, again, 0);
    const [, second] = await movedMails();
    const [event] = second!.attachments as { content: string }[];
    expect(event!.content).toContain(`UID:booking-${id}@gym.example`);
    expect(event!.content).toContain('SEQUENCE:2');
  });

  it('moves to a cheaper slot at once and refunds the difference through the provider, once', async () => {
    const { id } = await paidBooking('2026-03-25T10:00', { priceCents: 2000 });
    const cheaper = await lisbonSlot(getDb(), branchId, '2026-03-26T07:00', { priceCents: 1200 });

    expect(await move(id, cheaper, -8)).toMatchObject({
      status: 'moved',
      price_difference_eur: -8,
      refunded_eur: 8,
    });
    // A repeated request answers the same and refunds nothing more.
    expect(await move(id, cheaper, -8)).toMatchObject({ status: 'moved', refunded_eur: 8 });
    expect(await refunds()).toEqual([
      {
        booking_id: id,
        amount_cents: 800,
        idempotency_key: `move-refund-${id}-1`,
        checkout_session_id: null,
      },
    ]);
    expect(await booking(id)).toMatchObject({ slot_id: cheaper, final_price_cents: 1200 });
    expect((await movedMails())[0]!.text_body).toContain('The difference of €8.00 was refunded');
  });

  it('holds a dearer slot until the difference is paid, then moves; a later cancellation refunds each payment its part', async () => {
    const { id, slot: oldSlot } = await paidBooking('2026-03-25T10:00', { priceCents: 1500 });
    const dearer = await lisbonSlot(getDb(), branchId, '2026-03-27T19:00', { priceCents: 2500 });

    const answer = await move(id, dearer, 10);
    expect(answer).toMatchObject({
      status: 'awaiting_payment',
      price_difference_eur: 10,
      refunded_eur: null,
    });
    const clientSecret = answer.checkout_session!.clientSecret;
    // Nothing moved yet; the new slot is held like a new booking: nobody else can take it.
    expect(await booking(id)).toMatchObject({ slot_id: oldSlot, final_price_cents: 1500 });
    expect(await errorCode(someoneElseBooks(dearer, 25))).toBe('slot_unavailable');
    // A repeated request answers the same checkout; My bookings lists the booking once, where it is.
    expect((await move(id, dearer, 10)).checkout_session!.clientSecret).toBe(clientSecret);
    const listed = await service().listMyBookings(user);
    expect(listed.map((row) => row.id)).toEqual([id]);

    await pay(clientSecret);
    expect(await booking(id)).toMatchObject({
      slot_id: dearer,
      final_price_cents: 2500,
      status: 'confirmed',
    });
    expect((await movedMails())[0]!.text_body).toContain('You paid the difference of €10.00.');
    // The payment result can say the booking moved and what the difference was.
    await expect(
      checkout().reconcileSession({ sessionId: clientSecret.split('_secret_')[0]! }),
    ).resolves.toMatchObject({ status: 'complete', move_price_difference_eur: 10 });

    // Cancelled 5 days ahead (100 %): 10 EUR back from the move's payment, 15 EUR from the booking's own.
    const session = (await booking(id)).checkout_session_id;
    await service().cancelBookings({ userId: user, items: [{ bookingId: id, expectedRefundEur: 25 }] });
    const moveSession = clientSecret.split('_secret_')[0]!;
    expect(await refunds()).toEqual([
      {
        booking_id: id,
        amount_cents: 1000,
        idempotency_key: `cancel-refund-${id}-m1`,
        checkout_session_id: moveSession,
      },
      {
        booking_id: id,
        amount_cents: 1500,
        idempotency_key: `cancel-refund-${id}`,
        checkout_session_id: null,
      },
    ]);
    expect(session).not.toBe(moveSession);
  });

  it('changes nothing when the hold of a dearer slot expires unpaid; a payment after that is refunded and told honestly', async () => {
    const { id, slot: oldSlot } = await paidBooking('2026-03-25T10:00');
    const dearer = await lisbonSlot(getDb(), branchId, '2026-03-27T19:00', { priceCents: 2000 });
    const answer = await move(id, dearer, 5);
    const sessionId = answer.checkout_session!.clientSecret.split('_secret_')[0]!;

    clock.set('2026-03-20T10:31:00Z');
    await checkout().expireOverdueSessions();
    expect(await booking(id)).toMatchObject({ slot_id: oldSlot, final_price_cents: 1500 });
    // The hold is listed as what it was: the expired hold of this booking's move, not an unpaid sale.
    const records = await listBookingRecords(getDb(), { limit: 10 });
    expect(records.filter((row) => row.move_of !== null)).toEqual([
      expect.objectContaining({ status: 'expired', move_of: id, paid_at: null }),
    ]);
    expect(records.find((row) => row.id === id)).toMatchObject({ status: 'confirmed', move_of: null });
    // The slot is free again.
    await someoneElseBooks(dearer, 20);

    // An asynchronous payment that succeeds after all.
    const late: PaymentEvent = {
      id: 'evt_move_late',
      type: 'checkout.session.async_payment_succeeded',
      session: {
        id: sessionId,
        clientSecret: null,
        status: 'complete',
        paymentStatus: 'paid',
        paymentIntentId: 'pi_move_late',
        amountCents: 500,
        expiresAt: Temporal.Instant.from('2026-03-20T10:30:00Z'),
      },
      payload: { id: 'evt_move_late' },
    };
    await checkout().handleEvent(late);
    await checkout().handleEvent(late);
    expect(await booking(id)).toMatchObject({ slot_id: oldSlot });
    expect(await refunds()).toEqual([
      {
        booking_id: id,
        amount_cents: 500,
        idempotency_key: `move-late-payment-refund-${id}-1`,
        checkout_session_id: sessionId,
      },
    ]);
    const [told] = await movedMails();
    expect(told!.kind).toBe('booking_move_refunded');
    expect(told!.text_body).toContain('your booking did not move');
  });

  it('refuses a difference the client did not see with the server’s figure in price_difference_eur', async () => {
    const { id } = await paidBooking('2026-03-25T10:00');
    const target = await lisbonSlot(getDb(), branchId, '2026-03-26T10:00', { priceCents: 1800 });
    const refusal = await move(id, target, 0).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe('price_difference_changed');
    expect((refusal as AppError).body('en')).toMatchObject({ price_difference_eur: 3 });
    expect((refusal as AppError).body('en').detail).toContain('€3.00');
  });

  it('prices the new slot with the booking’s coupon at the same rate', async () => {
    const coupon = await createCoupon(getDb(), { code: 'TEN', discount: 0.1 });
    const first = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00', { priceCents: 1500 });
    const created = await service().createBooking({
      userId: user,
      slotIds: [first],
      couponId: coupon,
      expectedTotalEur: 13.5,
      locale: 'pt',
    });
    await pay(created.checkout_session.clientSecret!);
    const { id } = await getDb()
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', first)
      .executeTakeFirstOrThrow();
    const target = await lisbonSlot(getDb(), branchId, '2026-03-26T10:00', { priceCents: 1000 });
    // 10 EUR less 10 % is 9 EUR: 4.50 EUR less than 13.50 EUR.
    expect(await move(id, target, -4.5)).toMatchObject({ refunded_eur: 4.5 });
    expect(await booking(id)).toMatchObject({
      base_price_cents: 1000,
      final_price_cents: 900,
      coupon_id: coupon,
    });
  });

  it('refuses what cannot move: someone else’s, unpaid, within the best refund tier, another branch, its own slot, started or taken slots', async () => {
    const { id } = await paidBooking('2026-03-25T10:00');
    const target = await lisbonSlot(getDb(), branchId, '2026-03-26T10:00');
    const stranger = await verifiedUser(getDb());
    expect(await errorCode(move(id, target, 0, { userId: stranger }))).toBe('booking_not_found');
    expect(await errorCode(move(99_999, target, 0))).toBe('booking_not_found');
    expect(await errorCode(move(id, 99_999, 0))).toBe('slot_not_found');
    expect(await errorCode(move(id, (await booking(id)).slot_id, 0))).toBe('move_target_invalid');
    const otherBranch = await createBranch(getDb());
    const elsewhere = await lisbonSlot(getDb(), otherBranch, '2026-03-26T10:00');
    expect(await errorCode(move(id, elsewhere, 0))).toBe('move_target_invalid');
    const past = await lisbonSlot(getDb(), branchId, '2026-03-19T10:00');
    expect(await errorCode(move(id, past, 0))).toBe('slot_started');
    const taken = await paidBooking('2026-03-26T12:00', { userId: stranger });
    expect(await errorCode(move(id, taken.slot, 0))).toBe('slot_unavailable');

    // An unpaid (pending) booking cannot move.
    const unpaidSlot = await lisbonSlot(getDb(), branchId, '2026-03-28T10:00');
    await service().createBooking({
      userId: user,
      slotIds: [unpaidSlot],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'pt',
    });
    const unpaid = await getDb()
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', unpaidSlot)
      .executeTakeFirstOrThrow();
    expect(await errorCode(move(unpaid.id, target, 0))).toBe('booking_not_movable');

    // Less than 48 hours (the policy's highest threshold) before the start: no more moves.
    clock.set('2026-03-23T10:00:01Z');
    expect(await errorCode(move(id, target, 0))).toBe('booking_not_movable');
    clock.set('2026-03-23T10:00:00Z');
    expect(await move(id, target, 0)).toMatchObject({ status: 'moved' });
  });

  it('refuses a slot inside a branch closure with the error a booking of it gets, cheaper, equal or dearer', async () => {
    const { id } = await paidBooking('2026-03-25T10:00');
    const closed = [
      await lisbonSlot(getDb(), branchId, '2026-03-27T18:00', { priceCents: 1000 }),
      await lisbonSlot(getDb(), branchId, '2026-03-27T19:00', { priceCents: 1500 }),
      await lisbonSlot(getDb(), branchId, '2026-03-27T20:00', { priceCents: 2000 }),
    ];
    await getDb()
      .insertInto('branch_closures')
      .values({
        branch_id: branchId,
        starts_at: new Date('2026-03-27T17:00:00Z'),
        ends_at: new Date('2026-03-27T21:00:00Z'),
        reason: 'air conditioning broken',
        created_by_email: 'ops@gym.example',
      })
      .execute();
    const stranger = await verifiedUser(getDb());
    expect(
      await errorCode(
        service().createBooking({
          userId: stranger,
          slotIds: [closed[1]!],
          couponId: null,
          expectedTotalEur: 15,
          locale: 'pt',
        }),
      ),
    ).toBe('slot_unavailable');
    for (const [index, slot] of closed.entries()) {
      expect(await errorCode(move(id, slot, [-5, 0, 5][index]!))).toBe('slot_unavailable');
    }
    expect(await booking(id)).toMatchObject({
      status: 'confirmed',
      start_time: new Date('2026-03-25T10:00:00Z'),
    });
    expect(await getDb().selectFrom('booking_moves').select('id').execute()).toEqual([]);
  });

  it('changes nothing when the provider cannot refund or open the checkout (503)', async () => {
    const { id, slot: oldSlot } = await paidBooking('2026-03-25T10:00');
    const base = createLocalPaymentProvider({ db: getDb(), clock });
    const cheaper = await lisbonSlot(getDb(), branchId, '2026-03-26T10:00', { priceCents: 1000 });
    expect(await errorCode(move(id, cheaper, -5, { payments: failingProvider(base, 'refund') }))).toBe(
      'payment_provider_unavailable',
    );
    const dearer = await lisbonSlot(getDb(), branchId, '2026-03-26T12:00', { priceCents: 2000 });
    expect(await errorCode(move(id, dearer, 5, { payments: failingProvider(base, 'create') }))).toBe(
      'payment_provider_unavailable',
    );
    expect(await booking(id)).toMatchObject({ slot_id: oldSlot, final_price_cents: 1500 });
    expect(await refunds()).toEqual([]);
    const live = await getDb()
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', 'in', [cheaper, dearer])
      .where('status', 'in', ['pending', 'confirmed'])
      .execute();
    expect(live).toEqual([]);
    expect(await move(id, cheaper, -5)).toMatchObject({ refunded_eur: 5 });
  });

  it('ends a waiting move when its booking is cancelled; its payment arriving later is refunded', async () => {
    const { id, slot: oldSlot } = await paidBooking('2026-03-25T10:00');
    const dearer = await lisbonSlot(getDb(), branchId, '2026-03-27T19:00', { priceCents: 2000 });
    const answer = await move(id, dearer, 5);
    await service().cancelBookings({ userId: user, items: [{ bookingId: id, expectedRefundEur: 15 }] });
    // The held slot is free at once.
    await someoneElseBooks(dearer, 20);
    // The checkout page itself still takes the card only while its session is open: this one is, so it pays,
    // and the payment goes straight back.
    await pay(answer.checkout_session!.clientSecret);
    expect(await booking(id)).toMatchObject({ status: 'canceled', slot_id: oldSlot });
    expect((await refunds()).map((refund) => refund.idempotency_key)).toEqual([
      `cancel-refund-${id}`,
      `move-late-payment-refund-${id}-1`,
    ]);
  });

  it('lets the member retry at once a dearer move left stalled after its hold; the stalled one, should it wake, hears move_in_progress', async () => {
    const { id } = await paidBooking('2026-03-25T10:00');
    const dearer = await lisbonSlot(getDb(), branchId, '2026-03-27T19:00', { priceCents: 2000 });
    // The first attempt stops after its hold, as when its database or its process went away while the provider
    // was opening the checkout: its hold is committed, its checkout never recorded.
    const { stalled, reached, wake } = stalledProvider();
    const first = move(id, dearer, 5, { payments: stalled });
    await reached;
    clock.advance({ seconds: 20 });
    // Within the hold's two minutes, the member's retry is not refused by their own hold.
    const retried = await move(id, dearer, 5);
    expect(retried).toMatchObject({ status: 'awaiting_payment', price_difference_eur: 5 });
    wake();
    expect(await errorCode(first)).toBe('move_in_progress');
    // The retry's checkout pays and moves the booking; of the first attempt nothing is left (the only other row
    // of the slot is the retry's own hold, ended with its move).
    await pay(retried.checkout_session!.clientSecret);
    expect(await booking(id)).toMatchObject({ slot_id: dearer, final_price_cents: 2000 });
    const moves = await getDb().selectFrom('booking_moves').select(['hold_booking_id', 'state']).execute();
    expect(moves).toEqual([{ hold_booking_id: anyOf(Number), state: 'completed' }]);
    const rows = await getDb()
      .selectFrom('bookings')
      .select(['id', 'status'])
      .where('slot_id', '=', dearer)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id, status: 'confirmed' },
      { id: moves[0]!.hold_booking_id, status: 'expired' },
    ]);
  });

  it('tells a new booking whose hold the member’s own move took that the slot is taken, not that payments are down', async () => {
    const { id } = await paidBooking('2026-03-25T10:00');
    const dearer = await lisbonSlot(getDb(), branchId, '2026-03-27T19:00', { priceCents: 2000 });
    // The member books the slot in one tab; its checkout is still being opened when, in another, they move their
    // booking onto the same slot: the move takes the hold nobody recorded yet.
    const { stalled, reached, wake } = stalledProvider();
    const booked = service({ payments: stalled }).createBooking({
      userId: user,
      slotIds: [dearer],
      couponId: null,
      expectedTotalEur: 20,
      locale: 'pt',
    });
    await reached;
    expect(await move(id, dearer, 5)).toMatchObject({ status: 'awaiting_payment' });
    wake();
    expect(await errorCode(booked)).toBe('slot_unavailable');
  });

  it('lets a new move replace one waiting for its payment', async () => {
    const { id } = await paidBooking('2026-03-25T10:00');
    const first = await lisbonSlot(getDb(), branchId, '2026-03-27T19:00', { priceCents: 2000 });
    const second = await lisbonSlot(getDb(), branchId, '2026-03-27T20:00', { priceCents: 1500 });
    await move(id, first, 5);
    expect(await move(id, second, 0)).toMatchObject({ status: 'moved' });
    expect(await booking(id)).toMatchObject({ slot_id: second });
    // The first target's hold ended with the move it belonged to.
    await someoneElseBooks(first, 20);
  });
});
