import { AppError } from '../kernel/errors.ts';
import type { OperatorRow } from './repository.ts';

/**
 * The branches an operator sees and acts on: every branch (owners always; staff unless an owner limited them),
 * or a set of branch ids. The one place that decides: lists narrow with `branchFilter`, a single branch's
 * operation asks `assertMayActOnBranch`, an operation touching every branch at once asks `assertAllBranches`.
 */
export type BranchScope = { all: true } | { all: false; branchIds: readonly number[] };

export const ALL_BRANCHES: BranchScope = { all: true };

/** An owner has every branch whatever rows were left; staff without rows too (the default). */
export function branchScopeOf(
  operator: Pick<OperatorRow, 'role'>,
  limitedTo: readonly number[],
): BranchScope {
  if (operator.role === 'owner' || limitedTo.length === 0) return ALL_BRANCHES;
  return { all: false, branchIds: [...limitedTo].sort((a, b) => a - b) };
}

/** What the contract answers: null for every branch, else the ids. */
export function branchIdsView(scope: BranchScope): number[] | null {
  return scope.all ? null : [...scope.branchIds];
}

export function mayActOnBranch(scope: BranchScope, branchId: number): boolean {
  return scope.all || scope.branchIds.includes(branchId);
}

/** A branch outside the caller's: 403 `branch_forbidden`. */
export function assertMayActOnBranch(caller: { branches: BranchScope }, branchId: number): void {
  if (!mayActOnBranch(caller.branches, branchId)) throw new AppError('branch_forbidden');
}

/** Operations reaching every branch at once (blocking a member cancels their bookings everywhere). */
export function assertAllBranches(caller: { branches: BranchScope }): void {
  if (!caller.branches.all) throw new AppError('branch_forbidden');
}

/**
 * The branch ids a list query keeps: undefined for no narrowing (every branch, nothing asked), else the ids —
 * the one asked for when it is the caller's (403 when it is not), or all of the caller's.
 */
export function branchFilter(scope: BranchScope, asked?: number): readonly number[] | undefined {
  if (asked !== undefined) {
    assertMayActOnBranch({ branches: scope }, asked);
    return [asked];
  }
  return scope.all ? undefined : scope.branchIds;
}
