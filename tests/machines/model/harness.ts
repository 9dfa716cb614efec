import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getAdjacencyMap, getShortestPaths, getSimplePaths, serializeSnapshot } from '@xstate/graph';
import { expect } from 'vitest';
import {
  createActor,
  fromPromise,
  SimulatedClock,
  type AnyActorLogic,
  type AnyStateMachine,
  type EventFromLogic,
  type InputFrom,
  type InspectionEvent,
  type SnapshotFrom,
} from 'xstate';

// Model-based testing of the client's machines: paths generated from each machine's graph (@xstate/graph) are
// replayed on the real machine with scripted actors, and the states and transitions they exercise are counted
// against everything the machine defines. `npm test` prints the totals (tests/machines/model/report.ts).

type AnyTransition = {
  source: { id: string; transitions: Map<string, unknown[]>; always?: unknown[] };
  eventType: string;
  target?: readonly { id: string }[];
};
type AnyStateNode = {
  id: string;
  states: Record<string, AnyStateNode>;
  transitions: Map<string, AnyTransition[]>;
  always?: AnyTransition[];
};

// One directory per run (named by the global setup), so runs at once on one machine keep their figures apart.
export const COVERAGE_ROOT = path.resolve(import.meta.dirname, '../../../test-results/model-coverage');
export function coverageDir(): string {
  return path.join(COVERAGE_ROOT, process.env.MODEL_COVERAGE_RUN ?? 'default');
}
export const MIN_STATE_COVERAGE = 1;
export const MIN_TRANSITION_COVERAGE = 0.95;

function transitionKey(transition: AnyTransition): string {
  const candidates =
    transition.eventType === ''
      ? (transition.source.always ?? [])
      : (transition.source.transitions.get(transition.eventType) ?? []);
  const index = candidates.indexOf(transition);
  const targets = (transition.target ?? []).map((target) => target.id).join(',') || '(self)';
  return `${transition.source.id} --${transition.eventType || 'always'}#${index}--> ${targets}`;
}

/** Every state node (the root aside) and every transition the machine defines. */
export function inventory(machine: AnyStateMachine): { states: string[]; transitions: string[] } {
  const states: string[] = [];
  const transitions: string[] = [];
  const walk = (node: AnyStateNode, isRoot: boolean) => {
    if (!isRoot) states.push(node.id);
    for (const list of node.transitions.values())
      for (const item of list) transitions.push(transitionKey(item));
    for (const item of node.always ?? []) transitions.push(transitionKey(item));
    for (const child of Object.values(node.states)) walk(child, false);
  };
  walk(machine.root as unknown as AnyStateNode, true);
  return { states, transitions };
}

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

type Step<TLogic extends AnyActorLogic> = { event: EventFromLogic<TLogic>; state: SnapshotFrom<TLogic> };
export type ModelPath<TLogic extends AnyActorLogic> = {
  steps: Step<TLogic>[];
  state: SnapshotFrom<TLogic>;
  description: string;
};

/** The machine together with the calls it is waiting for: each invoked actor answers once, done or error. */
type WorldSnapshot = {
  status: 'active';
  output: undefined;
  error: undefined;
  machine: { value: unknown; children: Record<string, unknown>; can: (event: unknown) => boolean };
  pending: string[];
};

const ANSWER = /^xstate\.(?:done|error)\.actor\.(.+)$/;

function answeredActor(event: { type: string }): string | null {
  return ANSWER.exec(event.type)?.[1] ?? null;
}

/**
 * Wraps a machine as the logic the graph traverses: an actor's answer is only possible while the machine
 * waits for it (invoked and not yet answered), as in the running app. Without this the graph would answer
 * the same call twice, a path no real server can produce.
 */
function worldOf(machine: AnyStateMachine): AnyActorLogic {
  const waitingFor = (
    previous: Record<string, unknown>,
    next: Record<string, unknown>,
    pending: string[],
    answered: string | null,
  ) => {
    const still = pending.filter(
      (id) => id !== answered && next[id] !== undefined && next[id] === previous[id],
    );
    const started = Object.keys(next).filter((id) => next[id] !== previous[id]);
    return [...new Set([...still, ...started])].sort();
  };
  return {
    config: machine,
    getInitialSnapshot(scope: never, input: unknown): WorldSnapshot {
      const initial = machine.getInitialSnapshot(scope, input) as unknown as WorldSnapshot['machine'];
      return {
        status: 'active',
        output: undefined,
        error: undefined,
        machine: initial,
        pending: Object.keys(initial.children).sort(),
      };
    },
    transition(snapshot: WorldSnapshot, event: { type: string }, scope: never): WorldSnapshot {
      const answered = answeredActor(event);
      if (answered !== null && !snapshot.pending.includes(answered)) return snapshot;
      const next = machine.transition(
        snapshot.machine as never,
        event as never,
        scope,
      ) as unknown as WorldSnapshot['machine'];
      return {
        ...snapshot,
        machine: next,
        pending: waitingFor(snapshot.machine.children, next.children, snapshot.pending, answered),
      };
    },
    getPersistedSnapshot: (snapshot: WorldSnapshot) => snapshot,
  } as unknown as AnyActorLogic;
}

