import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.ts';

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
  return {
    issue: async ({ operatorId, sessionId }, expiresAt) =>
      new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(operatorId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(Math.floor(clock.now().epochMilliseconds / 1000))
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key),
    read: async (token) => {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(clock.now().epochMilliseconds),
          requiredClaims: ['sub', 'exp', 'sid'],
        });
        const operatorId = Number(payload.sub);
        if (!Number.isSafeInteger(operatorId) || typeof payload.sid !== 'string') return null;
        return { operatorId, sessionId: payload.sid };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}
