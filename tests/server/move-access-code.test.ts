import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { JOB_QUEUES } from '../../server/jobs/queue.ts';
import { bookAndPay, bookingService, lisbonSlot, verifiedUser } from './bookings-fixtures.ts';
import { accountTestConfig } from './support/accounts.ts';
import { emptyAllTables, freshDatabaseConfig, type FreshDatabase, PGLITE_ONLY } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// A moved booking's door-code message follows it on the queue: due 30 minutes before its new start, never at
// the old time (too early for a later slot, too late for an earlier one), with the new code.

const START = '2026-03-20T10:00:00Z';

describe.each(PGLITE_ONLY)('the door-code message of a moved booking (%s)', (target) => {
  const clock = fixedClock(START);
  let database: FreshDatabase;
  let app: FastifyInstance;
  let branchId: number;

  beforeAll(async () => {
    database = await freshDatabaseConfig(target);
    app = await buildApp(accountTestConfig(database.config, { SLOT_HORIZON_DAYS: '3' }), { clock });
  });
  afterAll(async () => {
    await app?.close();
    await database?.cleanup();
  });
  beforeEach(async () => {
    clock.set(START);
    await emptyAllTables(app.db);
    await app.jobs.boss.deleteAllJobs();
    branchId = await createBranch(app.db);
  });

  const deps = () => ({ accessCodes: app.jobs.accessCodes, lockSync: app.jobs.lockSync });
  const messages = () =>
    app.db
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'access_code')
      .where('channel', '=', 'email')
      .execute();
  async function runDue() {
    await app.jobs.runDue([JOB_QUEUES.lockSync, JOB_QUEUES.lockCheck, JOB_QUEUES.doorSweep]);
    await app.jobs.runDue([JOB_QUEUES.accessCode]);
  }

  /** Moves the booking as the member does (paying nothing) or as an operator does in the console. */
  async function move(mover: 'the member' | 'an operator', user: string, bookingId: number, slotId: number) {
    if (mover === 'the member') {
      await bookingService(app.db, clock, deps()).moveBooking({
        userId: user,
        bookingId,
        slotId,
        expectedDifferenceEur: 0,
        locale: 'pt',
      });
      return;
    }
    const operator = await loggedInOperator(app, clock, `ops-${randomUUID()}@gym.example`, 'staff');
    const answer = await operator.client.json(
      'POST',
      `/api/admin/bookings/${bookingId}/move`,
      { time_slot_id: slotId, reason: 'the member asked by phone' },
      operator.token,
    );
    expect(answer.statusCode).toBe(200);
  }

  for (const mover of ['the member', 'an operator'] as const)
    for (const [name, to, dueAt] of [
      ['a later', '2026-03-26T18:00', '2026-03-26T17:30:00Z'],
      ['an earlier', '2026-03-24T08:00', '2026-03-24T07:30:00Z'],
    ] as const) {
      it(`sends the new code at T-30 of ${name} slot ${mover} moved it to, and nothing at the old time`, async () => {
        const user = await verifiedUser(app.db);
        const from = await lisbonSlot(app.db, branchId, '2026-03-25T10:00');
        await bookAndPay(app.db, clock, user, [from], 15, deps());
        const { id } = await app.db
          .selectFrom('bookings')
          .select('id')
          .where('slot_id', '=', from)
          .executeTakeFirstOrThrow();
        const target = await lisbonSlot(app.db, branchId, to);
        await move(mover, user, id, target);

        // The old T-30 (09:30 UTC on the 25th) sends nothing.
        if (name === 'a later') {
          clock.set('2026-03-25T09:30:00Z');
          await runDue();
          expect(await messages()).toEqual([]);
        }
        clock.set(new Date(new Date(dueAt).getTime() - 60_000).toISOString());
        await runDue();
        expect(await messages()).toEqual([]);
        clock.set(dueAt);
        await runDue();
        const sent = await messages();
        expect(sent).toHaveLength(1);
        const code = await app.db
          .selectFrom('bookings')
          .innerJoin('lock_codes', 'lock_codes.id', 'bookings.lock_code_id')
          .select('lock_codes.code')
          .where('bookings.id', '=', id)
          .executeTakeFirstOrThrow();
        expect(sent[0]!.text_body).toContain(code.code);
      });
    }
});
