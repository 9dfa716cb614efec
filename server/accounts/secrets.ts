import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { readOrCreateSetting } from './repository.ts';

const GENERATED_SECRET_SETTING = 'auth.generated_secret';

/** Keys derived from the one configured secret, each for one purpose, so no key serves two. */
export type AuthKeys = {
  sessionToken: Uint8Array;
  /** Signs operator (console) tokens: a key of its own, so a member token can never pass as one. */
  operatorSessionToken: Uint8Array;
  /** Keyed hash of short codes and of rate-limit subjects (e-mails, phones, IPs): unguessable without the key. */
  keyedHash(purpose: string, value: string): string;
};

/**
 * The secret comes from `JWT_SECRET`. Without it (never in production: config refuses to start) one is
 * generated on the first start and kept in the settings table, so a restart keeps every session valid and
 * several processes on one database agree on it.
 */
export async function loadAuthKeys(db: Db, config: Config): Promise<AuthKeys> {
  const secret =
    config.auth.jwtSecret ??
    String(await readOrCreateSetting(db, GENERATED_SECRET_SETTING, randomBytes(48).toString('base64url')));
  const derive = (purpose: string) => createHmac('sha256', secret).update(`private-gym:${purpose}`).digest();
  const hashKey = derive('keyed-hash');
  return {
    sessionToken: new Uint8Array(derive('session-token')),
    operatorSessionToken: new Uint8Array(derive('operator-session-token')),
    keyedHash: (purpose, value) => createHmac('sha256', hashKey).update(`${purpose}\0${value}`).digest('hex'),
  };
}

/** A uniformly random six-digit code, leading zeros kept. */
export function randomSixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** 32 random bytes, base64url: long enough that a plain hash is a safe way to store it. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
