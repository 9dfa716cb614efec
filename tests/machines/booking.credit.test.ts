import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  bookingMachine,
  type CreateBookingInput,
  type OfferedCoupon,
  type SeriesInput,
  type WeeklyOccurrence,
} from '../../machines/booking.machine.ts';
import type { Coupon, TimeSlot } from '../../machines/booking.pricing.ts';
import { currentCover, isCoverSettled, usesCredit } from '../../machines/booking.selectors.ts';
import type { BasketChanged, CoverChanged, CreditCover } from '../../machines/creditCover.machine.ts';

// Issue 31: the booking flow's use of the member's credit. The cover child (machines/creditCover.machine.ts, with
// tests of its own) is replaced by one that records the baskets it is told of and answers when the test says.

const slot = (id: number, hour: number, price = 20): TimeSlot => ({
  id,
  start_time: `2026-11-23T${String(hour).padStart(2, '0')}:00:00+00:00`,
  end_time: `2026-11-23T${String(hour + 1).padStart(2, '0')}:00:00+00:00`,
  basic_price_eur: price,
  is_bookeable: true,
});
const nine = slot(1, 9);
const ten = slot(2, 10, 25);

const cover = (credit: number, due: number): CreditCover => ({
  slots: [{ time_slot_id: nine.id, price_eur: credit + due, credit_eur: credit, due_eur: due }],
  credit_eur: credit,
  due_eur: due,
});

function start(create: (input: CreateBookingInput) => Promise<string | null> = async () => 'cs_1_secret_x') {
  const told: BasketChanged[] = [];
  const created: CreateBookingInput[] = [];
  let answerCover: (event: CoverChanged) => void = () => {};
  const machine = bookingMachine.provide({
    actors: {
      loadLocalTime: fromPromise(async () => '2026-11-23T08:00:00+00:00'),
      loadSlots: fromPromise(async () => [nine, ten]),
      checkCoupon: fromPromise<Coupon, { code: string }>(async () => ({
        id: 7,
        discount: 0.5,
        remaining_uses: null,
      })),
      loadOfferedCoupon: fromPromise<OfferedCoupon | null>(async () => null),
      previewWeeklySeries: fromPromise<WeeklyOccurrence[], SeriesInput>(async () => []),
      createBooking: fromPromise(async ({ input }) => {
        created.push(input);
        return create(input);
      }),
      creditCover: fromCallback(({ receive, sendBack }) => {
        answerCover = (event) => sendBack(event);
        receive((event) => told.push(event as BasketChanged));
      }),
    },
  });
  const actor = createActor(machine, {
    input: { branchId: 1, loggedIn: true, fallbackToday: '2026-11-23' },
  }).start();
  /** The child answers for the basket it was last told of. */
  const answer = (value: CreditCover | null, key = told.at(-1)!.key!) =>
    answerCover({ type: 'cover.changed', key, cover: value });
  return { actor, told, created, answer };
}

async function withBasket(create?: (input: CreateBookingInput) => Promise<string | null>) {
  const started = start(create);
  await waitFor(started.actor, (state) => state.matches({ browsing: { slots: 'ready' } }));
  started.actor.send({ type: 'slot.toggle', slot: nine });
  return started;
}

