import { expect, test, type APIRequestContext, type Page, type Request, type Route } from '@playwright/test';
import type { AnyStateMachine, EventFromLogic, EventObject, InputFrom, SnapshotFrom } from 'xstate';
import { coverageOfPaths, type ModelPath } from '../../tests/machines/model/paths.ts';

// Model-based end-to-end tests: paths generated from a machine (tests/machines/model/paths.ts) drive the real UI
// in Chromium against the real server. A user event is a UI action; an actor's answer is the real server's answer
// to a call the test arranged beforehand (accounts, bookings, slots taken), held at the network until the path
// says it arrives, so the busy state in between is seen too. After every step the state the model predicts is
// checked by what the user sees.

type Event<M extends AnyStateMachine> = EventFromLogic<M>;
type Snapshot<M extends AnyStateMachine> = SnapshotFrom<M>;

export type World<M extends AnyStateMachine, TData> = {
  page: Page;
  request: APIRequestContext;
  baseURL: string | undefined;
  /** What the path's setup arranged (accounts, tokens, slots). */
  data: TData;
  /** The machine's state before the step being taken. */
  before: Snapshot<M>;
  /** The steps after the one being taken, for actions that must arrange the answer that follows them. */
  rest: ModelPath<M>['steps'];
};

export type StateCheck<M extends AnyStateMachine, TData> = {
  name: string;
  matches: (snapshot: Snapshot<M>) => boolean;
  expect: (world: World<M, TData>, snapshot: Snapshot<M>) => Promise<void>;
};

export type ModelDriver<M extends AnyStateMachine, TData> = {
  machine: M;
  input?: InputFrom<M>;
  /** The calls each invoked actor makes: held until the path answers them. Actors without one answer unseen. */
  calls: Record<string, (request: Request) => boolean>;
  /** Arranges the server for the whole path (the answers it will need) and opens the page. */
  setup: (world: Omit<World<M, TData>, 'data' | 'rest' | 'before'>, path: ModelPath<M>) => Promise<TData>;
  /** One UI action per user event type. */
  act: Partial<Record<string, (world: World<M, TData>, event: Event<M>) => Promise<void>>>;
  /** What the user sees in each state; the first whose `matches` holds is checked. */
  states: StateCheck<M, TData>[];
};

/** A path's events, with what each user event carries (`field.change(email=…)`), for the test's title. */
export function titleOf<M extends AnyStateMachine>(path: ModelPath<M>): string {
  return path.steps
    .map((step) => step.event as { type: string } & Record<string, unknown>)
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
      if (answer) return `${answer[1] === 'done' ? '✓' : '✗'}${answer[2]}`;
      const details = Object.entries(event)
        .filter(([key]) => key !== 'type')
        .map(([key, value]) =>
          typeof value === 'object' && value !== null ? key : `${key}=${String(value)}`,
        );
      return details.length > 0 ? `${event.type}(${details.join(',')})` : event.type;
    })
    .join(' → ');
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
 * machine that the given paths take together: each e2e path costs a fresh page, so a path adding nothing goes.
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
      // Ties go to the shorter path: less to do in the browser.
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

/** The state check for a snapshot, or an error naming the state: every state a path reaches needs one. */
export function checkFor<M extends AnyStateMachine, TData>(
  driver: ModelDriver<M, TData>,
  snapshot: Snapshot<M>,
): StateCheck<M, TData> {
  const check = driver.states.find((candidate) => candidate.matches(snapshot));
  if (!check)
    throw new Error(
      `no visible check for the state ${JSON.stringify((snapshot as { value: unknown }).value)}`,
    );
  return check;
}

/** Holds the calls of the machine's actors until the path answers them. */
async function holdCalls(page: Page, calls: Record<string, (request: Request) => boolean>) {
  const held = new Map<string, Route[]>();
  const waiting = new Map<string, (() => void)[]>();
  await page.route('**/api/**', async (route) => {
    const actor = Object.keys(calls).find((id) => calls[id]!(route.request()));
    if (!actor) return route.fallback();
    held.set(actor, [...(held.get(actor) ?? []), route]);
    for (const wake of waiting.get(actor) ?? []) wake();
    waiting.set(actor, []);
  });
  return {
    /** Lets the oldest held call of the actor through to the server (waiting for it to be made). */
    async release(actor: string): Promise<void> {
      if (!calls[actor]) return;
      const deadline = Date.now() + 10_000;
      while ((held.get(actor) ?? []).length === 0) {
        if (Date.now() > deadline) throw new Error(`the app never called ${actor}`);
        await new Promise<void>((resolve) => {
          waiting.set(actor, [...(waiting.get(actor) ?? []), resolve]);
          setTimeout(resolve, 250);
        });
      }
      const [route, ...others] = held.get(actor)!;
      held.set(actor, others);
      await route!.continue();
    },
  };
}

/** Follows one generated path in the real app: arrange, act, release the answers, check every state. */
export async function runPath<M extends AnyStateMachine, TData>(
  driver: ModelDriver<M, TData>,
  path: ModelPath<M>,
  fixtures: { page: Page; request: APIRequestContext; baseURL: string | undefined },
): Promise<void> {
  // Every state on the path has a check, or the path fails before it starts.
  for (const step of path.steps) checkFor(driver, step.state);
  const gate = await holdCalls(fixtures.page, driver.calls);
  const data = await driver.setup(fixtures, path);
  for (const [index, step] of path.steps.entries()) {
    const event: EventObject = step.event;
    const { type } = event;
    const before = index === 0 ? step.state : path.steps[index - 1]!.state;
    const world: World<M, TData> = { ...fixtures, data, before, rest: path.steps.slice(index + 1) };
    const answer = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(type);
    if (answer?.[1]) await gate.release(answer[1]);
    else if (type !== 'xstate.init') {
      const act = driver.act[type];
      if (!act) throw new Error(`no UI action for the event ${type}`);
      await act(world, step.event);
    }
    const check = checkFor(driver, step.state);
    await test.step(`${type} → ${check.name}`, () => check.expect(world, step.state));
  }
}

/**
 * Prints, once per spec, how many paths the UI runs and what of the machine they cover, and fails when that
 * falls below `floor` (states and transitions covered) or a state the paths reach has no check in the UI.
 */
export async function reportCoverage<M extends AnyStateMachine, TData>(
  driver: ModelDriver<M, TData>,
  paths: ModelPath<M>[],
  scripted: string[],
  floor: { states: number; transitions: number },
): Promise<void> {
  for (const path of paths) for (const step of path.steps) checkFor(driver, step.state);
  const coverage = await coverageOfPaths(driver.machine, paths, {
    scripted,
    ...(driver.input === undefined ? {} : { input: driver.input }),
  });
  const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
  const missed = coverage.states.total.filter((id) => !coverage.states.covered.includes(id));
  console.log(
    `[model e2e] ${driver.machine.id}: ${coverage.paths} paths, states ${coverage.states.covered.length}/${coverage.states.total.length} (${percent(coverage.states.covered.length, coverage.states.total.length)}), transitions ${coverage.transitions.covered.length}/${coverage.transitions.total.length} (${percent(coverage.transitions.covered.length, coverage.transitions.total.length)})${missed.length ? `; states left to the vitest model: ${missed.join(', ')}` : ''}`,
  );
  expect(coverage.paths).toBeGreaterThan(0);
  expect(coverage.states.covered.length, 'states covered through the UI').toBeGreaterThanOrEqual(
    floor.states,
  );
  expect(coverage.transitions.covered.length, 'transitions covered through the UI').toBeGreaterThanOrEqual(
    floor.transitions,
  );
}
