import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { RefundRatios } from '../../machines/adminConsole.actors.ts';
import { adminRefundPolicyMachine, ratiosOf } from '../../machines/adminRefundPolicy.machine.ts';
import { ApiError } from '../../machines/api.ts';

function start(save: (ratios: RefundRatios) => Promise<RefundRatios>, sessionEnded = () => {}) {
  const saved: RefundRatios[] = [];
  const actor = createActor(
    adminRefundPolicyMachine.provide({
      actors: {
        saveRefundPolicy: fromPromise<RefundRatios, RefundRatios>(({ input }) => {
          saved.push(input);
          return save(input);
        }),
      },
      actions: { sessionEnded },
    }),
    { input: { ratios: { '0': 0, '48': 1, '24': 0.5 } } },
  ).start();
  return { actor, saved };
}

describe('refund policy editor machine', () => {
  it('holds the lines, longest notice first, and edits, adds and removes them', () => {
    const { actor } = start(async (ratios) => ratios);
    expect(actor.getSnapshot().context.rows).toEqual([
      { hours: '48', percent: '100' },
      { hours: '24', percent: '50' },
      { hours: '0', percent: '0' },
    ]);
    actor.send({ type: 'row.change', index: 1, patch: { percent: '60' } });
    actor.send({ type: 'row.add' });
    actor.send({ type: 'row.change', index: 3, patch: { hours: '6', percent: '20' } });
    actor.send({ type: 'row.remove', index: 0 });
    expect(ratiosOf(actor.getSnapshot().context.rows)).toEqual({ '24': 0.6, '6': 0.2, '0': 0 });
  });

  it('refuses to save a policy that is not one (no 0-hour line, a percentage over 100)', () => {
    const { actor, saved } = start(async (ratios) => ratios);
    actor.send({ type: 'row.change', index: 0, patch: { percent: '101' } });
    expect(actor.getSnapshot().can({ type: 'policy.save' })).toBe(false);
    actor.send({ type: 'policy.save' });
    actor.send({ type: 'row.change', index: 0, patch: { percent: '100' } });
    actor.send({ type: 'row.remove', index: 2 });
    actor.send({ type: 'policy.save' });
    expect(saved).toEqual([]);
  });

  it('saves what the lines say once, then shows the stored policy; a refusal stays on the form with its error', async () => {
    let fail = true;
    const { actor, saved } = start(async (ratios) => {
      if (fail) throw new ApiError('validation_failed', 'Política inválida.');
      return ratios;
    });
    actor.send({ type: 'policy.save' });
    await waitFor(actor, (state) => state.matches('editing') && state.context.error !== null);
    expect(actor.getSnapshot().matches({ editing: 'unsaved' })).toBe(true);
    fail = false;
    actor.send({ type: 'row.change', index: 1, patch: { percent: '25' } });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'policy.save' });
    await waitFor(actor, (state) => state.matches({ editing: 'saved' }));
    expect(saved).toEqual([
      { '48': 1, '24': 0.5, '0': 0 },
      { '48': 1, '24': 0.25, '0': 0 },
    ]);
  });

  it('ends the console session when the save says the session is over', async () => {
    let ended = 0;
    const { actor } = start(
      () => Promise.reject(new ApiError('unauthorized', 'Sessão terminada.')),
      () => (ended += 1),
    );
    actor.send({ type: 'policy.save' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(ended).toBe(1);
  });
});
