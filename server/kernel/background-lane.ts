// Work that can wait for others: the console's reports over a period and the ledger export (docs/decisions.md,
// "Reports give way to members"). A step of such work (a year's money report, a batch of the export) holds the
// database and the process for a few to a few tens of milliseconds; members choosing a slot should not queue
// behind a stream of them. The lane runs those steps one at a time in the process. While other requests come
// (any request that began since the last step began, or is still in flight), a step rests before it starts:
// nineteen times as long as the step before it took (up to a second: a step slowed by a database in trouble should
// not make the next report wait for long), and at least `restMs`, so the reports take about a twentieth of a busy
// process's time (and of the database's) and are still answered, at a slower pace. Not less: on two cores shared
// with the database, a quarter let the reports' queries double members' p99 by taking the CPU they needed
// (bench/console-scale.ts). On a quiet process steps follow one another at once.

export type BackgroundLane = {
  /** Runs one step of background work in its turn (one at a time; see above) and answers what it answers. */
  step<T>(work: () => Promise<T>): Promise<T>;
  /** A request that is not background work has begun; call what this answers when it has ended (once or more). */
  foregroundBegins(): () => void;
};

/** While other requests come, a step rests this many times as long as the step before it took. */
export const REST_PER_STEP = 19;
/** The longest rest that REST_PER_STEP asks for (`restMs` may ask for more). */
const LONGEST_REST_MS = 1_000;

export function createBackgroundLane({ restMs }: { restMs: number }): BackgroundLane {
  /** Requests that are not background work, in flight now. */
  let inFlight = 0;
  /** Whether such a request began since the last step began. */
  let came = false;
  /** The end of the last step queued: each step begins after it. */
  let tail: Promise<unknown> = Promise.resolve();
  /** When the last step ended, and how long it took (performance.now() milliseconds). */
  let lastEnded = 0;
  let lastTook = 0;

  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (came || inFlight > 0) {
      const until = lastEnded + Math.max(restMs, Math.min(REST_PER_STEP * lastTook, LONGEST_REST_MS));
      // A timer may fire a little before its time on this clock (the loop's own clock lags): sleep what is left.
      while (performance.now() < until) await sleep(Math.ceil(until - performance.now()));
    }
    came = false;
    const began = performance.now();
    try {
      return await work();
    } finally {
      lastEnded = performance.now();
      lastTook = lastEnded - began;
    }
  }

  return {
    step<T>(work: () => Promise<T>): Promise<T> {
      const result = tail.then(() => run(work));
      // The next step waits for this one to end, whether it succeeded or not.
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
    foregroundBegins() {
      inFlight += 1;
      came = true;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight -= 1;
      };
    },
  };
}
