import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { myBookingsMachine, type CancelRequest } from '../../machines/myBookings.machine.ts';
import type { Booking } from '../../machines/myBookings.selectors.ts';
import { booking } from './bookings-fixtures.ts';

function start(options: {
  lists?: Booking[][];
  cancel?: (input: CancelRequest) => Promise<void>;
  loadError?: Error;
}) {
  const lists = [...(options.lists ?? [[booking(1), booking(2), booking(3, { is_cancelable: false })]])];
  let last = lists[0] ?? [];
  const load = vi.fn(async () => {
    if (options.loadError) throw options.loadError;
    last = lists.shift() ?? last;
    return last;
  });
  const cancel = vi.fn(options.cancel ?? (async () => {}));
  const logged = vi.fn<(error: unknown) => void>();
  const actor = createActor(
    myBookingsMachine.provide({
      actors: {
        loadBookings: fromPromise(load),
        cancelBookings: fromPromise(({ input }) => cancel(input)),
      },
      actions: { logLoadFailure: (_, params) => logged(params.error) },
    }),
  ).start();
  const ready = () => waitFor(actor, (state) => state.matches('ready'));
  return { actor, load, cancel, logged, ready };
}

describe('the my bookings machine', () => {
  it('loads the bookings and is ready with nothing selected', async () => {
    const { actor, ready } = start({});
    await ready();
    expect(actor.getSnapshot().context.bookings.map((item) => item.id)).toEqual([1, 2, 3]);
    expect(actor.getSnapshot().context.selected).toEqual([]);
  });

  it('only logs a failed load and shows an empty list', async () => {
    const { actor, logged, ready } = start({ loadError: new ApiError('internal_error') });
    await ready();
    expect(logged).toHaveBeenCalled();
    expect(actor.getSnapshot().context.bookings).toEqual([]);
  });

  it('selects and deselects cancelable bookings only', async () => {
    const { actor, ready } = start({});
    await ready();
    actor.send({ type: 'booking.toggle', id: 1 });
    actor.send({ type: 'booking.toggle', id: 3 });
    actor.send({ type: 'booking.toggle', id: 2 });
    expect(actor.getSnapshot().context.selected).toEqual([1, 2]);
    actor.send({ type: 'booking.toggle', id: 1 });
    expect(actor.getSnapshot().context.selected).toEqual([2]);
    actor.send({ type: 'selection.clear' });
    expect(actor.getSnapshot().context.selected).toEqual([]);
  });

  it('does not open the dialog while nothing is selected', async () => {
    const { actor, ready } = start({});
    await ready();
    expect(actor.getSnapshot().can({ type: 'dialog.open' })).toBe(false);
    actor.send({ type: 'dialog.open' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
  });

  it('confirms with each refundable amount, then reloads the list and clears the selection', async () => {
    const { actor, cancel, load, ready } = start({
      lists: [
        [booking(1, { refundable_eur: 10 }), booking(2, { refundable_eur: 20 })],
        [booking(1, { canceled: true, active: false, status: 'canceled', is_cancelable: false }), booking(2)],
      ],
    });
    await ready();
    actor.send({ type: 'booking.toggle', id: 1 });
    actor.send({ type: 'booking.toggle', id: 2 });
    actor.send({ type: 'dialog.open' });
    expect(actor.getSnapshot().matches('dialog')).toBe(true);
    actor.send({ type: 'cancellation.confirm' });
    await ready();
    expect(cancel).toHaveBeenCalledWith({
      booking: [
        { booking_id: 1, expected_refund_eur: 10 },
        { booking_id: 2, expected_refund_eur: 20 },
      ],
    });
    expect(load).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.selected).toEqual([]);
    expect(actor.getSnapshot().context.bookings[0]?.canceled).toBe(true);
  });

  it('Cancel closes the dialog, clears the selection and the error', async () => {
    const { actor, ready } = start({ cancel: () => Promise.reject(new ApiError('service_unavailable')) });
    await ready();
    actor.send({ type: 'booking.toggle', id: 1 });
    actor.send({ type: 'dialog.open' });
    actor.send({ type: 'cancellation.confirm' });
    await waitFor(actor, (state) => state.matches({ dialog: 'idle' }));
    expect(actor.getSnapshot().context.error).toEqual({ key: 'generic' });
    actor.send({ type: 'dialog.cancel' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.selected).toEqual([]);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('on 409 shows the server’s message and reloads the figures with the dialog open', async () => {
    const { actor, load } = start({
      lists: [[booking(1, { refundable_eur: 20 })], [booking(1, { refundable_eur: 10 })]],
      cancel: () => Promise.reject(new ApiError('refund_changed', 'The refund is now €10.')),
    });
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'booking.toggle', id: 1 });
    actor.send({ type: 'dialog.open' });
    actor.send({ type: 'cancellation.confirm' });
    await waitFor(actor, (state) => state.matches({ dialog: 'idle' }) && load.mock.calls.length === 2);
    const { context } = actor.getSnapshot();
    expect(context.error).toEqual({ text: 'The refund is now €10.' });
    expect(context.bookings[0]?.refundable_eur).toBe(10);
    expect(context.selected).toEqual([1]);
  });

  it('drops from the selection the bookings that are no longer cancelable after a reload', async () => {
    const { actor } = start({
      lists: [
        [booking(1), booking(2)],
        [booking(1, { is_cancelable: false }), booking(2)],
      ],
      cancel: () => Promise.reject(new ApiError('booking_not_cancelable', 'Already started.')),
    });
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'booking.toggle', id: 1 });
    actor.send({ type: 'booking.toggle', id: 2 });
    actor.send({ type: 'dialog.open' });
    actor.send({ type: 'cancellation.confirm' });
    await waitFor(actor, (state) => state.matches({ dialog: 'idle' }) && state.context.error !== null);
    await waitFor(actor, (state) => state.matches({ dialog: 'idle' }));
    expect(actor.getSnapshot().context.selected).toEqual([2]);
  });

  it('falls back to can-not-cancel-bookings for other failures without a detail', async () => {
    const { actor } = start({ cancel: () => Promise.reject(new ApiError('booking_not_found')) });
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'booking.toggle', id: 1 });
    actor.send({ type: 'dialog.open' });
    actor.send({ type: 'cancellation.confirm' });
    await waitFor(actor, (state) => state.matches({ dialog: 'idle' }) && state.context.error !== null);
    expect(actor.getSnapshot().context.error).toEqual({ key: 'can-not-cancel-bookings' });
  });
});
