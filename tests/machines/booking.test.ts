import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  bookingMachine,
  type CreateBookingInput,
  type OfferedCoupon,
  type SeriesInput,
  type WeeklyOccurrence,
} from '../../machines/booking.machine.ts';
import {
  calendarCells,
  discountedCents,
  discountsBySlot,
  groupByDate,
  totalEuros,
  type Coupon,
  type TimeSlot,
} from '../../machines/booking.pricing.ts';

function slot(id: number, start: string, price = 20, bookable = true): TimeSlot {
  const [date, time] = start.split('T') as [string, string];
  const hour = Number(time.slice(0, 2));
  return {
    id,
    start_time: `${date}T${time}:00+00:00`,
    end_time: `${date}T${String(hour + 1).padStart(2, '0')}:00:00+00:00`,
    basic_price_eur: price,
    is_bookeable: bookable,
  };
}

const day1 = [
  slot(1, '2026-11-23T09:00'),
  slot(2, '2026-11-23T10:00', 22.5),
  slot(3, '2026-11-23T11:00', 20, false),
];
const day2 = [slot(11, '2026-11-25T18:00', 25), slot(12, '2026-11-25T19:00', 25)];

type Script = {
  slots?: (input: { date: string }) => TimeSlot[] | Promise<TimeSlot[]>;
  coupon?: (code: string) => Coupon | Promise<Coupon>;
  create?: (input: CreateBookingInput) => string | null | Promise<string | null>;
  localTime?: () => string | Promise<string>;
  offered?: () => OfferedCoupon | null | Promise<OfferedCoupon | null>;
  series?: (input: SeriesInput) => WeeklyOccurrence[] | Promise<WeeklyOccurrence[]>;
};

function start(
  script: Script = {},
  loggedIn = true,
  again: { openOn?: string | null; preselectSlotId?: number | null } = {},
) {
  const created: CreateBookingInput[] = [];
  const slotCalls: string[] = [];
  const offerCalls: number[] = [];
  const seriesCalls: SeriesInput[] = [];
  const requestLogin = vi.fn();
  const machine = bookingMachine.provide({
    actors: {
      loadLocalTime: fromPromise(async () =>
        script.localTime ? script.localTime() : '2026-11-23T08:15:00.000+00:00',
      ),
      loadSlots: fromPromise(async ({ input }) => {
        slotCalls.push(input.date);
        if (script.slots) return script.slots(input);
        return input.date === '2026-11-25' ? day2 : day1;
      }),
      checkCoupon: fromPromise(async ({ input }) =>
        script.coupon ? script.coupon(input.code) : { id: 7, discount: 0.05, remaining_uses: null },
      ),
      loadOfferedCoupon: fromPromise(async () => {
        offerCalls.push(1);
        return script.offered ? script.offered() : null;
      }),
      previewWeeklySeries: fromPromise(async ({ input }) => {
        seriesCalls.push(input);
        return script.series ? script.series(input) : [];
      }),
      createBooking: fromPromise(async ({ input }) => {
        created.push(input);
        return script.create ? script.create(input) : 'cs_local_abc_secret_def';
      }),
    },
    actions: { requestLogin },
  });
  const actor = createActor(machine, {
    input: { branchId: 1, loggedIn, fallbackToday: '2026-11-20', ...again },
  }).start();
  return { actor, created, slotCalls, offerCalls, seriesCalls, requestLogin };
}

const slotsReady = (actor: ReturnType<typeof start>['actor']) =>
  waitFor(actor, (state) => state.matches({ browsing: { slots: 'ready' } }));

