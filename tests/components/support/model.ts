import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { act, fireEvent, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyStateMachine, EventFromLogic, InspectionEvent, SnapshotFrom } from 'xstate';
import { coverageDir, type Coverage } from '../../machines/model/harness.ts';
import { inventory, transitionKey, type AnyTransition, type ModelPath } from '../../machines/model/paths.ts';
import type { Answer, Call, Network } from './network.ts';
import { MIN_UI_TRANSITION_COVERAGE } from './threshold.ts';

// Model-based tests through the real components: a path generated from a flow's machine is driven through the
// rendered feature. A user event is a UI action (typing, a click); an actor's answer is the network's answer to
// the call the app made, given when the path says it arrives. After every step the running flow must be in the
// state the model predicts, and the feature must show it. What the run covers is recorded from the running
// flows' own inspection events (the transitions their actors took), never from the paths.

export { MIN_UI_TRANSITION_COVERAGE };

type Snapshot<M extends AnyStateMachine> = SnapshotFrom<M>;
type Event<M extends AnyStateMachine> = EventFromLogic<M>;

/**
 * What the running flows of one machine did: the transitions and states they took, and their last snapshot.
 * `instance` follows only one of the machine's flows on a page that runs several (a console page's lists and
 * changes): the n-th one (from 0) made since the path started, in the order the page made them.
 */
export function recorder(machine: AnyStateMachine, options: { instance?: number } = {}) {
  const all = inventory(machine);
  const transitions = new Set<string>();
  const states = new Set<string>();
  let paths = 0;
  let current: { value: unknown; status: string } | null = null;
  const made: string[] = [];
  const chosen = (sessionId: string) => {
    if (options.instance === undefined) return true;
    if (!made.includes(sessionId)) made.push(sessionId);
    return made.indexOf(sessionId) === options.instance;
  };
  const ownFlow = (event: InspectionEvent) =>
    event.actorRef.sessionId === event.rootId &&
    (event.actorRef as unknown as { logic?: { id?: string } }).logic?.id === machine.id &&
    chosen(event.actorRef.sessionId);
  return {
    inspect: (event: InspectionEvent) => {
      if (!ownFlow(event)) return;
      if (event.type === '@xstate.microstep')
        for (const transition of (event as unknown as { _transitions: AnyTransition[] })._transitions) {
          transitions.add(transitionKey(transition));
          states.add(transition.source.id);
        }
      if (event.type === '@xstate.snapshot') {
        const snapshot = event.snapshot as unknown as {
          value: unknown;
          status: string;
          _nodes: { id: string }[];
        };
        current = snapshot;
        for (const node of snapshot._nodes) states.add(node.id);
      }
    },
    startPath() {
      current = null;
      made.length = 0;
      paths += 1;
    },
    /** The running flow's state now. */
    value: () => current?.value,
    result(): Coverage {
      return {
        machine: `${machine.id} (UI)`,
        paths,
        states: { covered: all.states.filter((id) => states.has(id)), total: all.states },
        transitions: {
          covered: all.transitions.filter((key) => transitions.has(key)),
          total: all.transitions,
        },
      };
    },
    /** Prints and saves (for the run's report) what the UI drove; fails below the required share. */
    assertCovered(minimum = MIN_UI_TRANSITION_COVERAGE) {
      const result = this.result();
      mkdirSync(coverageDir(), { recursive: true });
      writeFileSync(path.join(coverageDir(), `${machine.id}.ui.json`), JSON.stringify(result, null, 2));
      const missed = result.transitions.total.filter((key) => !result.transitions.covered.includes(key));
      const share = result.transitions.covered.length / result.transitions.total.length;
      console.log(
        `[model UI] ${machine.id}: ${result.paths} paths driven, states ${result.states.covered.length}/${result.states.total.length}, transitions ${result.transitions.covered.length}/${result.transitions.total.length} (${(share * 100).toFixed(1)}%)${missed.length ? `\n  not driven: ${missed.join('\n              ')}` : ''}`,
      );
      expect(share, `transitions the UI did not drive:\n${missed.join('\n')}`).toBeGreaterThanOrEqual(
        minimum,
      );
    },
  };
}

export type Recorder = ReturnType<typeof recorder>;

export type Driver<M extends AnyStateMachine, TWorld> = {
  /** The network answer that the path's actor answer stands for, and the operations that actor calls. */
  answer: (
    event: { type: string; output?: unknown; error?: unknown },
    before: Snapshot<M>,
    world: TWorld,
  ) => { operations: string[]; answer: Answer | ((call: Call) => Answer) };
  /** One UI action per user event type. */
  act: Partial<Record<string, (event: Event<M>, before: Snapshot<M>, world: TWorld) => void | Promise<void>>>;
  /** What the user must see in the state (throws otherwise); retried until it holds. */
  check: (state: Snapshot<M>, world: TWorld) => void;
};

const ANSWER = /^xstate\.(done|error)\.actor\.(.+)$/;

/** Drives one path through the rendered feature; `world` is what the path's start arranged. */
export async function drivePath<M extends AnyStateMachine, TWorld extends { network: Network }>(
  driver: Driver<M, TWorld>,
  modelPath: ModelPath<M>,
  flow: Recorder,
  world: TWorld,
): Promise<void> {
  const answerOf = (index: number) => {
    const step = modelPath.steps[index];
    if (!step || !ANSWER.test(step.event.type as string)) return null;
    return driver.answer(step.event, modelPath.steps[index - 1]!.state, world);
  };
  for (const [index, step] of modelPath.steps.entries()) {
    const type = step.event.type as string;
    const before = index === 0 ? step.state : modelPath.steps[index - 1]!.state;
    const answer = answerOf(index);
    if (answer) {
      if (answer.operations.length > 0)
        await act(async () => {
          await world.network.answer(answer.operations, answer.answer);
        });
    } else if (type !== 'xstate.init') {
      const action = driver.act[type];
      if (!action) throw new Error(`no UI action for the event ${type}`);
      await act(async () => {
        await action(step.event, before, world);
      });
    }
    // An answer that needs no call (a session check without a token) comes at once: the state waiting for it
    // is passed before anyone can see it.
    if (answerOf(index + 1)?.operations.length === 0) continue;
    await waitFor(
      () =>
        expect(
          flow.value(),
          `the running flow (${JSON.stringify(flow.value())}) after ${type} on ${modelPath.description}`,
        ).toEqual((step.state as { value: unknown }).value),
      { timeout: 1_000, interval: 5 },
    );
    await waitFor(
      () => {
        try {
          driver.check(step.state, world);
        } catch (error) {
          const where = `after ${type} (step ${index} of ${modelPath.description}), in ${JSON.stringify((step.state as { value: unknown }).value)}`;
          if (error instanceof Error) error.message = `${where}: ${error.message}`;
          throw error;
        }
      },
      { timeout: 1_000, interval: 5 },
    );
  }
}

/** A pointer's press on an element, as a browser gives it: down, up, click. */
export function press(element: Element): void {
  fireEvent.mouseDown(element);
  fireEvent.mouseUp(element);
  fireEvent.click(element);
}
