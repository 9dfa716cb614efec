import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import { accountDeletionMachine } from '../../machines/accountDeletion.machine.ts';

function start(deleteAccount: () => Promise<void> = async () => {}) {
  const deleted = vi.fn();
  const call = vi.fn(deleteAccount);
  const actor = createActor(
    accountDeletionMachine.provide({
      actors: { deleteAccount: fromPromise(() => call()) },
      actions: { accountDeleted: deleted },
    }),
  ).start();
  return { actor, deleted, call };
}

describe('the account deletion machine', () => {
  it('opens the confirmation and cancels without a call', () => {
    const { actor, call } = start();
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'deletion.open' });
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'deletion.cancel' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(call).not.toHaveBeenCalled();
  });

  it('deletes, logs out and closes', async () => {
    const { actor, deleted } = start();
    actor.send({ type: 'deletion.open' });
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
      actor.send({ type: 'deletion.confirm' });
      await waitFor(actor, (state) => state.matches('confirming'));
      expect(actor.getSnapshot().context.error).toEqual(expected);
      expect(deleted).not.toHaveBeenCalled();
    }
  });

  it('resets the error when closed and opened again', async () => {
    const { actor } = start(() => Promise.reject(new ApiError(null)));
    actor.send({ type: 'deletion.open' });
    actor.send({ type: 'deletion.confirm' });
    await waitFor(actor, (state) => state.matches('confirming'));
    actor.send({ type: 'deletion.cancel' });
    actor.send({ type: 'deletion.open' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