describe('the booking flow', () => {
  it('starts on the branch’s local date and loads its slots', async () => {
    const { actor, slotCalls } = start();
    const state = await slotsReady(actor);
    expect(state.context.today).toBe('2026-11-23');
    expect(state.context.date).toBe('2026-11-23');
    expect(state.context.month).toBe('2026-11');
    expect(state.context.slots).toEqual(day1);
    expect(slotCalls).toEqual(['2026-11-23']);
  });

  it('falls back to the device’s idea of the branch date when the local time cannot be read', async () => {
    const { actor } = start({ localTime: () => Promise.reject(new ApiError(null)) });
    const state = await slotsReady(actor);
    expect(state.context.date).toBe('2026-11-20');
  });

  it('refuses dates before the branch’s today and moves between months', async () => {
    const { actor, slotCalls } = start();
    await slotsReady(actor);
    actor.send({ type: 'date.select', date: '2026-11-22' });
    expect(actor.getSnapshot().context.date).toBe('2026-11-23');
    actor.send({ type: 'month.next' });
    actor.send({ type: 'month.next' });
    expect(actor.getSnapshot().context.month).toBe('2027-01');
    actor.send({ type: 'month.previous' });
    expect(actor.getSnapshot().context.month).toBe('2026-12');
    actor.send({ type: 'date.select', date: '2026-11-25' });
    const state = await slotsReady(actor);
    expect(state.context.slots).toEqual(day2);
    expect(state.context.month).toBe('2026-11');
    expect(slotCalls).toEqual(['2026-11-23', '2026-11-25']);
  });

  it('selects and deselects bookable slots only, across dates, and clears them all', async () => {
    const { actor } = start();
    await slotsReady(actor);
    actor.send({ type: 'slot.toggle', slot: day1[0]! });
    actor.send({ type: 'slot.toggle', slot: day1[2]! });
    expect(actor.getSnapshot().context.selected.map((s) => s.id)).toEqual([1]);
    actor.send({ type: 'date.select', date: '2026-11-25' });
    await slotsReady(actor);
    actor.send({ type: 'slot.toggle', slot: day2[1]! });
    expect(actor.getSnapshot().context.selected.map((s) => s.id)).toEqual([1, 12]);
    actor.send({ type: 'slot.toggle', slot: day2[1]! });
    expect(actor.getSnapshot().context.selected.map((s) => s.id)).toEqual([1]);
    actor.send({ type: 'selection.clear' });
    expect(actor.getSnapshot().context.selected).toEqual([]);
    expect(actor.getSnapshot().can({ type: 'summary.open' })).toBe(false);
  });

  it('asks for a login when a slot is picked logged out, and selects it once logged in', async () => {
    const { actor, requestLogin } = start({}, false);
    await slotsReady(actor);
    actor.send({ type: 'slot.toggle', slot: day1[1]! });
    expect(requestLogin).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.selected).toEqual([]);
    actor.send({ type: 'session.changed', loggedIn: true });
    expect(actor.getSnapshot().context.selected.map((s) => s.id)).toEqual([2]);
    expect(actor.getSnapshot().context.loggedIn).toBe(true);
  });

  it('does not ask for a login for a slot that cannot be booked', async () => {
    const { actor, requestLogin } = start({}, false);
    await slotsReady(actor);
    actor.send({ type: 'slot.toggle', slot: day1[2]! });
    expect(requestLogin).not.toHaveBeenCalled();
  });

  it('shows can-not-fetch-slots as a state when the slots cannot be loaded', async () => {
    const { actor } = start({ slots: () => Promise.reject(new ApiError('internal_error')) });
    const state = await waitFor(actor, (s) => s.matches({ browsing: { slots: 'failed' } }));
    expect(state.context.slots).toEqual([]);
    expect(state.can({ type: 'summary.open' })).toBe(false);
  });

  describe('coupons', () => {
    const earlyBird: OfferedCoupon = { id: 3, code: 'EARLYBIRD', discount: 0.1, remaining_uses: 3 };

    it('applies the member’s offered coupon by itself; once removed it stays removed', async () => {
      const { actor, offerCalls } = start({ offered: () => earlyBird });
      const state = await waitFor(actor, (s) => s.context.coupon !== null);
      expect(state.context.coupon).toEqual({ ...earlyBird, offered: true });
      await slotsReady(actor);
      actor.send({ type: 'slot.toggle', slot: day1[0]! });
      actor.send({ type: 'summary.open' });
      actor.send({ type: 'summary.close' });
      expect(actor.getSnapshot().context.coupon).toEqual({ ...earlyBird, offered: true });
      actor.send({ type: 'coupon.remove' });
      actor.send({ type: 'summary.open' });
      actor.send({ type: 'summary.close' });
      expect(actor.getSnapshot().context.coupon).toBeNull();
      expect(offerCalls).toHaveLength(1);
    });

    it('offers nothing to a logged-out visitor, and looks the offer up on login', async () => {
      const { actor, offerCalls } = start({ offered: () => earlyBird }, false);
      await slotsReady(actor);
      expect(offerCalls).toHaveLength(0);
      actor.send({ type: 'session.changed', loggedIn: true });
      const state = await waitFor(actor, (s) => s.context.coupon !== null);
      expect(state.context.coupon?.code).toBe('EARLYBIRD');
      actor.send({ type: 'session.changed', loggedIn: false });
      expect(actor.getSnapshot().context.coupon).toBeNull();
    });

    it('looks the offer up again after a booking, which used some of its uses', async () => {
      let uses = 3;
      const { actor, offerCalls } = start({
        offered: () => (uses > 0 ? { ...earlyBird, remaining_uses: uses } : null),
        create: () => {
          uses = 0;
          return 'cs_1_secret_x';
        },
      });
      await waitFor(actor, (s) => s.context.coupon !== null);
      await slotsReady(actor);
      actor.send({ type: 'slot.toggle', slot: day1[0]! });
      actor.send({ type: 'summary.open' });
      actor.send({ type: 'terms.toggle' });
      actor.send({ type: 'booking.confirm' });
      await waitFor(actor, (s) => s.matches('payment'));
      actor.send({ type: 'payment.close' });
      await waitFor(actor, () => offerCalls.length === 2);
      await waitFor(actor, (s) => s.matches({ browsing: { coupon: 'idle' } }));
      expect(actor.getSnapshot().context.coupon).toBeNull();
    });

    it('cannot be applied while the input is empty', async () => {
      const { actor } = start();
      await slotsReady(actor);
      expect(actor.getSnapshot().can({ type: 'coupon.apply' })).toBe(false);
      actor.send({ type: 'coupon.input', value: '   ' });
      expect(actor.getSnapshot().can({ type: 'coupon.apply' })).toBe(false);
    });

    it('applies a valid coupon and removes it', async () => {
      const { actor } = start();
      await slotsReady(actor);
      // Typed in lower case, echoed as codes are written (issue 30).
      actor.send({ type: 'coupon.input', value: ' welcome5 ' });
      actor.send({ type: 'coupon.apply' });
      const state = await waitFor(actor, (s) => s.context.coupon !== null);
      expect(state.context.coupon).toEqual({ id: 7, discount: 0.05, remaining_uses: null, code: 'WELCOME5' });
      actor.send({ type: 'coupon.remove' });
      expect(actor.getSnapshot().context.coupon).toBeNull();
      expect(actor.getSnapshot().context.couponInput).toBe('');
    });

    it('shows the server’s message for an invalid coupon', async () => {
      const { actor } = start({
        coupon: () => Promise.reject(new ApiError('invalid_coupon', 'Invalid coupon code.')),
      });
      await slotsReady(actor);
      actor.send({ type: 'coupon.input', value: 'NOPE' });
      actor.send({ type: 'coupon.apply' });
      const state = await waitFor(actor, (s) => s.context.couponError !== null);
      expect(state.context.couponError).toEqual({ kind: 'invalid', detail: 'Invalid coupon code.' });
      expect(state.context.coupon).toBeNull();
      actor.send({ type: 'coupon.input', value: 'NOPE2' });
      expect(actor.getSnapshot().context.couponError).toBeNull();
    });

    it('says can-not-verify-coupon when the check fails otherwise', async () => {
      const { actor } = start({ coupon: () => Promise.reject(new ApiError(null)) });
      await slotsReady(actor);
      actor.send({ type: 'coupon.input', value: 'WELCOME5' });
      actor.send({ type: 'coupon.apply' });
      const state = await waitFor(actor, (s) => s.context.couponError !== null);
      expect(state.context.couponError).toEqual({ kind: 'unreachable' });
    });
  });

  async function inSummary(script: Script = {}) {
    const started = start(script);
    const { actor } = started;
    await slotsReady(actor);
    actor.send({ type: 'slot.toggle', slot: day1[0]! });
    actor.send({ type: 'slot.toggle', slot: day1[1]! });
    actor.send({ type: 'coupon.input', value: 'WELCOME5' });
    actor.send({ type: 'coupon.apply' });
    await waitFor(actor, (s) => s.context.coupon !== null);
    actor.send({ type: 'summary.open' });
    expect(actor.getSnapshot().matches('summary')).toBe(true);
    return started;
  }

  it('needs the terms accepted, then creates the booking with the discounted total and opens the payment', async () => {
    const { actor, created, slotCalls } = await inSummary();
    actor.send({ type: 'booking.confirm' });
    expect(actor.getSnapshot().matches({ summary: 'reviewing' })).toBe(true);
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    const state = await waitFor(actor, (s) => s.matches('payment'));
    expect(created).toEqual([
      {
        time_slot_id: [1, 2],
        max_bookings_per_slot: 1,
        coupon_code: 7,
        expected_total_final_price_eur: 40.38,
      },
    ]);
    expect(state.context.clientSecret).toBe('cs_local_abc_secret_def');
    expect(state.context.selected).toEqual([]);
    expect(state.context.termsAccepted).toBe(false);
    await waitFor(actor, () => slotCalls.length === 2);
    actor.send({ type: 'payment.failed' });
    expect(actor.getSnapshot().matches({ payment: 'failed' })).toBe(true);
    actor.send({ type: 'payment.close' });
    await slotsReady(actor);
    expect(slotCalls).toEqual(['2026-11-23', '2026-11-23', '2026-11-23']);
  });

  it('keeps the payment dialog when the slots cannot be reloaded behind it, and loads the grid once it closes', async () => {
    let calls = 0;
    const { actor } = await inSummary({
      slots: () => {
        calls += 1;
        if (calls === 2) throw new ApiError(null);
        return day1;
      },
    });
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    await waitFor(actor, () => calls === 2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().matches({ payment: 'checkout' })).toBe(true);
    actor.send({ type: 'payment.close' });
    const state = await slotsReady(actor);
    expect(state.context.slots).toEqual(day1);
  });

  it('confirms a free booking without a checkout', async () => {
    const { actor } = await inSummary({ create: () => null });
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    await waitFor(actor, (s) => s.matches('confirmed'));
    actor.send({ type: 'payment.close' });
    expect(actor.getSnapshot().matches('browsing')).toBe(true);
  });

  it.each([
    [
      'a changed price',
      new ApiError('price_changed', 'The price has changed: the total is now €41.50.'),
      {
        kind: 'server',
        detail: 'The price has changed: the total is now €41.50.',
      },
    ],
    [
      'a slot taken meanwhile',
      new ApiError('slot_unavailable', 'This time slot is no longer available.'),
      {
        kind: 'server',
        detail: 'This time slot is no longer available.',
      },
    ],
    ['a payment provider failure', new ApiError('payment_provider_unavailable'), { kind: 'providerFailed' }],
    ['an unexpected failure', new ApiError('internal_error'), { kind: 'cannotConfirm' }],
  ])('keeps the summary open with the error line for %s', async (_, error, expected) => {
    const { actor } = await inSummary({ create: () => Promise.reject(error) });
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    const state = await waitFor(actor, (s) => s.context.summaryError !== null);
    expect(state.matches({ summary: 'reviewing' })).toBe(true);
    expect(state.context.summaryError).toEqual(expected);
    expect(state.context.selected.map((s) => s.id)).toEqual([1, 2]);
  });

  it('closing the summary resets the terms and error, reloads the slots and drops selections no longer bookable', async () => {
    let taken = false;
    const { actor, slotCalls } = await inSummary({
      create: () =>
        Promise.reject(new ApiError('slot_unavailable', 'This time slot is no longer available.')),
      slots: ({ date }) =>
        date === '2026-11-25'
          ? day2
          : taken
            ? [day1[0]!, { ...day1[1]!, is_bookeable: false }, day1[2]!]
            : day1,
    });
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    await waitFor(actor, (s) => s.context.summaryError !== null);
    taken = true;
    actor.send({ type: 'summary.close' });
    expect(actor.getSnapshot().context.termsAccepted).toBe(false);
    expect(actor.getSnapshot().context.summaryError).toBeNull();
    const state = await slotsReady(actor);
    expect(slotCalls).toEqual(['2026-11-23', '2026-11-23']);
    expect(state.context.selected.map((s) => s.id)).toEqual([1]);
    expect(state.context.coupon?.code).toBe('WELCOME5');
  });

  it('forgets the selection and the coupon on logout', async () => {
    const { actor } = await inSummary();
    actor.send({ type: 'summary.close' });
    await slotsReady(actor);
    actor.send({ type: 'session.changed', loggedIn: false });
    expect(actor.getSnapshot().context.selected).toEqual([]);
    expect(actor.getSnapshot().context.coupon).toBeNull();
  });
});

