import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { dateFromInstant, fixedClock } from '../../server/kernel/clock.ts';
import { JOB_QUEUES } from '../../server/jobs/queue.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import {
  accountTestConfig,
  bookAndPayOverHttp,
  newClient,
  RELAXED_RATE_LIMITS,
  verifiedAccount,
} from './support/accounts.ts';
import { emptyAllTables, freshDatabaseConfig, type FreshDatabase, PGLITE_ONLY } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

// Without Seam each branch has a virtual door that goes through the same lifecycle; its development keypad
// opens only for a code the door holds, inside its window, and the opening becomes the booking's entry.

const START = '2026-03-20T10:00:00Z';

type MyBooking = {
  id: number;
  lock_code: string | null;
  lock_code_valid_from: string | null;
  lock_code_valid_until: string | null;
  checked_in_at: string | null;
};

describe.each(PGLITE_ONLY)('the virtual door (%s)', (target) => {
  const clock = fixedClock(START);
  let database: FreshDatabase;
  let app: FastifyInstance;
  let branchId: number;

  beforeAll(async () => {
    database = await freshDatabaseConfig(target);
    app = await buildApp(
      accountTestConfig(database.config, {
        SLOT_HORIZON_DAYS: '3',
        RATE_LIMITS: `${RELAXED_RATE_LIMITS.replace(/code\.resend=[^,]+/, 'code.resend=3/1h')}`,
      }),
      { clock },
    );
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });

  beforeEach(async () => {
    clock.set(START);
    await emptyAllTables(app.db);
    await app.jobs.boss.deleteAllJobs();
    await app.jobs.runDue();
    branchId = await createBranch(app.db, { name: 'Lisboa – Avenidas Novas' });
  });

  /** A member books 30 March 2026, 10:00–11:00 in Lisbon (09:00–10:00 UTC) and pays, over HTTP. */
  async function bookedAndPaid() {
    const caller = newClient(app);
    const account = await verifiedAccount(caller, app, { locale: 'en' });
    const slot = await lisbonSlot(app.db, branchId, '2026-03-30T10:00');
    await bookAndPayOverHttp(caller, account.token, slot);
    await app.jobs.runDue();
    const mine = async () =>
      (await caller.get('/api/bookings/my-bookings', account.token)).json<MyBooking[]>()[0]!;
    return { caller, account, mine };
  }

  const codeDigits = async () =>
    (await app.db.selectFrom('lock_codes').select('code').executeTakeFirstOrThrow()).code;

  /** The door sweep, then the syncs it queued. */
  async function sweep() {
    await app.jobs.boss.send(JOB_QUEUES.doorSweep, null, { startAfter: dateFromInstant(clock.now()) });
    await app.jobs.runDue([JOB_QUEUES.doorSweep]);
    await app.jobs.runDue([JOB_QUEUES.lockSync]);
  }

  const enter = (code: string, at?: string) =>
    app.inject({
      method: 'POST',
      url: `/api/dev/doors/${branchId}/enter`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(at ? { code, at } : { code }),
    });

  it('programs the code on the branch’s virtual door and confirms it set', async () => {
    await bookedAndPaid();
    const doors = await app.db.selectFrom('lock_code_doors').selectAll().execute();
    expect(doors).toMatchObject([{ device_id: `virtual-door-${branchId}`, state: 'set' }]);
    const held = await app.db.selectFrom('virtual_door_codes').selectAll().execute();
    expect(held.map((row) => [row.starts_at.toISOString(), row.ends_at.toISOString()])).toEqual([
      ['2026-03-30T08:45:00.000Z', '2026-03-30T10:15:00.000Z'],
    ]);
  });

  it('opens for the code inside its window and shows the entry in My bookings', async () => {
    const { mine } = await bookedAndPaid();
    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    const booking = await mine();
    expect(booking.lock_code).toMatch(/^\d{6}$/);
    expect([booking.lock_code_valid_from, booking.lock_code_valid_until]).toEqual([
      '2026-03-30T09:45:00+01:00',
      '2026-03-30T11:15:00+01:00',
    ]);
    expect(booking.checked_in_at).toBeNull();

    const opened = await enter(booking.lock_code!, '2026-03-30T08:50:00Z');
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toEqual({ opened: true });
    expect((await mine()).checked_in_at).toBe('2026-03-30T09:50:00+01:00');
    // A second opening is not a new first entry.
    expect((await enter(booking.lock_code!, '2026-03-30T09:30:00Z')).json()).toEqual({ opened: true });
    expect((await mine()).checked_in_at).toBe('2026-03-30T09:50:00+01:00');
  });

  it('refuses a wrong code, a code too early and a code too late, and records no entry', async () => {
    const { mine } = await bookedAndPaid();
    const code = (await app.db.selectFrom('lock_codes').select('code').executeTakeFirstOrThrow()).code;
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await enter(wrong, '2026-03-30T09:00:00Z')).json()).toEqual({ opened: false });
    expect((await enter(code, '2026-03-30T08:44:59Z')).json()).toEqual({ opened: false });
    expect((await enter(code, '2026-03-30T10:15:00Z')).json()).toEqual({ opened: false });
    clock.set('2026-03-30T08:30:00Z');
    expect((await mine()).checked_in_at).toBeNull();
    expect(await app.db.selectFrom('lock_events').select('id').execute()).toEqual([]);
  });

  it('refuses the revoked code of a cancelled booking', async () => {
    const { caller, account } = await bookedAndPaid();
    const code = (await app.db.selectFrom('lock_codes').select('code').executeTakeFirstOrThrow()).code;
    const [booking] = (await caller.get('/api/bookings/my-bookings', account.token)).json<
      {
        id: number;
      }[]
    >();
    const canceled = await caller.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: booking!.id, expected_refund_eur: 15 }] },
      account.token,
    );
    expect(canceled.statusCode).toBe(200);
    await app.jobs.runDue();
    expect(
      (await app.db.selectFrom('lock_code_doors').select('state').execute()).map((row) => row.state),
    ).toEqual(['revoked']);
    expect((await enter(code, '2026-03-30T09:00:00Z')).json()).toEqual({ opened: false });
  });

  it('refuses a cancelled booking’s code at once, before the sync has deleted it from the door', async () => {
    const { caller, account, mine } = await bookedAndPaid();
    const { id } = await mine();
    const digits = await codeDigits();
    const canceled = await caller.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: id, expected_refund_eur: 15 }] },
      account.token,
    );
    expect(canceled.statusCode).toBe(200);
    // The door still holds the code (no job has run), but its wish is to delete it.
    expect(await app.db.selectFrom('virtual_door_codes').select('code').execute()).toEqual([
      { code: digits },
    ]);
    expect((await enter(digits, '2026-03-30T09:00:00Z')).json()).toEqual({ opened: false });
  });

  it('never opens for a code none of whose bookings is live, and the sweep revokes it from the door', async () => {
    const { mine } = await bookedAndPaid();
    const { id } = await mine();
    const digits = await codeDigits();
    clock.set('2026-03-30T08:30:00Z');
    expect((await enter(digits, '2026-03-30T08:50:00Z')).json()).toEqual({ opened: true });
    // A path that ends the booking and forgets its code (none does today; this is the guarantee if one did).
    await app.db
      .updateTable('bookings')
      .set({ status: 'canceled', canceled_at: new Date('2026-03-30T08:55:00Z') })
      .where('id', '=', id)
      .execute();
    expect((await enter(digits, '2026-03-30T09:00:00Z')).json()).toEqual({ opened: false });

    await sweep();
    const code = await app.db.selectFrom('lock_codes').select('revoked_at').executeTakeFirstOrThrow();
    expect(code.revoked_at).not.toBeNull();
    expect(
      (await app.db.selectFrom('lock_code_doors').select('state').execute()).map((row) => row.state),
    ).toEqual(['revoked']);
    expect(await app.db.selectFrom('virtual_door_codes').select('code').execute()).toEqual([]);
  });

  it('has the sweep shrink a code whose window is wider than its live bookings need', async () => {
    await bookedAndPaid();
    const digits = await codeDigits();
    // A window left wide, and programmed so on the door, by a path that forgot to shrink it: two hours more.
    const wide = new Date('2026-03-30T12:15:00Z');
    await app.db.updateTable('lock_codes').set({ valid_until: wide }).execute();
    await app.db.updateTable('lock_code_doors').set({ programmed_until: wide }).execute();
    await app.db.updateTable('virtual_door_codes').set({ ends_at: wide }).execute();
    await sweep();
    const held = await app.db.selectFrom('virtual_door_codes').selectAll().execute();
    expect(held.map((row) => [row.code, row.ends_at.toISOString()])).toEqual([
      [digits, '2026-03-30T10:15:00.000Z'],
    ]);
    clock.set('2026-03-30T08:30:00Z');
    expect((await enter(digits, '2026-03-30T11:00:00Z')).json()).toEqual({ opened: false });
  });

  it('serves the keypad page, and a keypad for a branch that does not exist is a 404', async () => {
    const page = await app.inject({
      method: 'GET',
      url: `/api/dev/doors/${branchId}`,
      headers: { locale: 'en' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Virtual door');
    expect(page.body).toContain('Lisboa – Avenidas Novas');
    const missing = await app.inject({ method: 'GET', url: '/api/dev/doors/999999' });
    expect(missing.statusCode).toBe(404);
    const bad = await enter('12a4');
    expect(bad.statusCode).toBe(422);
  });

  it('links each branch’s keypad from the outbox page a browser gets, and keeps JSON for everyone else', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/api/dev/outbox',
      headers: { locale: 'en', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Virtual doors');
    expect(page.body).toContain(`<a href="/api/dev/doors/${branchId}">Lisboa – Avenidas Novas</a>`);
    const json = await app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(json.headers['content-type']).toContain('application/json');
    expect(Array.isArray(json.json())).toBe(true);
  });

  it('sends the code again from T-30 to the end of its window, rate-limited', async () => {
    const { caller, account, mine } = await bookedAndPaid();
    const bookingId = (await mine()).id;
    const again = () =>
      caller.json('POST', '/api/bookings/resend-code', { booking_id: bookingId }, account.token);
    const early = await again();
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'code_not_available' });
    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    const before = await app.db.selectFrom('outbox').select('id').where('kind', '=', 'access_code').execute();
    const sent = await again();
    expect(sent.statusCode).toBe(202);
    const after = await app.db.selectFrom('outbox').selectAll().where('kind', '=', 'access_code').execute();
    expect(after.length).toBe(before.length + 2);
    expect(after.at(-1)!.text_body).toContain((await mine()).lock_code!);
    expect((await again()).statusCode).toBe(202);
    expect((await again()).statusCode).toBe(202);
    expect((await again()).statusCode).toBe(429);
    clock.set('2026-03-30T10:15:00Z');
    // A new hour for the limiter, but the window is over.
    clock.advance({ hours: 1 });
    expect((await again()).json()).toMatchObject({ code: 'code_not_available' });
    const stranger = newClient(app);
    const other = await verifiedAccount(stranger, app, { locale: 'en' });
    const foreign = await stranger.json(
      'POST',
      '/api/bookings/resend-code',
      { booking_id: bookingId },
      other.token,
    );
    expect(foreign.statusCode).toBe(404);
  });
});
