import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSeamLockProvider } from '../../server/adapters/locks/seam.ts';
import { buildApp } from '../../server/app.ts';
import { dateFromInstant, fixedClock } from '../../server/kernel/clock.ts';
import { setBranchDoors } from '../../server/doors/doors-repository.ts';
import { bookAndPay, bookingService, bookingsOf, lisbonSlot, verifiedUser } from './bookings-fixtures.ts';
import { accountTestConfig } from './support/accounts.ts';
import { emptyAllTables, freshDatabaseConfig, type FreshDatabase, PGLITE_ONLY } from './support/databases.ts';
import { startFakeSeam, type FakeSeam } from './support/fake-seam.ts';
import { createBranch } from './support/fixtures.ts';

// The doors through Seam, against Seam's own fake of its API over HTTP: codes reach every door of the branch
// with their window, are confirmed or fail as the door says (driven through the fake's database), survive an
// outage, are revoked on cancellation; the webhook is verified, applied once and in time order; openings become
// entries.

const START = '2026-03-20T10:00:00Z';

describe.each(PGLITE_ONLY)('doors through Seam (%s)', (target) => {
  const clock = fixedClock(START);
  let seam: FakeSeam;
  let database: FreshDatabase;
  let app: FastifyInstance;
  let branchId: number;

  beforeAll(async () => {
    seam = await startFakeSeam();
    database = await freshDatabaseConfig(target);
    app = await buildApp(
      accountTestConfig(database.config, {
        SLOT_HORIZON_DAYS: '3',
        SEAM_API_KEY: seam.apiKey,
        SEAM_ENDPOINT: seam.url,
        SEAM_WEBHOOK_SECRET: seam.webhookSecret,
        OPERATOR_EMAIL: 'ops@gym.example',
        SUPPORT_PHONE: '+351 210 000 000',
      }),
      { clock },
    );
  });

  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
    await seam?.close();
  });

  beforeEach(async () => {
    clock.set(START);
    await seam.reset();
    await emptyAllTables(app.db);
    await app.jobs.boss.deleteAllJobs();
    // The queue's clock follows the app's only when jobs run: bring it back to the start too.
    await app.jobs.runDue();
    branchId = await createBranch(app.db, { name: 'Lisboa – Avenidas Novas' });
    await setBranchDoors(app.db, branchId, seam.devices);
  });

  const deps = () => ({
    accessCodes: app.jobs.accessCodes,
    lockSync: app.jobs.lockSync,
    lockProvider: createSeamLockProvider({ apiKey: seam.apiKey, endpoint: seam.url }),
  });

  async function doorsOf(lockCodeId: number) {
    return app.db
      .selectFrom('lock_code_doors')
      .selectAll()
      .where('lock_code_id', '=', lockCodeId)
      .orderBy('device_id')
      .execute();
  }

  async function book(localStart: string, userId?: string) {
    const user =
      userId ?? (await verifiedUser(app.db, { email: `member-${randomUUID()}@example.com`, locale: 'en' }));
    const slot = await lisbonSlot(app.db, branchId, localStart);
    await bookAndPay(app.db, clock, user, [slot], 15, deps());
    const booking = (await bookingsOf(app.db, user)).find((row) => row.slot_id === slot)!;
    return { user, booking, lockCodeId: booking.lock_code_id! };
  }

  /** Runs what is due now, then again after the queue's retry delay has passed. */
  async function later(minutes = 10) {
    clock.advance({ minutes });
    await app.jobs.runDue();
  }

  async function sweepNow() {
    await app.jobs.boss.send('door-sweep', null, { startAfter: dateFromInstant(clock.now()) });
  }

  async function accessMessages() {
    return app.db
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'access_code')
      .orderBy('channel')
      .execute();
  }

  async function webhook(event: Record<string, unknown>, secret?: string) {
    const { headers, payload } = seam.signed(event, secret);
    return app.inject({ method: 'POST', url: '/api/locks/webhook', headers, payload });
  }

  it('creates the code on every door of the branch with its window, across both DST changes in Lisbon', async () => {
    // 29 March 2026: 01:00 becomes 02:00. A session at 00:30 local ends at 02:30 summer time.
    const spring = await book('2026-03-29T00:30');
    // 25 October 2026: 02:00 becomes 01:00 again. A session at the first 01:00 ends at the second.
    const autumn = await book('2026-10-25T01:00');
    // And ordinary mornings on both days.
    const springMorning = await book('2026-03-29T10:00');
    const autumnMorning = await book('2026-10-25T10:00');
    await app.jobs.runDue();

    const expected = [
      [spring, '2026-03-29T00:15:00.000Z', '2026-03-29T01:45:00.000Z'],
      [autumn, '2026-10-24T23:45:00.000Z', '2026-10-25T01:15:00.000Z'],
      [springMorning, '2026-03-29T08:45:00.000Z', '2026-03-29T10:15:00.000Z'],
      [autumnMorning, '2026-10-25T09:45:00.000Z', '2026-10-25T11:15:00.000Z'],
    ] as const;
    for (const device of seam.devices) {
      const onDoor = await seam.codesOn(device);
      expect(onDoor).toHaveLength(4);
      for (const [{ lockCodeId }, startsAt, endsAt] of expected) {
        const code = await app.db
          .selectFrom('lock_codes')
          .selectAll()
          .where('id', '=', lockCodeId)
          .executeTakeFirstOrThrow();
        const mine = onDoor.find((row) => row.name === `booking-code-${lockCodeId}`);
        expect(mine).toMatchObject({
          code: code.code,
          starts_at: startsAt,
          ends_at: endsAt,
          status: 'unset',
        });
      }
    }
    // The doors took the codes but have not confirmed them yet.
    for (const [{ lockCodeId }] of expected) {
      expect((await doorsOf(lockCodeId)).map((door) => [door.device_id, door.state])).toEqual(
        seam.devices.map((device) => [device, 'programming']),
      );
    }
  });

  it('confirms a code the door set and fails one the door could not set, by reading them back', async () => {
    const { lockCodeId } = await book('2026-03-30T10:00');
    await app.jobs.runDue();
    const [first] = await seam.codesOn(seam.devices[0]);
    const [second] = await seam.codesOn(seam.devices[1]);
    await seam.updateCode(first!.access_code_id, { status: 'set' });
    await seam.updateCode(second!.access_code_id, {
      errors: [{ error_code: 'failed_to_set_on_device', message: 'Failed to set code on device.' }],
    });
    await later();
    const doors = await doorsOf(lockCodeId);
    expect(doors.map((door) => door.state)).toEqual(['set', 'failed']);
    expect(doors[0]!.provider_code_id).toBe(first!.access_code_id);
    expect(doors[1]!.error).toContain('failed_to_set_on_device');
  });

  it('sends the confirmed code at T-30, without the help line', async () => {
    const { booking, lockCodeId } = await book('2026-03-30T10:00');
    await app.jobs.runDue();
    for (const device of seam.devices) {
      const [code] = await seam.codesOn(device);
      await seam.updateCode(code!.access_code_id, { status: 'set' });
    }
    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    const code = await app.db
      .selectFrom('lock_codes')
      .select('code')
      .where('id', '=', lockCodeId)
      .executeTakeFirstOrThrow();
    const [email, sms] = await accessMessages();
    expect(email!.text_body).toContain(code.code);
    expect(email!.text_body).not.toContain('210 000 000');
    expect(sms!.text_body).toContain(`door code ${code.code}`);
    expect((await bookingsOf(app.db, booking.user_id!))[0]!.access_code_sent_for).toBe(lockCodeId);
  });

  it('pulls a backup code when the door has not confirmed the code by T-45, and sends that one', async () => {
    await setBranchDoors(app.db, branchId, [seam.devices[0]]);
    const { user, lockCodeId } = await book('2026-03-30T10:00');
    await app.jobs.runDue();
    clock.set('2026-03-30T08:15:00Z');
    await app.jobs.runDue();
    const [door] = await doorsOf(lockCodeId);
    expect(door!.state).toBe('programming');
    const backup = (await seam.state()).access_codes.find(
      (code) => code.is_backup && code.device_id === seam.devices[0],
    );
    expect(backup).toBeDefined();
    expect(door!.backup_code).toBe(backup!.code);
    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    const [email, sms] = await accessMessages();
    expect(email!.text_body).toContain(backup!.code);
    expect(sms!.text_body).toContain(`door code ${backup!.code}`);
    // My bookings shows the code the message carried, not the one the door never confirmed.
    const [shown] = await bookingService(app.db, clock, deps()).listMyBookings(user);
    expect(shown!.lock_code).toBe(backup!.code);
    // No alert: the member has a code the door's pool vouches for.
    expect(
      await app.db.selectFrom('outbox').select('id').where('kind', '=', 'operator_alert').execute(),
    ).toEqual([]);
  });

  it('alerts the operator and still gives the member the code with the help line when no backup can be had', async () => {
    await setBranchDoors(app.db, branchId, [seam.devices[0]]);
    const { lockCodeId } = await book('2026-03-30T10:00');
    await app.jobs.runDue();
    await seam.outage(['/access_codes/pull_backup_access_code']);
    clock.set('2026-03-30T08:15:00Z');
    await app.jobs.runDue();
    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    const alerts = await app.db
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'operator_alert')
      .execute();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ recipient: 'ops@gym.example', channel: 'email' });
    expect(alerts[0]!.text_body).toContain(seam.devices[0]);
    const code = await app.db
      .selectFrom('lock_codes')
      .select('code')
      .where('id', '=', lockCodeId)
      .executeTakeFirstOrThrow();
    const [email, sms] = await accessMessages();
    expect(email!.text_body).toContain(code.code);
    expect(email!.text_body).toContain('If the door does not open with this code, call +351 210 000 000.');
    expect(sms!.text_body).toContain('+351 210 000 000');
    // Sent once, even when the job runs again.
    await later(1);
    expect(await accessMessages()).toHaveLength(2);
  });

  it('deletes the code from every door when its booking is cancelled, and confirms it revoked', async () => {
    const { user, booking, lockCodeId } = await book('2026-03-30T10:00');
    await app.jobs.runDue();
    expect(await seam.codesOn(seam.devices[0])).toHaveLength(1);
    await bookingService(app.db, clock, deps()).cancelBookings({
      userId: user,
      items: [{ bookingId: booking.id, expectedRefundEur: 15 }],
    });
    expect((await doorsOf(lockCodeId)).map((door) => door.state)).toEqual(['revoking', 'revoking']);
    await app.jobs.runDue();
    for (const device of seam.devices) expect(await seam.codesOn(device)).toEqual([]);
    expect((await doorsOf(lockCodeId)).map((door) => door.state)).toEqual(['revoked', 'revoked']);
  });

  it('puts a guest’s own code on every door and deletes it when the guest is removed, then the booking’s on cancelling', async () => {
    const { user, booking, lockCodeId } = await book('2026-03-30T10:00');
    const bookings = bookingService(app.db, clock, deps());
    const rita = await bookings.guests.addGuest(user, booking.id, { name: 'Rita', email: 'rita@example.pt' });
    const rui = await bookings.guests.addGuest(user, booking.id, {
      name: 'Rui',
      phone_number: '+351912345678',
    });
    await app.jobs.runDue();
    for (const device of seam.devices) {
      const onDoor = await seam.codesOn(device);
      expect(onDoor).toHaveLength(3);
      expect(new Set(onDoor.map((code) => code.code)).size).toBe(3);
    }
    const guestCodeOf = async (guestId: number) =>
      (
        await app.db
          .selectFrom('booking_guests')
          .select('lock_code_id')
          .where('id', '=', guestId)
          .executeTakeFirstOrThrow()
      ).lock_code_id!;
    const ritaCode = await guestCodeOf(rita.id);
    await bookings.guests.removeGuest(user, booking.id, rita.id);
    expect((await doorsOf(ritaCode)).map((door) => door.state)).toEqual(['revoking', 'revoking']);
    await app.jobs.runDue();
    for (const device of seam.devices) expect(await seam.codesOn(device)).toHaveLength(2);
    expect((await doorsOf(ritaCode)).map((door) => door.state)).toEqual(['revoked', 'revoked']);

    const ruiCode = await guestCodeOf(rui.id);
    await bookings.cancelBookings({
      userId: user,
      items: [{ bookingId: booking.id, expectedRefundEur: 15 }],
    });
    await app.jobs.runDue();
    for (const device of seam.devices) expect(await seam.codesOn(device)).toEqual([]);
    for (const code of [lockCodeId, ruiCode]) {
      expect((await doorsOf(code)).map((door) => door.state)).toEqual(['revoked', 'revoked']);
    }
  });

  it('deletes a cancelled booking’s code at once even while the code’s sync waits out a programming door’s backoff', async () => {
    const { user, booking, lockCodeId } = await book('2026-03-30T10:00');
    await app.jobs.runDue();
    // The doors are still programming: the sync waits for its retry, seconds to minutes away.
    expect((await doorsOf(lockCodeId)).map((door) => door.state)).toEqual(['programming', 'programming']);
    const [waiting] = await app.jobs.boss.findJobs('lock-sync', { key: `code-${lockCodeId}`, queued: true });
    expect(waiting!.startAfter.getTime()).toBeGreaterThan(clock.now().epochMilliseconds);
    await bookingService(app.db, clock, deps()).cancelBookings({
      userId: user,
      items: [{ bookingId: booking.id, expectedRefundEur: 15 }],
    });
    // Not a second later, the revocation reaches both doors.
    await app.jobs.runDue();
    for (const device of seam.devices) expect(await seam.codesOn(device)).toEqual([]);
    expect((await doorsOf(lockCodeId)).map((door) => door.state)).toEqual(['revoked', 'revoked']);
  });

  it('retries through a Seam outage until the codes are on the doors', async () => {
    await seam.outage(['/access_codes/create']);
    const { lockCodeId } = await book('2026-03-30T10:00');
    await app.jobs.runDue();
    expect(await seam.codesOn(seam.devices[0])).toEqual([]);
    expect((await doorsOf(lockCodeId)).map((door) => door.state)).toEqual(['pending', 'pending']);
    await later();
    expect(await seam.codesOn(seam.devices[0])).toEqual([]);
    await seam.outage([]);
    await later();
    for (const device of seam.devices) expect(await seam.codesOn(device)).toHaveLength(1);
    expect((await doorsOf(lockCodeId)).map((door) => door.state)).toEqual(['programming', 'programming']);
  });

  it('applies a signed webhook once, ignores an older event arriving later, and refuses a forged one', async () => {
    const { lockCodeId } = await book('2026-03-30T10:00');
    await app.jobs.runDue();
    const [code] = await seam.codesOn(seam.devices[0]);
    const set = {
      event_id: randomUUID(),
      event_type: 'access_code.set',
      device_id: seam.devices[0],
      access_code_id: code!.access_code_id,
      occurred_at: '2026-03-20T10:05:00.000Z',
    };
    expect((await webhook(set)).statusCode).toBe(200);
    expect((await webhook(set)).statusCode).toBe(200);
    expect((await doorsOf(lockCodeId))[0]!.state).toBe('set');
    const recorded = await app.db.selectFrom('lock_events').select('provider_event_id').execute();
    expect(recorded.filter((row) => row.provider_event_id === set.event_id)).toHaveLength(1);

    // An older failure delivered after the success changes nothing.
    const stale = {
      ...set,
      event_id: randomUUID(),
      event_type: 'access_code.failed_to_set_on_device',
      occurred_at: '2026-03-20T10:01:00.000Z',
    };
    expect((await webhook(stale)).statusCode).toBe(200);
    expect((await doorsOf(lockCodeId))[0]!.state).toBe('set');

    // Signed with another secret, or not at all: refused, nothing recorded or changed.
    const forged = {
      ...set,
      event_id: randomUUID(),
      event_type: 'access_code.removed_from_device',
      occurred_at: '2026-03-20T10:09:00.000Z',
    };
    const refused = await webhook(forged, `whsec_${Buffer.from('not the secret at all').toString('base64')}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'invalid_webhook_signature' });
    const unsigned = await app.inject({
      method: 'POST',
      url: '/api/locks/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(forged),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await doorsOf(lockCodeId))[0]!.state).toBe('set');
    const after = await app.db.selectFrom('lock_events').select('provider_event_id').execute();
    expect(after.map((row) => row.provider_event_id)).not.toContain(forged.event_id);
  });

  it('turns an unlock with the code into the booking’s entry, from the webhook or from the catch-up', async () => {
    const first = await book('2026-03-30T10:00');
    const second = await book('2026-03-30T12:00');
    await app.jobs.runDue();
    const [firstCode] = (await seam.codesOn(seam.devices[0])).filter(
      (row) => row.name === `booking-code-${first.lockCodeId}`,
    );
    const [secondCode] = (await seam.codesOn(seam.devices[1])).filter(
      (row) => row.name === `booking-code-${second.lockCodeId}`,
    );
    const unlocked = {
      event_id: randomUUID(),
      event_type: 'lock.unlocked',
      device_id: seam.devices[0],
      access_code_id: firstCode!.access_code_id,
      occurred_at: '2026-03-30T08:57:00.000Z',
    };
    expect((await webhook(unlocked)).statusCode).toBe(200);
    expect((await webhook(unlocked)).statusCode).toBe(200);
    // Missed by the webhook, found by the periodic catch-up.
    await seam.addEvent({
      event_id: randomUUID(),
      event_type: 'lock.unlocked',
      device_id: seam.devices[1],
      access_code_id: secondCode!.access_code_id,
      occurred_at: '2026-03-30T10:50:00.000Z',
    });
    clock.set('2026-03-30T11:00:00Z');
    await sweepNow();
    await app.jobs.runDue();
    const rows = await app.db
      .selectFrom('bookings')
      .select(['id', 'checked_in_at', 'no_show_at'])
      .orderBy('start_time')
      .execute();
    expect(rows.map((row) => row.checked_in_at?.toISOString() ?? null)).toEqual([
      '2026-03-30T08:57:00.000Z',
      '2026-03-30T10:50:00.000Z',
    ]);
    expect(rows.map((row) => row.no_show_at)).toEqual([null, null]);
  });

  it('marks a booking without entry by start + 20 minutes a no-show, and an opening after end + 15 an overstay', async () => {
    const entered = await book('2026-03-30T10:00');
    const absent = await book('2026-03-30T14:00');
    await app.jobs.runDue();
    const [code] = (await seam.codesOn(seam.devices[0])).filter(
      (row) => row.name === `booking-code-${entered.lockCodeId}`,
    );
    await webhook({
      event_id: randomUUID(),
      event_type: 'lock.unlocked',
      device_id: seam.devices[0],
      access_code_id: code!.access_code_id,
      occurred_at: '2026-03-30T09:01:00.000Z',
    });
    // Opened from inside 40 minutes after the end (no code): an overstay of the session that ended.
    await webhook({
      event_id: randomUUID(),
      event_type: 'lock.unlocked',
      device_id: seam.devices[0],
      occurred_at: '2026-03-30T10:40:00.000Z',
    });
    clock.set('2026-03-30T13:19:00Z');
    await sweepNow();
    await app.jobs.runDue();
    let rows = await bookingsOf(app.db);
    expect(rows.map((row) => row.no_show_at)).toEqual([null, null]);
    clock.set('2026-03-30T13:21:00Z');
    await sweepNow();
    await app.jobs.runDue();
    rows = await bookingsOf(app.db);
    expect(rows.find((row) => row.id === absent.booking.id)!.no_show_at?.toISOString()).toBe(
      '2026-03-30T13:21:00.000Z',
    );
    const done = rows.find((row) => row.id === entered.booking.id)!;
    expect(done.no_show_at).toBeNull();
    expect(done.overstay_at?.toISOString()).toBe('2026-03-30T10:40:00.000Z');
  });

  it('records device events and alerts the operator about each', async () => {
    for (const eventType of [
      'device.disconnected',
      'device.low_battery',
      'device.tampered',
      'device.connected',
    ]) {
      const answer = await webhook({
        event_id: randomUUID(),
        event_type: eventType,
        device_id: seam.devices[1],
        occurred_at: '2026-03-20T10:00:00.000Z',
      });
      expect(answer.statusCode).toBe(200);
    }
    const device = await app.db
      .selectFrom('lock_devices')
      .selectAll()
      .where('device_id', '=', seam.devices[1])
      .executeTakeFirstOrThrow();
    expect(device).toMatchObject({ online: true, last_event_type: 'device.connected' });
    const alerts = await app.db
      .selectFrom('outbox')
      .select(['recipient', 'subject'])
      .where('kind', '=', 'operator_alert')
      .orderBy('id')
      .execute();
    expect(alerts.map((alert) => alert.subject)).toEqual(
      ['device.disconnected', 'device.low_battery', 'device.tampered', 'device.connected'].map(
        (event) => `Porta ${seam.devices[1]} (Lisboa – Avenidas Novas): ${event}`,
      ),
    );
  });
});
