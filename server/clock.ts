import { Temporal } from 'temporal-polyfill';

/** The one source of "now": services take a clock so tests can stand at any instant. */
export type Clock = { now(): Temporal.Instant };

export const systemClock: Clock = {
  now: () => Temporal.Now.instant(),
};

/** A clock that stands still until moved; tests drive time through it. */
export type TestClock = Clock & {
  set(instant: Temporal.Instant | string): void;
  advance(duration: Temporal.DurationLike | string): void;
};

export function fixedClock(start: Temporal.Instant | string): TestClock {
  let current = Temporal.Instant.from(start);
  return {
    now: () => current,
    set: (instant) => {
      current = Temporal.Instant.from(instant);
    },
    advance: (duration) => {
      current = current.add(duration);
    },
  };
}

// The database speaks Date (timestamptz); the services reason in Temporal. These are the two crossings.
export function instantFromDate(date: Date): Temporal.Instant {
  return Temporal.Instant.fromEpochMilliseconds(date.getTime());
}

export function dateFromInstant(instant: Temporal.Instant): Date {
  return new Date(instant.epochMilliseconds);
}
