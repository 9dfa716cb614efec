import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hash, verify } from '@node-rs/argon2';
import type { PasswordHashing } from '../config.ts';
import { AppError } from '../kernel/errors.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

const commonPasswords = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#')),
);

/** Throws the catalogue error that says what is wrong with a new password, if anything. */
export function assertPasswordPolicy(password: string): void {
  // Length in code points, so an emoji counts as one character, as a person would count it.
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) throw new AppError('password_too_short', { min: PASSWORD_MIN_LENGTH });
  if (length > PASSWORD_MAX_LENGTH) throw new AppError('password_too_long', { max: PASSWORD_MAX_LENGTH });
  if (commonPasswords.has(password.toLowerCase()) || new Set(password).size === 1) {
    throw new AppError('password_too_common');
  }
}

export type PasswordHasher = {
  hash(password: string): Promise<string>;
  /** Checks a password against a stored hash, or against a dummy one when there is none, in about the same time. */
  verify(storedHash: string | null | undefined, password: string): Promise<boolean>;
};

export async function createPasswordHasher(cost: PasswordHashing): Promise<PasswordHasher> {
  // The package's default algorithm is argon2id (its enum is a const enum, which plain type stripping cannot read).
  const options = { ...cost };
  // Unknown accounts are checked against this, so a wrong e-mail costs as much time as a wrong password.
  const dummyHash = await hash(randomBytes(32).toString('base64url'), options);
  return {
    hash: (password) => hash(password.normalize('NFC'), options),
    verify: async (storedHash, password) => {
      try {
        const matches = await verify(storedHash ?? dummyHash, password.normalize('NFC'));
        return matches && Boolean(storedHash);
      } catch {
        return false;
      }
    },
  };
}
