import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { dateFromInstant, fixedClock } from '../../server/kernel/clock.ts';
import { insertUnlockAttempt } from '../../server/doors/control-repository.ts';
import { JOB_QUEUES } from '../../server/jobs/queue.ts';
import { createSeamLockProvider } from '../../server/adapters/locks/seam.ts';
import { setBranchDoors } from '../../server/doors/doors-repository.ts';
import { bookAndPay, bookingsOf, lisbonSlot, verifiedUser } from './bookings-fixtures.ts';
import { accountTestConfig, outboxTo, type Schemas } from './support/accounts.ts';
import {
  DATABASE_TARGETS,
  emptyAllTables,
  freshDatabaseConfig,
  type FreshDatabase,
  PGLITE_ONLY,
} from './support/databases.ts';
import { startFakeSeam, type FakeSeam } from './support/fake-seam.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// Live door control (issue 32, item 1) over HTTP: 'Open now' on the virtual door and on Seam's fake (its real
// unlock action over HTTP), each request one audited attempt with its reason and outcome, refused without a
// reason, a replayed request never opening twice; the door page's feed; per-branch on-call alerts.

const START = '2026-03-20T10:00:00Z';
const OPERATOR_EMAIL = 'ops@gym.example';

type Operator = Awaited<ReturnType<typeof loggedInOperator>>;
let counter = 0;
const unique = (role: string) => `${role}-${Date.now()}-${(counter += 1)}@gym.example`;

function doorControlApp(extra: () => Record<string, string>) {
  const clock = fixedClock(START);
  const context = {
    clock,
    app: undefined as unknown as FastifyInstance,
    database: undefined as unknown as FreshDatabase,
    owner: undefined as unknown as Operator,
    staff: undefined as unknown as Operator,
  };
  return {
    context,
    async start(target: (typeof DATABASE_TARGETS)[number]) {
      context.database = await freshDatabaseConfig(target);
      context.app = await buildApp(
        accountTestConfig(context.database.config, { SLOT_HORIZON_DAYS: '2', OPERATOR_EMAIL, ...extra() }),
        { clock },
      );
    },
    async reset() {
      clock.set(START);
      await emptyAllTables(context.app.db);
      context.owner = await loggedInOperator(context.app, clock, unique('owner'), 'owner');
      context.staff = await loggedInOperator(context.app, clock, unique('staff'), 'staff');
    },
    async stop() {
      await context.app?.close();
      await context.database?.cleanup();
    },
  };
}

function unlock(
  operator: Operator,
  branchId: number,
  deviceId: string,
  body: { reason?: string; request_id?: string },
) {
  return operator.client.json(
    'POST',
    `/api/admin/branches/${branchId}/doors/${encodeURIComponent(deviceId)}/unlock`,
    body,
    operator.token,
  );
}

async function doorPage(operator: Operator, branchId: number, query = '') {
  const response = await operator.client.get(`/api/admin/branches/${branchId}/doors${query}`, operator.token);
  expect(response.statusCode).toBe(200);
  return response.json<Schemas['BranchDoorPage']>();
}

async function unlockAudit(app: FastifyInstance) {
  return app.db
    .selectFrom('audit_log')
    .select(['operator_email', 'action', 'entity_id', 'reason', 'after'])
    .where('action', '=', 'door.unlock')
    .orderBy('id')
    .execute();
}

describe.each(DATABASE_TARGETS)('live door control on the virtual door (%s)', (target) => {
  const setup = doorControlApp(() => ({}));
  const { context } = setup;
  let branchId: number;
  let door: string;

  beforeAll(() => setup.start(target));
  afterAll(() => setup.stop());
  beforeEach(async () => {
    await setup.reset();
    branchId = await createBranch(context.app.db, { name: 'Lisboa – Avenidas Novas' });
    door = `virtual-door-${branchId}`;
  });

  it('opens the door for staff with a reason, audits the attempt, and shows it on the door page', async () => {
    const response = await unlock(context.staff, branchId, door, {
      reason: 'Member stuck outside, code not accepted',
      request_id: randomUUID(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ device_id: door, outcome: 'opened' });
    const audit = await unlockAudit(context.app);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      operator_email: context.staff.email,
      action: 'door.unlock',
      entity_id: door,
      reason: 'Member stuck outside, code not accepted',
      after: { outcome: 'opened', branch_id: branchId, error: null },
    });
    const page = await doorPage(context.staff, branchId);
    expect(page.doors).toHaveLength(1);
    expect(page.doors[0]).toMatchObject({ device_id: door, online: true, codes: { set: 0, failed: 0 } });
    expect(page.feed[0]).toMatchObject({
      kind: 'remote_unlock',
      device_id: door,
      operator: context.staff.email,
      reason: 'Member stuck outside, code not accepted',
      outcome: 'opened',
    });
  });

  it('refuses to open without a reason, writing nothing', async () => {
    const missing = await unlock(context.owner, branchId, door, { request_id: randomUUID() });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ code: 'validation_failed' });
    const blank = await unlock(context.owner, branchId, door, { reason: '   ', request_id: randomUUID() });
    expect(blank.statusCode).toBe(422);
    expect(blank.json()).toMatchObject({ code: 'reason_required' });
    expect(blank.json<{ detail: string }>().detail).not.toBe('');
    expect(await unlockAudit(context.app)).toEqual([]);
    expect(await context.app.db.selectFrom('door_unlocks').select('id').execute()).toEqual([]);
  });

  it('answers a replayed request with its first attempt, opening once; two operators are two attempts', async () => {
    const requestId = randomUUID();
    const body = { reason: 'Lost phone', request_id: requestId };
    // A double click sends the same request twice at once: one attempt, one audit row.
    const [first, second] = await Promise.all([
      unlock(context.owner, branchId, door, body),
      unlock(context.owner, branchId, door, body),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    for (const response of [first, second].filter((answer) => answer.statusCode === 409))
      expect(response.json()).toMatchObject({ code: 'door_unlock_in_progress' });
    // Replayed later: the first attempt's answer, nothing new.
    const replay = await unlock(context.owner, branchId, door, body);
    expect(replay.statusCode).toBe(200);
    expect(await unlockAudit(context.app)).toHaveLength(1);
    // Another operator at the same time is another attempt, audited under their name.
    const other = await unlock(context.staff, branchId, door, {
      reason: 'Same member',
      request_id: randomUUID(),
    });
    expect(other.statusCode).toBe(200);
    expect((await unlockAudit(context.app)).map((row) => row.operator_email)).toEqual([
      context.owner.email,
      context.staff.email,
    ]);
    // The same request id from another operator is not a replay of theirs.
    const reused = await unlock(context.staff, branchId, door, body);
    expect(reused.statusCode).toBe(409);
    expect(await unlockAudit(context.app)).toHaveLength(2);
  });

  it('ends an attempt a crash left opening as failed at the next door sweep, audited; its replay then says so', async () => {
    const requestId = randomUUID();
    // The attempt is written before the lock is asked; a server stopping there leaves it 'opening'.
    const { id: operatorId } = await context.app.db
      .selectFrom('operators')
      .select('id')
      .where('email', '=', context.staff.email)
      .executeTakeFirstOrThrow();
    const attempt = await insertUnlockAttempt(context.app.db, {
      requestId,
      branchId,
      deviceId: door,
      operatorId,
      operatorEmail: context.staff.email,
      reason: 'Member outside',
      at: dateFromInstant(context.clock.now()),
    });
    expect(attempt).not.toBeNull();
    const body = { reason: 'Member outside', request_id: requestId };
    const sweep = async () => {
      await context.app.jobs.boss.send(JOB_QUEUES.doorSweep, null, {
        startAfter: dateFromInstant(context.clock.now()),
      });
      await context.app.jobs.runDue([JOB_QUEUES.doorSweep]);
    };
    // A minute on, the lock might still answer: the attempt is left alone, and its replay is still in progress.
    context.clock.advance({ minutes: 1 });
    await sweep();
    expect((await unlock(context.staff, branchId, door, body)).json()).toMatchObject({
      code: 'door_unlock_in_progress',
    });
    expect(await unlockAudit(context.app)).toEqual([]);
    // Later, nobody will end it: the sweep does, as a failure, so the page and the replay stop saying 'opening'.
    context.clock.advance({ minutes: 2 });
    await sweep();
    const replay = await unlock(context.staff, branchId, door, body);
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toMatchObject({ code: 'door_unlock_failed' });
    const audit = await unlockAudit(context.app);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      operator_email: context.staff.email,
      reason: 'Member outside',
      after: { outcome: 'failed', error: expect.stringContaining('interrupted') as unknown },
    });
    const page = await doorPage(context.staff, branchId);
    expect(page.feed[0]).toMatchObject({ kind: 'remote_unlock', outcome: 'failed' });
    // A second sweep finds nothing more to end.
    context.clock.advance({ minutes: 5 });
    await sweep();
    expect(await unlockAudit(context.app)).toHaveLength(1);
  });

  it("refuses a door that is not the branch's, and an unknown branch", async () => {
    const other = await createBranch(context.app.db, { name: 'Porto' });
    const wrongDoor = await unlock(context.owner, branchId, `virtual-door-${other}`, {
      reason: 'x',
      request_id: randomUUID(),
    });
    expect(wrongDoor.statusCode).toBe(404);
    expect(wrongDoor.json()).toMatchObject({ code: 'door_not_found' });
    const noBranch = await unlock(context.owner, 999_999, door, { reason: 'x', request_id: randomUUID() });
    expect(noBranch.json()).toMatchObject({ code: 'branch_not_found' });
    expect(await unlockAudit(context.app)).toEqual([]);
  });

  it('sends door alerts to the branch on-call e-mail and phone set by an owner, else to OPERATOR_EMAIL', async () => {
    const other = await createBranch(context.app.db, { name: 'Porto' });
    const onCall = { email: 'porta-lisboa@gym.example', phone: '+351 912 345 678' };
    const setOnCall = (operator: Operator) =>
      operator.client.json('PUT', `/api/admin/branches/${branchId}/on-call`, onCall, operator.token);
    expect((await setOnCall(context.staff)).statusCode).toBe(403);
    const saved = await setOnCall(context.owner);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ email: 'porta-lisboa@gym.example', phone: '+351912345678' });
    expect((await doorPage(context.staff, branchId)).on_call).toEqual(saved.json());

    const at = new Date(START);
    await context.app.doors.applyEvent({
      eventId: 'evt-lisboa-offline',
      type: 'device.disconnected',
      deviceId: `virtual-door-${branchId}`,
      providerCodeId: null,
      occurredAt: at,
    });
    await context.app.doors.applyEvent({
      eventId: 'evt-porto-tampered',
      type: 'device.tampered',
      deviceId: `virtual-door-${other}`,
      providerCodeId: null,
      occurredAt: at,
    });
    const toOnCall = await outboxTo(context.app, 'porta-lisboa@gym.example');
    expect(toOnCall).toHaveLength(1);
    expect(toOnCall[0]!.subject).toContain('Lisboa – Avenidas Novas');
    const sms = await outboxTo(context.app, '+351912345678');
    expect(sms).toHaveLength(1);
    expect(sms[0]!.text).toContain('device.disconnected');
    const fallback = await outboxTo(context.app, OPERATOR_EMAIL);
    expect(fallback).toHaveLength(1);
    expect(fallback[0]!.subject).toContain('Porto');
    expect((await doorPage(context.owner, branchId)).feed[0]).toMatchObject({
      kind: 'offline',
      device_id: `virtual-door-${branchId}`,
    });
  });
});

