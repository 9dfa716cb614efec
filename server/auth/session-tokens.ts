import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.ts';

const ISSUER = 'private-gym';
const AUDIENCE = 'private-gym-api';

export type SessionClaims = { userId: string; tokenVersion: number };

export type SessionTokens = {
  issue(claims: SessionClaims): Promise<string>;
  /** The claims of a well-signed, unexpired token of this server; null for anything else. */
  read(token: string): Promise<SessionClaims | null>;
};

/** Bearer JWTs (HS256). `ver` is the account's token version: bumping it ends every session issued before. */
export function createSessionTokens(key: Uint8Array, clock: Clock, sessionHours: number): SessionTokens {
  const nowSeconds = () => Math.floor(clock.now().epochMilliseconds / 1000);
  return {
    issue: async ({ userId, tokenVersion }) => {
      const issuedAt = nowSeconds();
      return new SignJWT({ ver: tokenVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + sessionHours * 3600)
        .sign(key);
    },
    read: async (token) => {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          currentDate: new Date(clock.now().epochMilliseconds),
          requiredClaims: ['sub', 'exp', 'ver'],
        });
        if (typeof payload.sub !== 'string' || !Number.isSafeInteger(payload.ver)) return null;
        return { userId: payload.sub, tokenVersion: payload.ver as number };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}