describe('booking arithmetic', () => {
  it('rounds discounted prices half up in cents and sums the rounded prices', () => {
    expect(discountedCents(22.5, 0.05)).toBe(2138);
    expect(discountedCents(20, 0.05)).toBe(1900);
    expect(discountedCents(0.1, 0.05)).toBe(10);
    expect(totalEuros([day1[0]!, day1[1]!], { discount: 0.05, remainingUses: null })).toBe(40.38);
    expect(totalEuros([day1[0]!, day1[1]!], null)).toBe(42.5);
  });

  it('discounts only the earliest slots when the coupon has fewer uses left than slots (early bird)', () => {
    const [first, second] = [day1[0]!, day1[1]!];
    const later = {
      ...second,
      id: 999,
      start_time: '2026-11-30T10:00:00+00:00',
      end_time: '2026-11-30T11:00:00+00:00',
    };
    const terms = { discount: 0.1, remainingUses: 2 };
    const discounts = discountsBySlot([later, second, first], terms);
    expect([discounts.get(first.id), discounts.get(second.id), discounts.get(later.id)]).toEqual([
      0.1,
      0.1,
      null,
    ]);
    expect(totalEuros([later, second, first], terms)).toBe(
      (discountedCents(first.basic_price_eur, 0.1) +
        discountedCents(second.basic_price_eur, 0.1) +
        Math.round(later.basic_price_eur * 100)) /
        100,
    );
  });

  it('groups selected slots by sorted date', () => {
    expect(
      groupByDate([day2[0]!, day1[1]!, day1[0]!]).map((group) => [group.date, group.slots.map((s) => s.id)]),
    ).toEqual([
      ['2026-11-23', [1, 2]],
      ['2026-11-25', [11]],
    ]);
  });

  it('lays a month out in 42 cells starting on a Monday', () => {
    const cells = calendarCells('2026-11');
    expect(cells).toHaveLength(42);
    expect(cells[0]).toBe('2026-10-26');
    expect(cells[6]).toBe('2026-11-01');
    expect(cells[41]).toBe('2026-12-06');
  });
});

