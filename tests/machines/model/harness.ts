import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import {
  createActor,
  fromPromise,
  SimulatedClock,
  type AnyStateMachine,
  type InputFrom,
  type InspectionEvent,
  type SnapshotFrom,
} from 'xstate';
import { inventory, transitionKey, type AnyTransition, type ModelPath, type Step } from './paths.ts';

export { generatePaths, inventory, type ModelPath } from './paths.ts';

// Model-based testing of the client's machines: paths generated from each machine's graph (@xstate/graph) are
// replayed on the real machine with scripted actors, and the states and transitions they exercise are counted
// against everything the machine defines. `npm test` prints the totals (tests/machines/model/report.ts).

// One directory per run (named by the global setup), so runs at once on one machine keep their figures apart.
export const COVERAGE_ROOT = path.resolve(import.meta.dirname, '../../../test-results/model-coverage');
export function coverageDir(): string {
  return path.join(COVERAGE_ROOT, process.env.MODEL_COVERAGE_RUN ?? 'default');
}
export const MIN_STATE_COVERAGE = 1;
export const MIN_TRANSITION_COVERAGE = 0.95;

export type Coverage = {
  machine: string;
  paths: number;
  states: { covered: string[]; total: string[] };
  transitions: { covered: string[]; total: string[] };
};

/** Collects what replayed paths exercise; `save` writes it where the report finds it. */
export function coverageOf(machine: AnyStateMachine) {
  const all = inventory(machine);
  const states = new Set<string>();
  const transitions = new Set<string>();
  let paths = 0;
  return {
    inspect(event: InspectionEvent) {
      if (event.type !== '@xstate.microstep') return;
      const microstep = event as InspectionEvent & { _transitions: AnyTransition[] };
      // Only the machine under test: children (spawned or invoked machines) have their own models.
      if (event.actorRef.sessionId !== event.rootId) return;
      for (const transition of microstep._transitions) {
        transitions.add(transitionKey(transition));
        // A transition taken proves its source was active, also a transient one no snapshot ever shows.
        states.add(transition.source.id);
      }
    },
    visit(snapshot: unknown) {
      for (const node of (snapshot as { _nodes: { id: string }[] })._nodes) states.add(node.id);
    },
    countPath() {
      paths += 1;
    },
    result(): Coverage {
      return {
        machine: machine.id,
        paths,
        states: { covered: all.states.filter((id) => states.has(id)), total: all.states },
        transitions: {
          covered: all.transitions.filter((key) => transitions.has(key)),
          total: all.transitions,
        },
      };
    },
    save() {
      mkdirSync(coverageDir(), { recursive: true });
      writeFileSync(path.join(coverageDir(), `${machine.id}.json`), JSON.stringify(this.result(), null, 2));
    },
    /** Fails when the generated paths miss a state or more than 5% of the transitions, naming what they miss. */
    assertComplete() {
      const result = this.result();
      const missedStates = result.states.total.filter((id) => !result.states.covered.includes(id));
      const missedTransitions = result.transitions.total.filter(
        (key) => !result.transitions.covered.includes(key),
      );
      expect(missedStates, 'states no generated path reaches').toEqual([]);
      expect(
        result.transitions.covered.length / result.transitions.total.length,
        `transitions no generated path takes:\n${missedTransitions.join('\n')}`,
      ).toBeGreaterThanOrEqual(MIN_TRANSITION_COVERAGE);
    },
  };
}

export function readCoverage(file: string): Coverage {
  return JSON.parse(readFileSync(file, 'utf8')) as Coverage;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

/**
 * Replays a generated path on the real machine. Every promise actor named in `scripted` is replaced by one
 * that waits for the path: `xstate.done.actor.<id>` resolves it with the event's output and
 * `xstate.error.actor.<id>` rejects it, so the machine goes through its real invoke and its real handlers.
 * `xstate.after.*` events advance a simulated clock. After each step the machine must be in the state the
 * model predicted, and `check` may assert more.
 */
export async function replayPath<TMachine extends AnyStateMachine>(
  machine: TMachine,
  modelPath: ModelPath<TMachine>,
  options: {
    scripted: string[];
    input?: InputFrom<TMachine>;
    coverage: ReturnType<typeof coverageOf>;
    provide?: Parameters<TMachine['provide']>[0];
    check?: (snapshot: SnapshotFrom<TMachine>, step: Step<TMachine>) => void;
    /** Told of each call a scripted actor receives (its invoke id and input), as a server would see it. */
    onCall?: (id: string, input: unknown) => void;
    /**
     * Events the app delivers through an actor of the machine's own (the session bridge) rather than by
     * `send`: the step makes the world change (a login) and the machine must hear it by itself.
     */
    through?: Record<string, (event: unknown) => void>;
  },
): Promise<void> {
  const pending = new Map<string, Pending>();
  const actors = Object.fromEntries(
    options.scripted.map((name) => [
      name,
      fromPromise(
        ({ self, input }) =>
          new Promise((resolve, reject) => {
            options.onCall?.(self.id, input);
            pending.set(self.id, { resolve, reject });
          }),
      ),
    ]),
  );
  const clock = new SimulatedClock();
  const provided = machine.provide({
    ...(options.provide ?? {}),
    actors: { ...(options.provide?.actors ?? {}), ...actors },
  } as never) as TMachine;
  const actor = createActor(provided, {
    ...(options.input === undefined ? {} : { input: options.input }),
    clock,
    inspect: (event) => options.coverage.inspect(event),
  });
  actor.start();
  options.coverage.countPath();
  try {
    for (const step of modelPath.steps) {
      const type = step.event.type as string;
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);
      const delay = /^xstate\.after\.(\d+)\./.exec(type);
      if (answer?.[2]) {
        const call = pending.get(answer[2]);
        if (!call)
          throw new Error(`the machine is not waiting for ${answer[2]} (path ${modelPath.description})`);
        pending.delete(answer[2]);
        if (answer[1] === 'done') call.resolve((step.event as unknown as { output: unknown }).output);
        else call.reject((step.event as unknown as { error: unknown }).error);
        await settle();
      } else if (options.through?.[type]) {
        options.through[type](step.event);
        await settle();
      } else if (delay?.[1]) {
        clock.increment(Number(delay[1]));
        await settle();
      } else if (type !== 'xstate.init') {
        actor.send(step.event);
        await settle();
      }
      const snapshot = actor.getSnapshot();
      expect(
        (snapshot as { value: unknown }).value,
        `after ${type} on the path ${modelPath.description}`,
      ).toEqual((step.state as { value: unknown }).value);
      options.coverage.visit(snapshot);
      options.check?.(snapshot, step);
    }
  } finally {
    actor.stop();
  }
}

async function settle(): Promise<void> {
  for (let round = 0; round < 3; round += 1) await new Promise((resolve) => setImmediate(resolve));
}
