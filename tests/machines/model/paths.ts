import { getAdjacencyMap, getShortestPaths, getSimplePaths, serializeSnapshot } from '@xstate/graph';
import {
  createActor,
  fromPromise,
  type ActorLogic,
  type AnyActorLogic,
  type EventObject,
  type AnyStateMachine,
  type EventFromLogic,
  type InputFrom,
  type InspectionEvent,
  type SnapshotFrom,
} from 'xstate';

// Path generation for the model-based tests, free of any test runner: the vitest harness (harness.ts) replays
// these paths on the machine, the Playwright model specs (e2e/model-*.spec.ts) drive the real UI with them.

export type AnyTransition = {
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

export function transitionKey(transition: AnyTransition): string {
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
  walk(machine.root, true);
  return { states, transitions };
}

export type Step<TLogic extends AnyActorLogic> = {
  event: EventFromLogic<TLogic>;
  state: SnapshotFrom<TLogic>;
};
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
  machine: {
    value: unknown;
    status: string;
    children: Record<string, unknown>;
    can: (event: unknown) => boolean;
  };
  pending: string[];
};

/** The wrapped machine as the graph sees it: world snapshots, any event, the machine's input. */
type WorldLogic = ActorLogic<WorldSnapshot, EventObject, unknown>;

const ANSWER = /^xstate\.(?:done|error)\.actor\.(.+)$/;

function answeredActor(event: { type: string }): string | null {
  return ANSWER.exec(event.type)?.[1] ?? null;
}

/**
 * Wraps a machine as the logic the graph traverses: an actor's answer is only possible while the machine
 * waits for it (invoked and not yet answered), as in the running app. Without this the graph would answer
 * the same call twice, a path no real server can produce.
 */
function worldOf(machine: AnyStateMachine): WorldLogic {
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
      // A machine that reached a final state is stopped: it takes no event, as a running actor would not.
      if (snapshot.machine.status === 'done') return snapshot;
      const next = machine.transition(
        snapshot.machine as never,
        event,
        scope,
      ) as unknown as WorldSnapshot['machine'];
      return {
        ...snapshot,
        machine: next,
        pending: waitingFor(snapshot.machine.children, next.children, snapshot.pending, answered),
      };
    },
    getPersistedSnapshot: (snapshot: WorldSnapshot) => snapshot,
  } as unknown as WorldLogic;
}

function canTake(world: WorldSnapshot, event: { type: string }): boolean {
  if (world.machine.status === 'done') return false;
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
  const toState = new Map(shortest.map((candidate) => [serialize(candidate.state), candidate]));
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
      state: step.state.machine,
    })) as unknown as Step<TMachine>[];
    paths.push({
      steps,
      state: candidate.state.machine as SnapshotFrom<TMachine>,
      description: describePath(steps),
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

/** The states and transitions of the machine that a set of paths takes, out of all it defines. */
export type PathCoverage = {
  paths: number;
  states: { covered: string[]; total: string[] };
  transitions: { covered: string[]; total: string[] };
};

/**
 * Replays paths on the machine (each invoked promise actor named in `scripted` answers as the path says) only to
 * record the states and transitions they take, from XState's inspection of each microstep. No assertion: the
 * vitest harness checks the machine; this tells what another runner (the e2e specs) exercised with the paths.
 */
export async function coverageOfPaths<TMachine extends AnyStateMachine>(
  machine: TMachine,
  paths: ModelPath<TMachine>[],
  options: { scripted: string[]; input?: InputFrom<TMachine> },
): Promise<PathCoverage> {
  const all = inventory(machine);
  const states = new Set<string>();
  const transitions = new Set<string>();
  for (const modelPath of paths) {
    const pending = new Map<
      string,
      { resolve: (value: unknown) => void; reject: (error: unknown) => void }
    >();
    const actors = Object.fromEntries(
      options.scripted.map((name) => [
        name,
        fromPromise(
          ({ self }) => new Promise((resolve, reject) => void pending.set(self.id, { resolve, reject })),
        ),
      ]),
    );
    const actor = createActor(machine.provide({ actors } as never), {
      ...(options.input === undefined ? {} : { input: options.input }),
      inspect: (event: InspectionEvent) => {
        if (event.type !== '@xstate.microstep' || event.actorRef.sessionId !== event.rootId) return;
        for (const transition of (event as unknown as { _transitions: AnyTransition[] })._transitions) {
          transitions.add(transitionKey(transition));
          states.add(transition.source.id);
        }
      },
    });
    actor.start();
    for (const step of modelPath.steps) {
      const type = step.event.type as string;
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(type);
      if (answer?.[2]) {
        const call = pending.get(answer[2]);
        pending.delete(answer[2]);
        if (answer[1] === 'done') call?.resolve((step.event as unknown as { output: unknown }).output);
        else call?.reject((step.event as unknown as { error: unknown }).error);
      } else if (type !== 'xstate.init') actor.send(step.event);
      for (let round = 0; round < 3; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
      for (const node of (actor.getSnapshot() as unknown as { _nodes: { id: string }[] })._nodes)
        states.add(node.id);
    }
    actor.stop();
  }
  return {
    paths: paths.length,
    states: { covered: all.states.filter((id) => states.has(id)), total: all.states },
    transitions: { covered: all.transitions.filter((key) => transitions.has(key)), total: all.transitions },
  };
}

/** Drops every path that is a prefix of another one: the longer path checks the same states on its way. */
export function withoutPrefixes<M extends AnyStateMachine>(paths: ModelPath<M>[]): ModelPath<M>[] {
  const keyOf = (path: ModelPath<M>) => path.steps.map((step) => `${JSON.stringify(step.event)}\n`).join('');
  const keys = paths.map(keyOf);
  return paths.filter((_, index) => {
    const key = keys[index]!;
    return !keys.some(
      (other, otherIndex) => otherIndex !== index && other.length > key.length && other.startsWith(key),
    );
  });
}

/**
 * The fewest paths (greedily, longest contribution first) that still take every state and transition of the
 * machine that the given paths take together: each path driven through the UI costs a fresh render (or page).
 */
export async function covering<M extends AnyStateMachine>(
  machine: M,
  paths: ModelPath<M>[],
  options: { scripted: string[]; input?: InputFrom<M> },
): Promise<ModelPath<M>[]> {
  const reach = await Promise.all(
    paths.map(async (path) => {
      const coverage = await coverageOfPaths(machine, [path], options);
      return new Set([...coverage.states.covered, ...coverage.transitions.covered]);
    }),
  );
  const wanted = new Set(reach.flatMap((items) => [...items]));
  const chosen: number[] = [];
  while (wanted.size > 0) {
    let best = -1;
    let bestGain = 0;
    for (const [index, items] of reach.entries()) {
      const gain = [...items].filter((item) => wanted.has(item)).length;
      // Ties go to the shorter path: less to drive.
      if (
        gain > bestGain ||
        (gain === bestGain && gain > 0 && paths[index]!.steps.length < paths[best]!.steps.length)
      ) {
        best = index;
        bestGain = gain;
      }
    }
    if (best === -1) break;
    chosen.push(best);
    for (const item of reach[best]!) wanted.delete(item);
  }
  return chosen.sort((a, b) => a - b).map((index) => paths[index]!);
}