// Issue 30, item 4: "Book again" opens the flow on the next free week's day with its slot chosen.
describe('the booking flow opened by "Book again"', () => {
  const ready = (actor: ReturnType<typeof start>['actor']) =>
    waitFor(actor, (state) => state.matches({ browsing: { slots: 'ready' } }));

  it('opens on the day given and chooses its slot once, leaving it to the member afterwards', async () => {
    const { actor, slotCalls } = start({}, true, { openOn: '2026-11-25', preselectSlotId: 12 });
    const state = await ready(actor);
    expect(state.context.date).toBe('2026-11-25');
    expect(slotCalls).toEqual(['2026-11-25']);
    expect(state.context.selected.map((chosen) => chosen.id)).toEqual([12]);
    // Unchosen, it stays unchosen when the day's slots load again.
    actor.send({ type: 'slot.toggle', slot: day2[1]! });
    actor.send({ type: 'date.select', date: '2026-11-23' });
    await ready(actor);
    actor.send({ type: 'date.select', date: '2026-11-25' });
    expect((await ready(actor)).context.selected).toEqual([]);
  });

  it('chooses nothing when the slot was taken meanwhile, or for a visitor who is not signed in', async () => {
    const taken = start({ slots: () => [slot(12, '2026-11-25T19:00', 25, false)] }, true, {
      openOn: '2026-11-25',
      preselectSlotId: 12,
    });
    expect((await ready(taken.actor)).context.selected).toEqual([]);
    const visitor = start({}, false, { openOn: '2026-11-25', preselectSlotId: 12 });
    expect((await ready(visitor.actor)).context.selected).toEqual([]);
  });

  it('opens on today when the day given is past', async () => {
    const { actor } = start({}, true, { openOn: '2026-11-01', preselectSlotId: 11 });
    const state = await ready(actor);
    expect(state.context.date).toBe('2026-11-23');
    expect(state.context.selected).toEqual([]);
  });
});