describe('the booking flow’s credit', () => {
  it('tells its cover child of every basket: its slots and coupon, and that there is none once it empties', async () => {
    const { actor, told } = await withBasket();
    actor.send({ type: 'slot.toggle', slot: ten });
    actor.send({ type: 'coupon.input', value: 'HALF' });
    actor.send({ type: 'coupon.apply' });
    await waitFor(actor, (state) => state.context.coupon !== null);
    actor.send({ type: 'selection.clear' });
    expect(told).toEqual([
      { type: 'basket.changed', key: '1|', basket: { time_slot_id: [1], coupon_code: null } },
      { type: 'basket.changed', key: '1,2|', basket: { time_slot_id: [1, 2], coupon_code: null } },
      { type: 'basket.changed', key: '1,2|7', basket: { time_slot_id: [1, 2], coupon_code: 7 } },
      { type: 'basket.changed', key: null, basket: null },
    ]);
  });

  it('keeps only the cover of the basket as it stands', async () => {
    const { actor, answer } = await withBasket();
    answer(cover(20, 0), '9|');
    expect(isCoverSettled(actor.getSnapshot().context)).toBe(false);
    answer(cover(20, 0));
    expect(currentCover(actor.getSnapshot().context)).toEqual(cover(20, 0));
    actor.send({ type: 'slot.toggle', slot: ten });
    expect(currentCover(actor.getSnapshot().context)).toBeNull();
    expect(isCoverSettled(actor.getSnapshot().context)).toBe(false);
  });

  it('confirms only once the basket’s cover is known, then spends the credit and expects what is left to pay', async () => {
    const { actor, answer, created } = await withBasket();
    actor.send({ type: 'slot.toggle', slot: ten });
    actor.send({ type: 'summary.open' });
    actor.send({ type: 'terms.toggle' });
    expect(actor.getSnapshot().can({ type: 'booking.confirm' })).toBe(false);
    answer({ ...cover(20, 25), slots: [] });
    expect(usesCredit(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: 'booking.confirm' });
    await waitFor(actor, (state) => state.matches('payment'));
    expect(created).toEqual([
      {
        time_slot_id: [1, 2],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 25,
        use_credit: true,
      },
    ]);
  });

  it('books without the credit when the member turns it off, and the switch is there only with credit', async () => {
    const { actor, answer, created } = await withBasket();
    actor.send({ type: 'summary.open' });
    answer(cover(0, 20));
    expect(actor.getSnapshot().can({ type: 'credit.toggle' })).toBe(false);
    actor.send({ type: 'summary.close' });
    await waitFor(actor, (state) => state.matches({ browsing: { slots: 'ready' } }));
    actor.send({ type: 'slot.toggle', slot: ten });
    answer({ ...cover(20, 25), slots: [] });
    actor.send({ type: 'summary.open' });
    actor.send({ type: 'credit.toggle' });
    expect(actor.getSnapshot().context.useCredit).toBe(false);
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    await waitFor(actor, (state) => state.matches('payment'));
    expect(created[0]).toEqual({
      time_slot_id: [1, 2],
      max_bookings_per_slot: 1,
      coupon_code: null,
      expected_total_final_price_eur: 45,
    });
  });

  it('is confirmed at once when the credit pays it all (no checkout), and leaves no cover behind', async () => {
    const { actor, answer, created } = await withBasket(async () => null);
    answer(cover(20, 0));
    actor.send({ type: 'summary.open' });
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    const state = await waitFor(actor, (s) => s.matches('confirmed'));
    expect(created[0]).toMatchObject({ use_credit: true, expected_total_final_price_eur: 0 });
    expect(state.context.cover).toBeNull();
    expect(state.context.clientSecret).toBeNull();
  });

  it('books as before the wallet when the cover cannot be read', async () => {
    const { actor, answer, created } = await withBasket();
    answer(null);
    actor.send({ type: 'summary.open' });
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    await waitFor(actor, (state) => state.matches('payment'));
    expect(created[0]).toEqual({
      time_slot_id: [1],
      max_bookings_per_slot: 1,
      coupon_code: null,
      expected_total_final_price_eur: 20,
    });
  });

  it('on a changed total says so, asks the cover again and sends what is due now', async () => {
    let refuse = true;
    const { actor, answer, created, told } = await withBasket(async () => {
      if (!refuse) return 'cs_2_secret_y';
      refuse = false;
      throw new ApiError('price_changed', 'O total é agora 5 €.');
    });
    answer(cover(10, 10));
    actor.send({ type: 'summary.open' });
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    await waitFor(actor, (state) => state.context.summaryError !== null);
    expect(actor.getSnapshot().context.summaryError).toEqual({
      kind: 'server',
      detail: 'O total é agora 5 €.',
    });
    expect(told.at(-1)).toEqual({
      type: 'basket.changed',
      key: '1|',
      basket: { time_slot_id: [1], coupon_code: null },
    });
    expect(told).toHaveLength(2);
    expect(actor.getSnapshot().can({ type: 'booking.confirm' })).toBe(false);
    answer(cover(15, 5));
    actor.send({ type: 'booking.confirm' });
    await waitFor(actor, (state) => state.matches('payment'));
    expect(created.map((input) => input.expected_total_final_price_eur)).toEqual([10, 5]);
  });

  it('forgets the cover when the member logs out', async () => {
    const { actor, answer } = await withBasket();
    answer(cover(20, 0));
    actor.send({ type: 'session.changed', loggedIn: false });
    expect(actor.getSnapshot().context.cover).toBeNull();
    expect(actor.getSnapshot().context.coverKey).toBeNull();
  });
});
