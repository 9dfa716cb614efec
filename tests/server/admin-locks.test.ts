import { beforeEach, expect, it } from 'vitest';
import { createSeamLockProvider } from '../../server/adapters/locks/seam.ts';
import { runAdmin } from '../../server/admin/cli.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { bookAndPay, lisbonSlot, recordingLockSync, verifiedUser } from './bookings-fixtures.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

// The doors in the back office: mapping a branch's lock devices, each door's state, each booking's code.

const clock = fixedClock('2026-03-20T10:00:00Z');

describeOnPglite('back office: doors', (getDb) => {
  let out: string[];
  let err: string[];

  async function admin(...argv: string[]): Promise<number> {
    out = [];
    err = [];
    return runAdmin(argv, {
      db: getDb(),
      clock,
      horizonDays: 3,
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    });
  }

  async function doorsOfBranch(branchId: number) {
    const row = await getDb()
      .selectFrom('branches')
      .select('lock_device_ids')
      .where('id', '=', branchId)
      .executeTakeFirstOrThrow();
    return row.lock_device_ids;
  }

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
  });

  it('maps a branch’s doors with a repeatable --lock-device that replaces the list, and clears them with none', async () => {
    const branchId = await createBranch(getDb());
    expect(
      await admin(
        'branch',
        'update',
        String(branchId),
        '--lock-device',
        'front-door',
        '--lock-device',
        'side-door',
      ),
    ).toBe(0);
    expect(await doorsOfBranch(branchId)).toEqual(['front-door', 'side-door']);
    expect(await admin('branch', 'update', String(branchId), '--lock-device', 'back-door')).toBe(0);
    expect(await doorsOfBranch(branchId)).toEqual(['back-door']);
    expect(await admin('branch', 'update', String(branchId), '--lock-device', 'none')).toBe(0);
    expect(await doorsOfBranch(branchId)).toEqual([]);
    expect(
      await admin('branch', 'update', String(branchId), '--lock-device', 'none', '--lock-device', 'x'),
    ).toBe(2);
    expect(err.join('\n')).toContain('--lock-device none clears the doors and stands alone');
    expect(await admin('branch', 'update', String(branchId), '--lock-device', 'bad door!')).toBe(2);
    expect(err.join('\n')).toContain("--lock-device must be a lock's device id, not 'bad door!'");
  });

  it('puts live codes on a door added to the branch and takes them off a door removed from it', async () => {
    const branchId = await createBranch(getDb());
    await admin('branch', 'update', String(branchId), '--lock-device', 'front-door');
    const user = await verifiedUser(getDb());
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    // The doors of Seam, named by the branch's mapping (never called here: the sync is only recorded).
    const lockProvider = createSeamLockProvider({ apiKey: 'seam_unused', endpoint: 'http://127.0.0.1:9' });
    await bookAndPay(getDb(), clock, user, [slot], 15, { lockSync: recordingLockSync(), lockProvider });
    await getDb()
      .updateTable('lock_code_doors')
      .set({ state: 'set', provider_code_id: 'ac-front' })
      .execute();
    await admin('branch', 'update', String(branchId), '--lock-device', 'side-door');
    const doors = await getDb()
      .selectFrom('lock_code_doors')
      .select(['device_id', 'state'])
      .orderBy('device_id')
      .execute();
    expect(doors).toEqual([
      { device_id: 'front-door', state: 'revoking' },
      { device_id: 'side-door', state: 'pending' },
    ]);
  });

  it('lists each door with its codes by state, and each booking’s code, its state and its entry', async () => {
    const branchId = await createBranch(getDb(), { name: 'Lisboa – Avenidas Novas' });
    const user = await verifiedUser(getDb());
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-25T10:00');
    await bookAndPay(getDb(), clock, user, [slot], 15, { lockSync: recordingLockSync() });
    await getDb()
      .updateTable('bookings')
      .set({ checked_in_at: new Date('2026-03-25T09:05:00Z') })
      .execute();

    expect(await admin('locks', 'status', '--branch', String(branchId), '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual([
      expect.objectContaining({
        branch_id: branchId,
        branch: 'Lisboa – Avenidas Novas',
        device_id: `virtual-door-${branchId}`,
        online: true,
        codes: { pending: 1 },
      }),
    ]);
    expect(await admin('locks', 'status')).toBe(0);
    expect(out.join('\n')).toContain(`virtual-door-${branchId}`);

    expect(await admin('bookings', 'list', '--json')).toBe(0);
    const [booking] = JSON.parse(out.join('\n')) as Record<string, unknown>[];
    const code = await getDb().selectFrom('lock_codes').select('code').executeTakeFirstOrThrow();
    expect(booking).toMatchObject({
      lock_code: code.code,
      lock_code_state: 'pending',
      checked_in_at: '2026-03-25T09:05:00+00:00',
      no_show_at: null,
    });
  });
});
