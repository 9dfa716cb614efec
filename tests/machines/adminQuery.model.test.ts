import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import { adminQueryMachine as queryMachine } from '../../machines/adminQuery.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Params = { status: string };
type Event = EventFrom<typeof queryMachine>;

const EVENTS = [
  { type: 'query.change', params: { status: 'paid' } },
  { type: 'query.change', params: { status: 'cancelled' } },
  { type: 'query.reload' },
  { type: 'xstate.done.actor.load', output: ['#1', '#2'] },
  { type: 'xstate.error.actor.load', error: new ApiError('operator_forbidden', 'Owners only.') },
  { type: 'xstate.error.actor.load', error: new ApiError('unauthorized', 'Session ended.') },
  { type: 'xstate.error.actor.load', error: new ApiError('internal_error') },
] as unknown as Event[];

const coverage = coverageOf(queryMachine);
afterAll(() => coverage.save());

describe('console list machine, model-based', () => {
  const paths = generatePaths(queryMachine, {
    events: EVENTS,
    input: { params: { status: 'all' } },
    serializeState: (state) =>
      `${JSON.stringify(state.value)} ${(state.context.params as Params).status} data:${state.context.data !== null} error:${state.context.error !== null}`,
  });
  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const loads: Params[] = [];
      let sessionEnds = 0;
      await replayPath(queryMachine, path, {
        scripted: ['load'],
        input: { params: { status: 'all' } },
        coverage,
        provide: { actions: { sessionEnded: () => (sessionEnds += 1) } },
        onCall: (_, params) => loads.push(params as Params),
        check: (snapshot, step) => {
          const type = step.event.type as string;
          // One load at a time, always for the filters on screen.
          expect(Object.keys(snapshot.children).length).toBe(snapshot.matches('loading') ? 1 : 0);
          if (snapshot.matches('loading')) expect(loads.at(-1)).toEqual(snapshot.context.params);
          // A role refusal shows no data; a server fault says the generic sentence.
          if (snapshot.matches('forbidden')) expect(snapshot.context.data).toBeNull();
          if (type === 'xstate.error.actor.load') {
            const code = (step.event as unknown as { error: ApiError }).error.code;
            expect(sessionEnds > 0).toBe(code === 'unauthorized' || sessionEnds > 0);
            if (code === 'internal_error') expect(snapshot.context.error).toEqual({ key: 'generic' });
          }
          if (snapshot.matches('loaded')) expect(snapshot.context.error).toBeNull();
        },
      });
    });
  }
});

describe('console list machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
