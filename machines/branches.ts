import type { components } from '../openapi/schema.gen.ts';

export type Branch = components['schemas']['Branch'];

/** Branches sorted by `order`, ascending (docs/decisions.md, 'Contract and API'); ties keep the server's order. */
export function sortBranches(branches: readonly Branch[]): Branch[] {
  return [...branches].sort((a, b) => a.order - b.order);
}

/** The bookable subset: branches with a smart lock. */
export function activeBranches(branches: readonly Branch[]): Branch[] {
  return branches.filter((branch) => branch.active_with_smart_lock);
}

/**
 * The pricing range over active branches only (docs/decisions.md, 'Client'): the minimum of the branches' minimum prices
 * and the minimum of their maximum prices. Null when no active branch has prices.
 */
export function priceRange(branches: readonly Branch[]): { min: number; max: number } | null {
  const ranges = activeBranches(branches)
    .map((branch) => branch.min_and_max_price_eur_long_cached)
    .filter((range): range is [number, number, ...number[]] => range.length >= 2);
  if (ranges.length === 0) return null;
  return {
    min: Math.min(...ranges.map((range) => range[0])),
    max: Math.min(...ranges.map((range) => range[1])),
  };
}

const DESCRIPTION_PREVIEW_LENGTH = 142;

/** A branch card's description: plain text cut to 142 characters plus '...' when longer. */
export function truncateDescription(text: string, length: number = DESCRIPTION_PREVIEW_LENGTH): string {
  const characters = Array.from(text);
  return characters.length > length ? `${characters.slice(0, length).join('')}...` : text;
}
