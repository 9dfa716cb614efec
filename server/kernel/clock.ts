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

/**
 * The years a date or an instant given to the server may fall in (docs/decisions.md): the business has nothing
 * before 2000 or after 2100, and beyond them dates stop being sane (PostgreSQL has no year 0; a closure to 9999
 * is a typo). Requests are checked against them where they are validated (server/http/validation.ts), the CLI
 * where it reads its arguments.
 */
export const ACCEPTED_YEARS = { first: 2000, last: 2100 } as const;

/** Whether a date or instant written `YYYY-...` names a year in ACCEPTED_YEARS (the year as written). */
export function inAcceptedYears(written: string): boolean {
  const year = Number(written.slice(0, 4));
  return /^\d{4}-/.test(written) && year >= ACCEPTED_YEARS.first && year <= ACCEPTED_YEARS.last;
}
