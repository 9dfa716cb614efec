import type { Temporal } from 'temporal-polyfill';

// The smart locks behind one interface. A code is programmed for a validity window and revoked when its
// bookings are cancelled. Implementations must never log the code.

export type ProgrammedCode = {
  lockCodeId: number;
  branchId: number;
  code: string;
  validFrom: Temporal.Instant;
  validUntil: Temporal.Instant;
};

export type LockProvider = {
  readonly name: string;
  /** Makes the branch's lock accept `code` during its window (also when the window of a known code changes). */
  programCode(code: ProgrammedCode): Promise<void>;
  revokeCode(code: { lockCodeId: number; branchId: number; code: string }): Promise<void>;
};

/** The default: codes live in the database only (an operator or a lock integration reads them from there). */
export function createStoreOnlyLockProvider(): LockProvider {
  return {
    name: 'store-only',
    async programCode() {},
    async revokeCode() {},
  };
}
