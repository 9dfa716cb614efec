// The accounts module's public face: members, sign-in, tokens, rate limits. Other modules and the composition
// root import this file, never the files behind it (a lint rule holds it).

export { createBlockedContactService, normaliseContact } from './blocked-contacts.ts';
export type { BlockDependencies, BlockRefundMode, CancelFutureBookings } from './blocked-contacts.ts';
export { normaliseEmail } from './fields.ts';
export { authHandlers, bearerAuth, currentUser } from './handlers.ts';
export { signJwt, verifyJwt } from './jwt.ts';
export type { JwtKind } from './jwt.ts';
export { assertPasswordPolicy, createPasswordHasher } from './passwords.ts';
export type { PasswordHasher } from './passwords.ts';
export { deleteBucketsBefore } from './rate-limit-repository.ts';
export { createRateLimiter, retryAfterHook } from './rate-limiter.ts';
export type { RateLimiter } from './rate-limiter.ts';
export { deleteExpiredSecrets, liveUsers } from './repository.ts';
export { loadAuthKeys, randomToken, sha256 } from './secrets.ts';
export { createAuthService } from './service.ts';
export type { AuthService } from './service.ts';
export { createSessionTokens } from './session-tokens.ts';
export { blockContact } from './use-cases/block-contact.ts';
export { blockMember } from './use-cases/block-member.ts';
export { unblockContact } from './use-cases/unblock-contact.ts';
export { unblockMember } from './use-cases/unblock-member.ts';
export * as accountsRepository from './repository.ts';
