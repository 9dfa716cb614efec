import type { Clock } from '../kernel/clock.ts';
import { signJwt, verifyJwt, type JwtKind } from '../accounts/index.ts';

// Operator tokens differ from member tokens in key, issuer and audience: either kind fails the other's check.
const ISSUER = 'private-gym-console';
const AUDIENCE = 'private-gym-admin-api';

export const OPERATOR_SESSION_HOURS = 12;

export type OperatorClaims = { operatorId: number; sessionId: string };

export type OperatorTokens = {
  issue(claims: OperatorClaims, expiresAt: Date): Promise<string>;
  /** The claims of a well-signed, unexpired operator token; null for anything else (member tokens included). */
  read(token: string): Promise<OperatorClaims | null>;
};

export function createOperatorTokens(key: Uint8Array, clock: Clock): OperatorTokens {
  const kind: JwtKind = { key, issuer: ISSUER, audience: AUDIENCE };
  return {
    issue: ({ operatorId, sessionId }, expiresAt) =>
      signJwt(kind, clock, String(operatorId), { sid: sessionId }, expiresAt.getTime()),
    read: async (token) => {
      const payload = await verifyJwt(kind, clock, token, ['sid']);
      if (!payload) return null;
      const operatorId = Number(payload.sub);
      if (!Number.isSafeInteger(operatorId) || typeof payload.sid !== 'string') return null;
      return { operatorId, sessionId: payload.sid };
    },
  };
}
