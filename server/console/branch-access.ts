import type { OperatorCaller } from '../operators/index.ts';

type Operator = OperatorCaller['operator'];

/**
 * The one check of whether an operator may see and act on a branch. Today every operator may act on every
 * branch; staff limited to some branches (issue 32) plug in here, and every branch-scoped handler of the door
 * page calls it.
 */
export function assertMayActOnBranch(operator: Operator, branchId: number): void {
  void operator;
  void branchId;
}
