import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/cli.ts';
import { systemClock } from '../../server/kernel/clock.ts';
import { totpCodeAt } from '../../server/operators/totp.ts';
import type { Schemas } from './support/accounts.ts';
import { createBranch, createUser, insertBooking, insertSlot } from './support/fixtures.ts';
import { OPERATOR_PASSWORD } from './support/operators.ts';
import { callJson, useServerProcesses } from './support/server-process.ts';

// Issue 32: two real server processes on one PostgreSQL database, and an operator's 'Send' reaching both at once
// (a double click through a load balancer, a retried request). Each broadcast is written once, its messages one
// per member per channel in each member's language, and the two processes' outbox workers deliver each message
// exactly once.

const ROUNDS = 4;

describe('a broadcast sent through two server processes at once', () => {
  const shared = useServerProcesses();
  const { servers } = shared;

  const call = callJson;

  /** An owner made by the CLI, its password set and logged in through the first process. */
  async function ownerToken(): Promise<string> {
    const out: string[] = [];
    const code = await runAdmin(['operator', 'add', 'owner@gym.example', '--role', 'owner'], {
      db: shared.db,
      clock: systemClock,
      horizonDays: 2,
      io: { out: (line) => out.push(line), err: (line) => out.push(line) },
      publicUrl: 'https://gym.example',
      operatorLocale: 'en',
    });
    expect(code, out.join('\n')).toBe(0);
    const text = out.join('\n');
    const token = /[?&]setup=([A-Za-z0-9_-]+)/.exec(text)![1]!;
    const secret = /otpauth:\/\/totp\/[^\s]*[?&]secret=([A-Z2-7]+)/.exec(text)![1]!;
    const setup = await call(servers[0]!, '/api/admin/auth/setup-password', {
      token,
      password: OPERATOR_PASSWORD,
    });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const login = await call(servers[1]!, '/api/admin/auth/login', {
      email: 'owner@gym.example',
      password: OPERATOR_PASSWORD,
      totp_code: totpCodeAt(secret, Date.now()),
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    return (login.body as Schemas['OperatorLoginResponse']).access_token;
  }

  it(`writes each broadcast once and each of its messages once, ${ROUNDS} rounds over`, async () => {
    const token = await ownerToken();
    const db = shared.db;
    const branchId = await createBranch(db);
    const members: { id: string; locale: 'pt' | 'fr' | 'de' }[] = [];
    for (const [index, locale] of (['pt', 'fr', 'de', 'fr', 'pt'] as const).entries()) {
      const id = await createUser(db);
      await db.updateTable('users').set({ locale }).where('id', '=', id).execute();
      // Two bookings for the first member: still one message per channel.
      for (const hour of index === 0 ? [17, 18] : [18 + index]) {
        const start = `2026-12-10T${hour}:00:00Z`;
        const slotId = await insertSlot(db, {
          branchId,
          start,
          end: `2026-12-10T${hour + 1}:00:00Z`,
          localDate: '2026-12-10',
        });
        await insertBooking(db, { slotId, status: 'confirmed', userId: id });
      }
      members.push({ id, locale });
    }

    const broadcastIds: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const request = {
        idempotency_key: randomUUID(),
        branch_id: branchId,
        starts_at: '2026-12-10T17:00:00Z',
        ends_at: '2026-12-10T23:00:00Z',
        channels: ['email', 'sms'],
        texts: {
          pt: { subject: `Aviso ${round}`, body: `O ar condicionado está avariado (${round}).` },
          fr: { subject: `Avis ${round}`, body: `La climatisation est en panne (${round}).` },
        },
      };
      const answers = await Promise.all(
        [0, 1, 0, 1].map((index) => call(servers[index]!, '/api/admin/broadcasts', request, token)),
      );
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const ids = new Set(answers.map((answer) => answer.body.id));
      expect(ids.size).toBe(1);
      broadcastIds.push(answers[0]!.body.id as number);
    }
    expect(new Set(broadcastIds).size).toBe(ROUNDS);
    expect(await db.selectFrom('broadcasts').select('id').execute()).toHaveLength(ROUNDS);

    for (const [round, id] of broadcastIds.entries()) {
      const messages = await db
        .selectFrom('outbox')
        .select(['dedupe_key', 'channel', 'locale', 'text_body'])
        .where('dedupe_key', 'like', `broadcast:${id}:%`)
        .execute();
      expect(messages.map((message) => message.dedupe_key).sort()).toEqual(
        members
          .flatMap((member) => [`broadcast:${id}:${member.id}:email`, `broadcast:${id}:${member.id}:sms`])
          .sort(),
      );
      for (const member of members) {
        const own = messages.filter((message) => message.dedupe_key!.includes(member.id));
        const expected = member.locale === 'fr' ? 'fr' : 'pt';
        expect(own.map((message) => message.locale)).toEqual([expected, expected]);
        const sms = own.find((message) => message.channel === 'sms')!;
        expect(sms.text_body).toBe(
          expected === 'fr'
            ? `La climatisation est en panne (${round}).`
            : `O ar condicionado está avariado (${round}).`,
        );
      }
    }

    // Both processes' workers deliver: each message once (printed to the log here, no provider configured).
    const pending = () =>
      db
        .selectFrom('outbox')
        .select('id')
        .where('dedupe_key', 'like', 'broadcast:%')
        .where('status', '=', 'pending')
        .execute();
    for (let attempt = 0; attempt < 100 && (await pending()).length > 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const delivered = await db
      .selectFrom('outbox')
      .select(['status', 'attempts'])
      .where('dedupe_key', 'like', 'broadcast:%')
      .execute();
    expect(delivered).toHaveLength(ROUNDS * members.length * 2);
    expect(delivered.every((row) => row.status === 'logged' && row.attempts === 1)).toBe(true);
  }, 120_000);
});
