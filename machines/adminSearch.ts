// zod's tree-shakable build: these schemas are the console routes' `validateSearch`, defined with the routes in
// the landing page's router (src/router.tsx); the console's own code stays in its lazily loaded chunks.
import { z } from 'zod/mini';
import { optional as absentWhenMalformed, stringOrDigits } from './modal-search.ts';

// The console's filters and page numbers (the bookings list's cursors) in the address (issue 28, item 1): one
// schema per page, so reload, Back and a copied link keep them. Each parameter falls back to absent when malformed
// (`optional`, shared with machines/modal-search.ts), and absent means the page's default (no filter, the first
// page); a page reads them with its defaults (src/admin/hooks.ts).

/** The router's search parser turns digits into numbers; a filter is text either way. */
const text = absentWhenMalformed(z.pipe(stringOrDigits, z.string().check(z.maxLength(200))));

const positiveInt = absentWhenMalformed(
  z.pipe(
    z.union([z.pipe(z.string().check(z.regex(/^\d{1,9}$/)), z.transform(Number)), z.number()]),
    z.int().check(z.positive(), z.maximum(1_000_000_000)),
  ),
);

/**
 * Every parameter of the page, undefined when absent, empty or malformed, but kept as a key: the router lays each
 * route's validated search over the address's own (TanStack Router's `match.search`), so a parameter left out
 * would let the address's malformed value through to the page (`?status=lost` asked of the server).
 */
const searchOf = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.pipe(
    z.object(shape),
    z.transform((search) => {
      const all: Record<string, unknown> = { ...search };
      for (const key of Object.keys(shape)) all[key] = all[key] === '' ? undefined : all[key];
      return all as typeof search;
    }),
  );

export const adminSearch = {
  /** `/{lang}/admin?setup=<token>`: the one-time link of `operator add`; the console's other pages keep it. */
  console: searchOf({ setup: text }),
  today: searchOf({ date: text }),
  bookings: searchOf({
    q: text,
    branchId: positiveInt,
    from: text,
    to: text,
    status: absentWhenMalformed(z.enum(['pending', 'confirmed', 'canceled', 'expired'])),
    seriesId: positiveInt,
    after: text,
    before: text,
  }),
  members: searchOf({ q: text, page: positiveInt }),
  prices: searchOf({ branchId: positiveInt }),
  doors: searchOf({ branchId: positiveInt, from: text, to: text }),
  giftVouchers: searchOf({
    status: absentWhenMalformed(z.enum(['unpaid', 'issued', 'expiring', 'redeemed', 'expired'])),
  }),
  money: searchOf({
    branchId: positiveInt,
    from: text,
    to: text,
    granularity: absentWhenMalformed(z.enum(['day', 'week', 'month'])),
  }),
  documents: searchOf({ from: text, to: text, bookingId: positiveInt, page: positiveInt }),
  audit: searchOf({
    action: text,
    entityType: text,
    entityId: text,
    from: text,
    to: text,
    page: positiveInt,
  }),
};

/** What a staff operator opening an owner-only page meets before the page renders (its route's `beforeLoad`). */
export class OwnerOnlyError extends Error {
  constructor() {
    super('This console page is for owners only.');
    this.name = 'OwnerOnlyError';
  }
}
