// The operators module's public face: operator accounts, their sign-in and roles. Other modules and the
// composition root import this file, never the files behind it (a lint rule holds it).

export { currentOperator, operatorAuth, operatorHandlers } from './handlers.ts';
export {
  ALL_BRANCHES,
  assertAllBranches,
  assertMayActOnBranch,
  branchFilter,
  mayActOnBranch,
  type BranchScope,
} from './branches.ts';
export { localisedMessage } from './messages.ts';
export {
  actorOf,
  createOperatorAccounts,
  createOperatorService,
  requireOwner,
  type OperatorCaller,
} from './service.ts';
export { createOperatorTokens } from './tokens.ts';
export { totpUri } from './totp.ts';
