import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { accountDeletionMachine } from '../../machines/accountDeletion.machine.ts';
import type { Booking } from '../../machines/myBookings.selectors.ts';
import { booking } from './bookings-fixtures.ts';

function start(
  deleteAccount: () => Promise<void> = async () => {},
  loadUpcoming: () => Promise<Booking[]> = async () => [],
) {
  const deleted = vi.fn();
  const call = vi.fn(deleteAccount);
  const actor = createActor(
    accountDeletionMachine.provide({
      actors: { deleteAccount: fromPromise(() => call()), loadUpcoming: fromPromise(() => loadUpcoming()) },
      actions: { accountDeleted: deleted },
    }),
  ).start();
  return { actor, deleted, call };
}

describe('the account deletion machine', () => {
  it('opens the confirmation and cancels without a call', async () => {
    const { actor, call } = start();
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'deletion.open' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().can({ type: 'deletion.confirm' })).toBe(false);
    await waitFor(actor, (state) => state.matches('confirming'));
    actor.send({ type: 'deletion.cancel' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(call).not.toHaveBeenCalled();
  });

  // Issue 30: the dialog says what the deletion cancels and refunds.
  it('reads the upcoming bookings the deletion cancels, soonest first, or none when they cannot be read', async () => {
    const later = booking(5, { refundable_eur: 20 });
    const sooner = booking(2, { refundable_eur: 0 });
    const past = booking(1, { is_cancelable: false, is_in_past: true });
    const { actor } = start(undefined, async () => [later, past, sooner]);
    actor.send({ type: 'deletion.open' });
    const state = await waitFor(actor, (snapshot) => snapshot.matches('confirming'));
    expect(state.context.upcoming?.map((item) => item.id)).toEqual([2, 5]);
    const failed = start(undefined, () => Promise.reject(new ApiError('service_unavailable')));
    failed.actor.send({ type: 'deletion.open' });
    const unread = await waitFor(failed.actor, (snapshot) => snapshot.matches('confirming'));
    expect(unread.context.upcoming).toBeNull();
    expect(unread.context.error).toBeNull();
  });

  it('deletes, logs out and closes', async () => {
    const { actor, deleted } = start();
    actor.send({ type: 'deletion.open' });
    await waitFor(actor, (state) => state.matches('confirming'));
    actor.send({ type: 'deletion.confirm' });
    expect(actor.getSnapshot().value).toBe('deleting');
    await waitFor(actor, (state) => state.matches('closed'));
    expect(deleted).toHaveBeenCalledTimes(1);
  });

  it('stays open with the error: the server’s, failed-to-delete-account, or the generic one', async () => {
    for (const [error, expected] of [
      [new ApiError('unauthorized', 'Your session has ended.'), { text: 'Your session has ended.' }],
      [new ApiError(null), { key: 'failed-to-delete-account' }],
      [new ApiError('service_unavailable', 'provider down'), { key: 'generic' }],
    ] as const) {
      const { actor, deleted } = start(() => Promise.reject(error));
      actor.send({ type: 'deletion.open' });
      await waitFor(actor, (state) => state.matches('confirming'));
      actor.send({ type: 'deletion.confirm' });
      await waitFor(actor, (state) => state.matches('confirming'));
      expect(actor.getSnapshot().context.error).toEqual(expected);
      expect(deleted).not.toHaveBeenCalled();
    }
  });

  it('resets the error when closed and opened again', async () => {
    const { actor } = start(() => Promise.reject(new ApiError(null)));
    actor.send({ type: 'deletion.open' });
    await waitFor(actor, (state) => state.matches('confirming'));
    actor.send({ type: 'deletion.confirm' });
    await waitFor(actor, (state) => state.matches('confirming') && state.context.error !== null);
    actor.send({ type: 'deletion.cancel' });
    actor.send({ type: 'deletion.open' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