describe.each(PGLITE_ONLY)("live door control through Seam's fake (%s)", (target) => {
  let seam: FakeSeam;
  const setup = doorControlApp(() => ({
    SEAM_API_KEY: seam.apiKey,
    SEAM_ENDPOINT: seam.url,
    SEAM_WEBHOOK_SECRET: seam.webhookSecret,
  }));
  const { context } = setup;
  let branchId: number;

  beforeAll(async () => {
    seam = await startFakeSeam();
    await setup.start(target);
  });
  afterAll(async () => {
    await setup.stop();
    await seam?.close();
  });
  beforeEach(async () => {
    await seam.reset();
    await setup.reset();
    branchId = await createBranch(context.app.db, { name: 'Lisboa – Avenidas Novas' });
    await setBranchDoors(context.app.db, branchId, seam.devices);
  });

  it("opens the door with Seam's unlock action, and the lock's own report of it shows as an opening", async () => {
    const [door] = seam.devices;
    const response = await unlock(context.staff, branchId, door, {
      reason: 'Code not working',
      request_id: randomUUID(),
    });
    expect(response.statusCode).toBe(200);
    expect((await seam.unlockAttempts()).map((attempt) => attempt.status)).toEqual(['success']);
    expect((await unlockAudit(context.app))[0]).toMatchObject({
      entity_id: door,
      reason: 'Code not working',
      after: { outcome: 'opened' },
    });
    // The fake reports the opening as a door event; the catch-up records it as an opening, not an exit.
    await context.app.doors.catchUp();
    const page = await doorPage(context.owner, branchId);
    const kinds = page.feed.map((item) => item.kind);
    expect(kinds).toContain('remote_unlock');
    expect(kinds).toContain('opened');
    expect(page.overstays).toEqual([]);
  });

  it("does not count the lock's report of a remote opening as the last session's overstay", async () => {
    const [door] = seam.devices;
    const user = await verifiedUser(context.app.db, { email: `member-${randomUUID()}@example.com` });
    // A session 11:00–12:00 in Lisbon (UTC in March), paid, its member entered.
    const slot = await lisbonSlot(context.app.db, branchId, '2026-03-20T11:00');
    await bookAndPay(context.app.db, context.clock, user, [slot], 15, {
      accessCodes: context.app.jobs.accessCodes,
      lockSync: context.app.jobs.lockSync,
      lockProvider: createSeamLockProvider({ apiKey: seam.apiKey, endpoint: seam.url }),
    });
    const [booking] = await bookingsOf(context.app.db, user);
    await context.app.db
      .updateTable('bookings')
      .set({ checked_in_at: new Date('2026-03-20T11:02:00Z') })
      .where('id', '=', booking!.id)
      .execute();
    // 40 minutes after its end an operator opens the door for someone else; the lock reports the opening.
    context.clock.set('2026-03-20T12:40:00Z');
    const response = await unlock(context.owner, branchId, door, {
      reason: 'Next member early, code not yet valid',
      request_id: randomUUID(),
    });
    expect(response.statusCode).toBe(200);
    const { headers, payload } = seam.signed({
      event_id: randomUUID(),
      event_type: 'lock.unlocked',
      device_id: door,
      occurred_at: '2026-03-20T12:40:05.000Z',
    });
    const delivered = await context.app.inject({
      method: 'POST',
      url: '/api/locks/webhook',
      headers,
      payload,
    });
    expect(delivered.statusCode).toBe(200);
    expect((await bookingsOf(context.app.db, user))[0]!.overstay_at).toBeNull();
    // The same opening by hand, with no remote opening around it, is the session's overstay.
    const byHand = seam.signed({
      event_id: randomUUID(),
      event_type: 'lock.unlocked',
      device_id: door,
      occurred_at: '2026-03-20T12:50:00.000Z',
    });
    await context.app.inject({
      method: 'POST',
      url: '/api/locks/webhook',
      headers: byHand.headers,
      payload: byHand.payload,
    });
    expect((await bookingsOf(context.app.db, user))[0]!.overstay_at?.toISOString()).toBe(
      '2026-03-20T12:50:00.000Z',
    );
  });

  it('tells the operator the door is offline, audits the attempt, and never calls the unlock action', async () => {
    const [door] = seam.devices;
    await seam.setOnline(door, false);
    const response = await unlock(context.owner, branchId, door, {
      reason: 'Stuck outside',
      request_id: randomUUID(),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'door_offline' });
    expect(response.json<{ detail: string }>().detail).not.toBe('');
    expect(await seam.unlockAttempts()).toEqual([]);
    expect((await unlockAudit(context.app))[0]).toMatchObject({
      reason: 'Stuck outside',
      after: { outcome: 'offline' },
    });
    const page = await doorPage(context.owner, branchId);
    expect(page.doors.find((row) => row.device_id === door)).toMatchObject({ online: false });
    expect(page.feed[0]).toMatchObject({
      kind: 'remote_unlock',
      outcome: 'offline',
      reason: 'Stuck outside',
    });
  });

  it('tells the operator when Seam fails the unlock, and audits the failed attempt', async () => {
    const [door] = seam.devices;
    await seam.outage(['/locks/unlock_door']);
    const response = await unlock(context.owner, branchId, door, {
      reason: 'Stuck outside',
      request_id: randomUUID(),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'door_unlock_failed' });
    expect((await unlockAudit(context.app))[0]).toMatchObject({
      after: { outcome: 'failed' },
    });
  });
});
