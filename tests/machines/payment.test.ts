import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { paymentMachine, type SessionBooking, type SessionStatus } from '../../machines/payment.machine.ts';
import {
  bookedSlots,
  giftOutcome,
  packOutcome,
  paymentOutcome,
  refundedSlots,
} from '../../machines/payment.selectors.ts';

function start(answers: (() => SessionStatus | Promise<SessionStatus>)[]) {
  const calls: string[] = [];
  const requestLogin = vi.fn();
  const machine = paymentMachine.provide({
    actors: {
      checkStatus: fromPromise(async ({ input }) => {
        calls.push(input.sessionId);
        const answer = answers[calls.length - 1];
        if (!answer) throw new Error('unexpected call');
        return answer();
      }),
    },
    actions: { requestLogin },
  });
  const actor = createActor(machine, { input: { sessionId: 'cs_local_1' } }).start();
  return { actor, calls, requestLogin };
}

describe('the payment result', () => {
  it('shows success for a complete session, without Try again', async () => {
    const { actor } = start([() => ({ status: 'complete', clientSecret: null, bookings: [] })]);
    const state = await waitFor(actor, (s) => s.matches('result'));
    expect(state.context.status).toBe('complete');
    expect(state.can({ type: 'payment.retry' })).toBe(false);
    actor.send({ type: 'result.close' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('shows expired for an expired session, without Try again', async () => {
    const { actor } = start([() => ({ status: 'expired', clientSecret: null, bookings: [] })]);
    const state = await waitFor(actor, (s) => s.matches('result'));
    expect(state.context.status).toBe('expired');
    expect(state.can({ type: 'payment.retry' })).toBe(false);
  });

  it('offers Try again for an open session and re-opens the checkout with its client secret', async () => {
    const { actor } = start([() => ({ status: 'open', clientSecret: 'cs_local_1_secret_x', bookings: [] })]);
    await waitFor(actor, (s) => s.matches('result'));
    expect(actor.getSnapshot().can({ type: 'payment.retry' })).toBe(true);
    actor.send({ type: 'payment.retry' });
    expect(actor.getSnapshot().matches('checkout')).toBe(true);
    expect(actor.getSnapshot().context.clientSecret).toBe('cs_local_1_secret_x');
    actor.send({ type: 'payment.failed' });
    expect(actor.getSnapshot().matches('checkoutFailed')).toBe(true);
    actor.send({ type: 'result.close' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('asks for a login on a 4xx and checks again once logged in', async () => {
    const { actor, calls, requestLogin } = start([
      () => Promise.reject(new ApiError('unauthorized', 'Not authenticated')),
      () => ({ status: 'complete', clientSecret: null, bookings: [] }),
    ]);
    await waitFor(actor, (s) => s.matches('awaitingLogin'));
    expect(requestLogin).toHaveBeenCalledTimes(1);
    actor.send({ type: 'session.changed', loggedIn: false });
    expect(actor.getSnapshot().matches('awaitingLogin')).toBe(true);
    actor.send({ type: 'session.changed', loggedIn: true });
    const state = await waitFor(actor, (s) => s.matches('result'));
    expect(state.context.status).toBe('complete');
    expect(calls).toEqual(['cs_local_1', 'cs_local_1']);
  });

  it('treats another user’s session (404) like a missing login', async () => {
    const { actor, requestLogin } = start([
      () => Promise.reject(new ApiError('checkout_session_not_found', 'Not found')),
    ]);
    await waitFor(actor, (s) => s.matches('awaitingLogin'));
    expect(requestLogin).toHaveBeenCalledTimes(1);
    actor.send({ type: 'result.close' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('reports a failed check without asking for a login on 5xx or network failure', async () => {
    const { actor, requestLogin } = start([() => Promise.reject(new ApiError(null))]);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(requestLogin).not.toHaveBeenCalled();
    actor.send({ type: 'result.close' });
    expect(actor.getSnapshot().status).toBe('done');
  });
});

describe('what a completed checkout came to', () => {
  const slot = (id: number, status: SessionBooking['status'], refunded = 0): SessionBooking => ({
    id,
    start_time: '2026-03-25T10:00:00+00:00',
    end_time: '2026-03-25T11:00:00+00:00',
    branch_name: 'Lisboa',
    time_zone: 'Europe/Lisbon',
    status,
    refunded_eur: refunded,
  });
  const context = (bookings: SessionBooking[]) => ({
    sessionId: 'cs_1',
    status: 'complete' as const,
    clientSecret: null,
    bookings,
    moveDifferenceEur: null,
    awaitingPayment: null,
    creditPack: null,
    giftVoucher: null,
  });

  it('is booked when a slot is confirmed, listing only the confirmed ones', () => {
    const paid = context([slot(1, 'confirmed'), slot(2, 'expired', 15)]);
    expect(paymentOutcome(paid)).toBe('booked');
    expect(bookedSlots(paid).map((booking) => booking.id)).toEqual([1]);
    expect(refundedSlots(paid).map((booking) => booking.id)).toEqual([2]);
  });

  it('is refunded, not booked, when the payment came after every hold ended', () => {
    expect(paymentOutcome(context([slot(1, 'expired', 15), slot(2, 'expired', 15)]))).toBe('refunded');
  });

  it('is processing while paid-for slots are still held, and ended when nothing is left', () => {
    expect(paymentOutcome(context([slot(1, 'pending')]))).toBe('processing');
    expect(paymentOutcome(context([slot(1, 'canceled'), slot(2, 'expired')]))).toBe('ended');
  });

  it('keeps the bookings the check answered', async () => {
    const { actor } = start([
      () => ({ status: 'complete', clientSecret: null, bookings: [slot(1, 'expired', 15)] }),
    ]);
    const state = await waitFor(actor, (s) => s.matches('result'));
    expect(paymentOutcome(state.context)).toBe('refunded');
  });

  it('names the pack a checkout sold: credited once paid, awaiting its money until then', async () => {
    const pack = { name: 'Dez horas', unit: 'hours' as const, credit: 10, expires_at: null };
    const { actor } = start([
      () => ({ status: 'complete', clientSecret: null, bookings: [], credit_pack: pack }),
    ]);
    const state = await waitFor(actor, (s) => s.matches('result'));
    expect(state.context.creditPack).toEqual(pack);
    expect(packOutcome(state.context)).toBe('awaiting');
    const paid = { ...context([]), creditPack: { ...pack, expires_at: '2027-05-31T12:00:00Z' } };
    expect(packOutcome(paid)).toBe('credited');
    expect(packOutcome({ ...paid, status: 'expired' })).toBeNull();
    expect(packOutcome(context([slot(1, 'confirmed')]))).toBeNull();
  });

  it('names the gift voucher a checkout sold: sent with its code once paid, awaiting its money until then', async () => {
    const gift = {
      amount_eur: 25.5,
      recipient_name: 'Ana Sousa',
      recipient_email: 'ana@example.com',
      code: null,
      expires_at: null,
    };
    const { actor } = start([
      () => ({ status: 'complete', clientSecret: null, bookings: [], gift_voucher: gift }),
    ]);
    const state = await waitFor(actor, (s) => s.matches('result'));
    expect(state.context.giftVoucher).toEqual(gift);
    expect(state.context.creditPack).toBeNull();
    expect(giftOutcome(state.context)).toBe('awaiting');
    expect(packOutcome(state.context)).toBeNull();
    const paid = {
      ...context([]),
      giftVoucher: { ...gift, code: 'GIFT-7K2M-9QXA', expires_at: '2027-11-01T10:00:00Z' },
    };
    expect(giftOutcome(paid)).toBe('sent');
    expect(giftOutcome({ ...paid, status: 'open' })).toBeNull();
    expect(giftOutcome(context([slot(1, 'confirmed')]))).toBeNull();
  });
});
