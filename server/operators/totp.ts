import { Secret, TOTP } from 'otpauth';

// RFC 6238 as authenticator apps speak it: SHA-1, six digits, 30-second steps. One step of drift either way is
// accepted (a phone's clock a little off, a code typed as it changes); the service refuses a step used before.

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Private Gym console';

function totpOf(secret: string, label = 'operator'): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** 160 random bits, base32 (RFC 4226's recommended length). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI an authenticator app reads (as a QR code or pasted). */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** The time step at `epochMs`. */
export function totpStep(epochMs: number): number {
  return Math.floor(epochMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The step (current, previous or next) whose code this is, or null when it is none of them. */
export function matchTotpStep(secret: string, code: string, epochMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: epochMs, window: 1 });
  return delta === null ? null : totpStep(epochMs) + delta;
}

/** The code at `epochMs` (the demo's log line and tests; an operator's app computes its own). */
export function totpCodeAt(secret: string, epochMs: number): string {
  return totpOf(secret).generate({ timestamp: epochMs });
}
