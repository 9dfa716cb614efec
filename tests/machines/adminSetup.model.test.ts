import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import { adminSetupMachine } from '../../machines/adminSetup.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof adminSetupMachine>;
const EVENTS = [
  { type: 'field.change', field: 'password', value: 'a long new secret' },
  { type: 'field.change', field: 'confirmPassword', value: 'a long new secret' },
  { type: 'field.change', field: 'confirmPassword', value: 'something else' },
  { type: 'setup.submit' },
  { type: 'xstate.done.actor.setPassword' },
  {
    type: 'xstate.error.actor.setPassword',
    error: new ApiError('invalid_setup_token', 'This link is no longer valid.'),
  },
  {
    type: 'xstate.error.actor.setPassword',
    error: new ApiError('password_too_short', 'The password is too short.'),
  },
  { type: 'xstate.error.actor.setPassword', error: new ApiError(null) },
] as unknown as Event[];

const coverage = coverageOf(adminSetupMachine);
afterAll(() => coverage.save());

describe('admin password setup machine, model-based', () => {
  const paths = generatePaths(adminSetupMachine, {
    events: EVENTS,
    input: { setupToken: 'one-time' },
    serializeState: (state) =>
      `${JSON.stringify(state.value)} ${state.context.password}|${state.context.confirmPassword} error:${state.context.error !== null}`,
  });
  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const sent: unknown[] = [];
      let previous = { password: '', confirmPassword: '' };
      await replayPath(adminSetupMachine, path, {
        scripted: ['setPassword'],
        input: { setupToken: 'one-time' },
        coverage,
        onCall: (_, input) => sent.push(input),
        check: (snapshot, step) => {
          const type = step.event.type as string;
          if (type === 'setup.submit') {
            const differ = previous.password !== previous.confirmPassword;
            // Different passwords never reach the server; equal ones are sent with the link's token.
            if (differ) {
              expect(sent).toHaveLength(0);
              expect(snapshot.context.error).toEqual({ key: 'passwords-do-not-match' });
            } else if (previous.password !== '') {
              expect(sent.at(-1)).toEqual({ setupToken: 'one-time', password: previous.password });
            }
          }
          // A used or expired link is final: the operator needs a new one, not another try.
          if (type === 'xstate.error.actor.setPassword') {
            const code = (step.event as unknown as { error: ApiError }).error.code;
            expect(snapshot.matches('linkInvalid')).toBe(code === ('invalid_setup_token' as never));
          }
          // Done, no password stays in memory.
          if (snapshot.matches('done')) expect(snapshot.context.password).toBe('');
          previous = {
            password: snapshot.context.password,
            confirmPassword: snapshot.context.confirmPassword,
          };
        },
      });
    });
  }
});

describe('admin password setup machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
