import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom } from 'xstate';
import { adminTaskMachine as taskMachine } from '../../machines/adminTask.machine.ts';
import { ApiError } from '../../machines/api.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof taskMachine>;

const EVENTS = [
  { type: 'task.ask', input: { memberId: 3 } },
  { type: 'task.confirm' },
  { type: 'task.dismiss' },
  { type: 'xstate.done.actor.run', output: { cancelled: 2 } },
  { type: 'xstate.error.actor.run', error: new ApiError('not_found', 'No such member.') },
  { type: 'xstate.error.actor.run', error: new ApiError('unauthorized', 'Session ended.') },
] as unknown as Event[];

const coverage = coverageOf(taskMachine);
afterAll(() => coverage.save());

describe('console action machine, model-based', () => {
  const paths = generatePaths(taskMachine, {
    events: EVENTS,
    serializeState: (state) =>
      `${JSON.stringify(state.value)} input:${state.context.input !== null} output:${state.context.output !== null} error:${state.context.error !== null}`,
  });
  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      let runs = 0;
      let completed = 0;
      let answered = 0;
      await replayPath(taskMachine, path, {
        scripted: ['run'],
        coverage,
        provide: { actions: { completed: () => (completed += 1) } },
        onCall: () => (runs += 1),
        check: (snapshot, step) => {
          const type = step.event.type as string;
          // Nothing runs without a confirmation, and a confirmation runs it exactly once.
          const confirms = path.steps
            .slice(0, path.steps.indexOf(step) + 1)
            .filter((s) => s.event.type === 'task.confirm');
          expect(runs).toBeLessThanOrEqual(confirms.length);
          expect(Object.keys(snapshot.children).length).toBe(snapshot.matches('running') ? 1 : 0);
          if (type === 'xstate.done.actor.run') answered += 1;
          expect(completed).toBe(answered);
          // A failure goes back to the question with the reason; the input is kept for another try.
          if (type === 'xstate.error.actor.run' && snapshot.matches('confirming')) {
            expect(snapshot.context.error).toEqual({ text: 'No such member.' });
            expect(snapshot.context.input).toEqual({ memberId: 3 });
          }
          if (snapshot.matches('idle')) expect(snapshot.context.input).toBeNull();
        },
      });
    });
  }
});

describe('console action machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
