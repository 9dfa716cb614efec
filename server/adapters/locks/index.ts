import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { createLocalLockProvider } from './local.ts';
import type { LockProvider } from './provider.ts';
import { createSeamLockProvider } from './seam.ts';

/** Seam when configured; otherwise the virtual doors. */
export function createLockProvider(config: Config, db: Db): LockProvider {
  return config.locks.provider === 'seam'
    ? createSeamLockProvider({ apiKey: config.locks.apiKey, endpoint: config.locks.endpoint })
    : createLocalLockProvider(db);
}
