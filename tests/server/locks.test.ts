import { beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../server/kernel/clock.ts';
import { generateLockCode } from '../../server/doors/service.ts';
import { bookAndPay, bookingsOf, lisbonSlot, recordingLockSync, verifiedUser } from './bookings-fixtures.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

const clock = fixedClock('2026-03-20T10:00:00Z');

describe('lock code generation', () => {
  it('draws six-digit codes, leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, () => generateLockCode());
    expect(codes.every((code) => /^\d{6}$/.test(code))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
  });
});

describeOnPglite('door codes of confirmed bookings', (getDb) => {
  let branchId: number;
  let user: string;

  beforeEach(async () => {
    await emptyAllTables(getDb());
    branchId = await createBranch(getDb());
    user = await verifiedUser(getDb());
  });

  it('shares one code between back-to-back bookings paid separately, stretching its window', async () => {
    const sync = recordingLockSync();
    const first = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    const second = await lisbonSlot(getDb(), branchId, '2026-03-25T11:00');
    await bookAndPay(getDb(), clock, user, [second], 15, { lockSync: sync });
    await bookAndPay(getDb(), clock, user, [first], 15, { lockSync: sync });
    const bookings = await bookingsOf(getDb(), user);
    expect(bookings[0]!.lock_code_id).toBe(bookings[1]!.lock_code_id);
    const codes = await getDb().selectFrom('lock_codes').selectAll().execute();
    expect(codes).toHaveLength(1);
    expect([codes[0]!.valid_from.toISOString(), codes[0]!.valid_until.toISOString()]).toEqual([
      '2026-03-25T09:45:00.000Z',
      '2026-03-25T12:15:00.000Z',
    ]);
    expect(codes[0]!.programmed_at).not.toBeNull();
    // Queued for its doors at each confirmation: the branch's virtual door waits to be programmed.
    expect(sync.queued).toEqual([codes[0]!.id, codes[0]!.id]);
    const doors = await getDb().selectFrom('lock_code_doors').selectAll().execute();
    expect(doors).toMatchObject([
      { lock_code_id: codes[0]!.id, device_id: `virtual-door-${branchId}`, state: 'pending' },
    ]);
  });

  it('gives separate codes to bookings with a gap between them, and to another user right after', async () => {
    const morning = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    const evening = await lisbonSlot(getDb(), branchId, '2026-03-25T18:00');
    const next = await lisbonSlot(getDb(), branchId, '2026-03-25T11:00');
    const other = await verifiedUser(getDb());
    await bookAndPay(getDb(), clock, user, [morning, evening], 30);
    await bookAndPay(getDb(), clock, other, [next], 15);
    const codes = await getDb()
      .selectFrom('lock_codes')
      .select(['user_id', 'valid_from'])
      .orderBy('valid_from')
      .execute();
    expect(codes.map((code) => code.user_id)).toEqual([user, other, user]);
  });
});