describe('repeating a slot weekly (issue 31)', () => {
  // Mondays at 09:00 from the 23rd: the third week is taken, the fifth not open for booking yet.
  const weeks: WeeklyOccurrence[] = [
    { week: 1, date: '2026-11-23', slot: day1[0]!, problem: null },
    { week: 2, date: '2026-11-30', slot: slot(21, '2026-11-30T09:00'), problem: null },
    { week: 3, date: '2026-12-07', slot: slot(22, '2026-12-07T09:00', 20, false), problem: 'taken' },
    { week: 4, date: '2026-12-14', slot: slot(23, '2026-12-14T09:00', 25), problem: null },
    { week: 5, date: '2026-12-21', slot: null, problem: 'beyond_horizon' },
  ];
  const series = () => weeks;

  async function previewed(script: Script = { series }) {
    const started = start(script);
    await slotsReady(started.actor);
    started.actor.send({ type: 'slot.toggle', slot: day1[0]! });
    started.actor.send({ type: 'series.weeks', weeks: 5 });
    started.actor.send({ type: 'series.preview' });
    await waitFor(started.actor, (state) => state.matches({ browsing: { series: 'idle' } }));
    return started;
  }

  it('asks for the chosen slot’s weeks and fills the basket with the bookable ones', async () => {
    const { actor, seriesCalls } = await previewed();
    expect(seriesCalls).toEqual([{ slotId: 1, weeks: 5 }]);
    expect(actor.getSnapshot().context.selected.map((chosen) => chosen.id)).toEqual([1, 21, 23]);
    expect(actor.getSnapshot().context.series?.occurrences).toEqual(weeks);
  });

  it('books the kept weeks as one series, at the total of their prices', async () => {
    const { actor, created } = await previewed();
    actor.send({ type: 'slot.toggle', slot: weeks[1]!.slot! });
    actor.send({ type: 'summary.open' });
    actor.send({ type: 'terms.toggle' });
    actor.send({ type: 'booking.confirm' });
    await waitFor(actor, (state) => state.matches('payment'));
    expect(created).toEqual([
      {
        time_slot_id: [1, 23],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 45,
        weekly_series: true,
      },
    ]);
    expect(actor.getSnapshot().context.series).toBeNull();
  });

  it('books slots one by one once another slot joins the basket, or when one week is left', async () => {
    const { actor } = await previewed();
    actor.send({ type: 'slot.toggle', slot: day1[1]! });
    expect(actor.getSnapshot().context.series).toBeNull();
    expect(actor.getSnapshot().context.selected.map((chosen) => chosen.id)).toEqual([1, 21, 23, 2]);

    const other = await previewed();
    other.actor.send({ type: 'slot.toggle', slot: weeks[1]!.slot! });
    other.actor.send({ type: 'slot.toggle', slot: weeks[3]!.slot! });
    other.actor.send({ type: 'summary.open' });
    other.actor.send({ type: 'terms.toggle' });
    other.actor.send({ type: 'booking.confirm' });
    await waitFor(other.actor, (state) => state.matches('payment'));
    expect(other.created[0]).not.toHaveProperty('weekly_series');
    expect(other.created[0]?.time_slot_id).toEqual([1]);
  });

  it('stops repeating: the first week stays chosen, the others go', async () => {
    const { actor } = await previewed();
    actor.send({ type: 'series.stop' });
    expect(actor.getSnapshot().context.series).toBeNull();
    expect(actor.getSnapshot().context.selected.map((chosen) => chosen.id)).toEqual([1]);
  });

  it('repeats only one chosen slot, for 2 to 52 weeks', async () => {
    const { actor, seriesCalls } = start({ series });
    await slotsReady(actor);
    expect(actor.getSnapshot().can({ type: 'series.preview' })).toBe(false);
    actor.send({ type: 'slot.toggle', slot: day1[0]! });
    actor.send({ type: 'slot.toggle', slot: day1[1]! });
    expect(actor.getSnapshot().can({ type: 'series.preview' })).toBe(false);
    for (const weeks of [1, 53, 2.5]) actor.send({ type: 'series.weeks', weeks });
    expect(actor.getSnapshot().context.seriesWeeks).toBe(4);
    expect(seriesCalls).toEqual([]);
  });

  it('says so when the weeks cannot be read, and keeps the basket', async () => {
    const { actor } = await previewed({ series: () => Promise.reject(new ApiError('internal_error')) });
    expect(actor.getSnapshot().context.seriesFailed).toBe(true);
    expect(actor.getSnapshot().context.series).toBeNull();
    expect(actor.getSnapshot().context.selected.map((chosen) => chosen.id)).toEqual([1]);
  });

  it('a logout while the weeks load leaves the basket empty', async () => {
    let answer: (weeks: WeeklyOccurrence[]) => void = () => {};
    const { actor } = start({ series: () => new Promise((resolve) => (answer = resolve)) });
    await slotsReady(actor);
    actor.send({ type: 'slot.toggle', slot: day1[0]! });
    actor.send({ type: 'series.preview' });
    actor.send({ type: 'session.changed', loggedIn: false });
    answer(weeks);
    await waitFor(actor, (state) => state.matches({ browsing: { series: 'idle' } }));
    expect(actor.getSnapshot().context.selected).toEqual([]);
    expect(actor.getSnapshot().context.series).toBeNull();
  });
});