function canTake(world: WorldSnapshot, event: { type: string }): boolean {
  const answered = answeredActor(event);
  if (answered !== null && !world.pending.includes(answered)) return false;
  return world.machine.can(event);
}

/**
 * The paths of the machine's graph over `events`: the shortest path to every distinct state, each of those
 * extended by every transition its state can take, and, when the graph is small enough, every simple path
 * (each state at most once); deduplicated.
 */
export function generatePaths<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: {
    events: EventFromLogic<TMachine>[] | ((state: SnapshotFrom<TMachine>) => EventFromLogic<TMachine>[]);
    input?: InputFrom<TMachine>;
    serializeState?: (state: SnapshotFrom<TMachine>) => string;
    /** Simple paths are added when the graph has at most this many distinct states (they grow fast). */
    maxStatesForSimplePaths?: number;
  },
): ModelPath<TMachine>[] {
  // createTestModel refuses machines that invoke actors (all of ours do), so the paths come from the same
  // package's traversal functions, which createTestModel itself is built on.
  const serializeMachine = (options.serializeState ??
    ((state: unknown) => serializeSnapshot(state as never))) as (state: unknown) => string;
  const serialize = (world: WorldSnapshot) =>
    `${serializeMachine(world.machine)} waiting:${world.pending.join(',')}`;
  const events = options.events;
  const traversal = {
    events: (world: WorldSnapshot) =>
      typeof events === 'function' ? events(world.machine as SnapshotFrom<TMachine>) : events,
    ...(options.input === undefined ? {} : { input: options.input }),
    serializeState: serialize,
  } as never;
  const logic = worldOf(machine);
  const shortest = getShortestPaths(logic, traversal);
  type Adjacency = Record<
    string,
    { state: unknown; transitions: Record<string, { event: unknown; state: unknown }> }
  >;
  const adjacency = getAdjacencyMap(logic, traversal) as unknown as Adjacency;
  // Every transition, not only every state: the shortest path to each state, extended by each event that
  // state handles (guards evaluated), so a transition that leads back to a known state is taken too.
  const toState = new Map(
    shortest.map((candidate) => [serialize(candidate.state as WorldSnapshot), candidate]),
  );
  const edges: typeof shortest = [];
  for (const [key, node] of Object.entries(adjacency)) {
    const head = toState.get(key);
    if (!head) continue;
    for (const next of Object.values(node.transitions)) {
      if (!canTake(node.state as WorldSnapshot, next.event as { type: string })) continue;
      edges.push({
        ...head,
        steps: [...head.steps, { event: next.event, state: next.state }],
        state: next.state,
      } as (typeof shortest)[number]);
    }
  }
  const small = Object.keys(adjacency).length <= (options.maxStatesForSimplePaths ?? 12);
  const chosen = [...shortest, ...edges, ...(small ? getSimplePaths(logic, traversal) : [])];
  const seen = new Set<string>();
  const paths: ModelPath<TMachine>[] = [];
  for (const candidate of chosen) {
    const key = candidate.steps.map((step) => JSON.stringify(step.event)).join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    const steps = candidate.steps.map((step) => ({
      event: step.event,
      state: (step.state as WorldSnapshot).machine,
    })) as unknown as Step<TMachine>[];
    paths.push({
      steps,
      state: (candidate.state as WorldSnapshot).machine as SnapshotFrom<TMachine>,
      description: describePath(steps as unknown as { event: { type: string } }[]),
    });
  }
  return paths;
}

function describePath(steps: { event: { type: string } }[]): string {
  const events = steps
    .map((step) => step.event.type)
    .filter((type) => type !== 'xstate.init')
    .map((type) =>
      type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => (kind === 'done' ? '✓' : '✗')),
    );
  return events.length === 0 ? '(start)' : events.join(' → ');
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
  },
): Promise<void> {
  const pending = new Map<string, Pending>();
  const actors = Object.fromEntries(
    options.scripted.map((name) => [
      name,
      fromPromise(
        ({ self }) =>
          new Promise((resolve, reject) => {
            pending.set(self.id, { resolve, reject });
          }),
      ),
    ]),
  );
  const clock = new SimulatedClock();
  const provided = machine.provide({
    ...(options.provide ?? {}),
    actors: { ...((options.provide as { actors?: object } | undefined)?.actors ?? {}), ...actors },
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
      } else if (delay?.[1]) {
        clock.increment(Number(delay[1]));
        await settle();
      } else if (type !== 'xstate.init') {
        actor.send(step.event);
        await settle();
      }
      const snapshot = actor.getSnapshot() as SnapshotFrom<TMachine>;
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
  for (let round = 0; round < 3; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}
