import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { adminDraftMachine } from '../../machines/adminDraft.machine.ts';

describe('a console form draft', () => {
  it('starts from the form’s first values, merges each change, and starts again from the values it is given', () => {
    const draft = createActor(adminDraftMachine, {
      input: { fields: { reason: '', cancelFuture: true } },
    }).start();
    expect(draft.getSnapshot().context.fields).toEqual({ reason: '', cancelFuture: true });
    draft.send({ type: 'draft.change', patch: { reason: 'Avaria' } });
    draft.send({ type: 'draft.change', patch: { cancelFuture: false } });
    expect(draft.getSnapshot().context.fields).toEqual({ reason: 'Avaria', cancelFuture: false });
    draft.send({ type: 'draft.reset', fields: { reason: '', cancelFuture: true } });
    expect(draft.getSnapshot().context.fields).toEqual({ reason: '', cancelFuture: true });
  });
});
