import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, SimulatedClock } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  COVER_DELAY_MS,
  creditCoverMachine,
  withoutCreditCover,
  type BasketChanged,
  type CoverChanged,
  type CoverRequest,
  type CreditCover,
} from '../../machines/creditCover.machine.ts';

// The member's credit against the booking flow's basket (issue 31): asked for once the basket rests, and told back
// with the basket's key.

const covered: CreditCover = { slots: [], credit_eur: 20, due_eur: 5 };
const basket = (...ids: number[]): CoverRequest => ({ time_slot_id: ids, coupon_code: null });

function start(preview: (input: CoverRequest) => Promise<CreditCover> = async () => covered) {
  const clock = new SimulatedClock();
  const calls: CoverRequest[] = [];
  const told: CoverChanged[] = [];
  const actor = createActor(
    creditCoverMachine.provide({
      actors: {
        previewCreditCover: fromPromise(({ input }) => {
          calls.push(input);
          return preview(input);
        }),
      },
      actions: { tell: (_, cover) => void told.push(cover) },
    }),
    { clock },
  ).start();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { actor, clock, calls, told, settle };
}

describe('the credit cover of a basket', () => {
  it('asks once the basket has rested, and tells the answer with the basket’s key', async () => {
    const { actor, clock, calls, told, settle } = start();
    actor.send({ type: 'basket.changed', key: '1|', basket: basket(1) });
    clock.increment(COVER_DELAY_MS - 1);
    expect(calls).toEqual([]);
    clock.increment(1);
    expect(calls).toEqual([basket(1)]);
    await settle();
    expect(told).toEqual([{ type: 'cover.changed', key: '1|', cover: covered }]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('waits again for a basket that changes meanwhile, and asks about the last one only', async () => {
    const { actor, clock, calls } = start();
    actor.send({ type: 'basket.changed', key: '1|', basket: basket(1) });
    clock.increment(COVER_DELAY_MS - 50);
    actor.send({ type: 'basket.changed', key: '1,2|', basket: basket(1, 2) });
    clock.increment(COVER_DELAY_MS - 50);
    expect(calls).toEqual([]);
    clock.increment(50);
    expect(calls).toEqual([basket(1, 2)]);
  });

  it('drops an answer for a basket that changed while it was asked', async () => {
    let answer: (cover: CreditCover) => void = () => {};
    const { actor, clock, told, settle } = start(() => new Promise((resolve) => (answer = resolve)));
    actor.send({ type: 'basket.changed', key: '1|', basket: basket(1) });
    clock.increment(COVER_DELAY_MS);
    const first = answer;
    actor.send({ type: 'basket.changed', key: '2|', basket: basket(2) });
    first(covered);
    await settle();
    expect(told).toEqual([]);
    expect(actor.getSnapshot().value).toBe('waiting');
  });

  it('asks nothing for an empty basket, and stops waiting for one that emptied', () => {
    const { actor, clock, calls } = start();
    actor.send({ type: 'basket.changed', key: '1|', basket: basket(1) });
    actor.send({ type: 'basket.changed', key: null, basket: null });
    clock.increment(COVER_DELAY_MS * 2);
    expect(calls).toEqual([]);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('tells that the cover could not be read', async () => {
    const { actor, clock, told, settle } = start(() => Promise.reject(new ApiError('service_unavailable')));
    actor.send({ type: 'basket.changed', key: '1|', basket: basket(1) });
    clock.increment(COVER_DELAY_MS);
    await settle();
    expect(told).toEqual([{ type: 'cover.changed', key: '1|', cover: null }]);
  });

  it('run without the app’s cover, every basket’s cover is unreadable at once', () => {
    const heard: unknown[] = [];
    const parent = createActor(
      setup({ actors: { cover: withoutCreditCover } }).createMachine({
        invoke: { id: 'cover', src: 'cover' },
        on: { '*': { actions: ({ event }) => void heard.push(event) } },
      }),
    ).start();
    const child = parent.getSnapshot().children.cover!;
    const changed = (event: BasketChanged) => child.send(event);
    changed({ type: 'basket.changed', key: '1|', basket: basket(1) });
    changed({ type: 'basket.changed', key: null, basket: null });
    expect(heard).toEqual([{ type: 'cover.changed', key: '1|', cover: null }]);
  });
});
