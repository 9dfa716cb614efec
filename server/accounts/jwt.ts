import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Clock } from '../kernel/clock.ts';

/**
 * The bearer JWTs (HS256) of this server, members' and operators' alike. Each kind has its own key, issuer and
 * audience, so a token of one kind fails the other's check.
 */
export type JwtKind = { key: Uint8Array; issuer: string; audience: string };

const epochSeconds = (milliseconds: number) => Math.floor(milliseconds / 1000);

/** A token for `subject` with `claims`, issued now and good until `expiresAtMs`. */
export function signJwt(
  kind: JwtKind,
  clock: Clock,
  subject: string,
  claims: JWTPayload,
  expiresAtMs: number,
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(subject)
    .setIssuer(kind.issuer)
    .setAudience(kind.audience)
    .setIssuedAt(epochSeconds(clock.now().epochMilliseconds))
    .setExpirationTime(epochSeconds(expiresAtMs))
    .sign(kind.key);
}

/** The payload of a well-signed, unexpired token of this kind that has `required` claims; null for anything else. */
export async function verifyJwt(
  kind: JwtKind,
  clock: Clock,
  token: string,
  required: string[],
): Promise<JWTPayload | null> {
  try {
    const { payload } = await jwtVerify(token, kind.key, {
      algorithms: ['HS256'],
      issuer: kind.issuer,
      audience: kind.audience,
      currentDate: new Date(clock.now().epochMilliseconds),
      requiredClaims: ['sub', 'exp', ...required],
    });
    return payload;
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}
