import type { Clock } from '../kernel/clock.ts';
import { signJwt, verifyJwt, type JwtKind } from './jwt.ts';

export type SessionClaims = { userId: string; tokenVersion: number };

export type SessionTokens = {
  issue(claims: SessionClaims): Promise<string>;
  /** The claims of a well-signed, unexpired token of this server; null for anything else. */
  read(token: string): Promise<SessionClaims | null>;
};

/** Bearer JWTs (HS256). `ver` is the account's token version: bumping it ends every session issued before. */
export function createSessionTokens(key: Uint8Array, clock: Clock, sessionHours: number): SessionTokens {
  const kind: JwtKind = { key, issuer: 'private-gym', audience: 'private-gym-api' };
  return {
    issue: ({ userId, tokenVersion }) => {
      // Whole seconds, as the token carries them: the expiry is exactly `sessionHours` after the issue.
      const issuedAtMs = Math.floor(clock.now().epochMilliseconds / 1000) * 1000;
      return signJwt(kind, clock, userId, { ver: tokenVersion }, issuedAtMs + sessionHours * 3_600_000);
    },
    read: async (token) => {
      const payload = await verifyJwt(kind, clock, token, ['ver']);
      if (!payload || typeof payload.sub !== 'string' || !Number.isSafeInteger(payload.ver)) return null;
      return { userId: payload.sub, tokenVersion: payload.ver as number };
    },
  };
}
