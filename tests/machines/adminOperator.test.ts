import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { CreatedOperator } from '../../machines/adminConsole.actors.ts';
import { adminOperatorMachine, type NewOperator } from '../../machines/adminOperator.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { formCall } from './adminForms.ts';

function made(input: NewOperator): CreatedOperator {
  return {
    operator: { id: 7, ...input, branch_ids: null, password_set: false, created_at: '2026-11-24T04:00:00Z' },
    setup_url: 'https://example.test/admin/setup#token',
    setup_expires_at: '2026-11-25T04:00:00Z',
    totp_uri: 'otpauth://totp/x?secret=ABC',
  };
}

function start(answer: (input: NewOperator) => Promise<CreatedOperator>) {
  const call = formCall(answer);
  const actor = createActor(
    adminOperatorMachine.provide({ actors: { createOperator: call.logic }, actions: call.actions }),
  ).start();
  return { actor, asked: call.asked, events: call.events };
}

describe('new operator form machine', () => {
  it('does not create without an e-mail', () => {
    const { actor, asked } = start(async (input) => made(input));
    expect(actor.getSnapshot().can({ type: 'operator.create' })).toBe(false);
    actor.send({ type: 'email.change', value: '   ' });
    actor.send({ type: 'operator.create' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(asked).toEqual([]);
  });

  it('creates with the trimmed e-mail and the role, shows the result once, empties the e-mail and keeps the role', async () => {
    const { actor, asked, events } = start(async (input) => made(input));
    actor.send({ type: 'email.change', value: ' ana@ginasio.example ' });
    actor.send({ type: 'role.change', role: 'owner' });
    actor.send({ type: 'operator.create' });
    expect(actor.getSnapshot().matches('creating')).toBe(true);
    await waitFor(actor, (state) => state.matches('editing'));
    expect(asked).toEqual([{ email: 'ana@ginasio.example', role: 'owner' }]);
    const { context } = actor.getSnapshot();
    expect(context.created?.setup_url).toBe('https://example.test/admin/setup#token');
    expect(context).toMatchObject({ email: '', role: 'owner', error: null });
    expect(events.created).toBe(1);
    actor.send({ type: 'email.change', value: 'rui@ginasio.example' });
    actor.send({ type: 'operator.create' });
    expect(actor.getSnapshot().context.created).toBeNull();
  });

  it('keeps a refusal on the form with its sentence and the e-mail as typed', async () => {
    const { actor, events } = start(async () => {
      throw new ApiError('validation_failed', 'Esse e-mail já é de um operador.');
    });
    actor.send({ type: 'email.change', value: 'ana@ginasio.example' });
    actor.send({ type: 'operator.create' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(actor.getSnapshot().context).toMatchObject({
      email: 'ana@ginasio.example',
      created: null,
      error: { text: 'Esse e-mail já é de um operador.' },
    });
    expect(events).toEqual({ created: 0, sessionEnded: 0 });
  });

  it('reports an ended session instead of an error', async () => {
    const { actor, events } = start(async () => {
      throw new ApiError('unauthorized', 'Sessão terminada.');
    });
    actor.send({ type: 'email.change', value: 'ana@ginasio.example' });
    actor.send({ type: 'operator.create' });
    await waitFor(actor, (state) => state.matches('editing'));
    expect(events.sessionEnded).toBe(1);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
