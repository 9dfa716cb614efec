import { describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/cli.ts';
import { DEMO_CLIENT, DEMO_OWNER } from '../../server/demo/demo-data.ts';
import { systemClock } from '../../server/kernel/clock.ts';
import { totpCodeAt } from '../../server/operators/totp.ts';
import type { Schemas } from './support/accounts.ts';
import { ledgerInvariantViolations, NO_VIOLATIONS, refundSharesOf } from './support/ledger.ts';
import { OPERATOR_PASSWORD } from './support/operators.ts';
import { callJson, type ServerProcess, useServerProcesses } from './support/server-process.ts';

// Issue 32, item 2: two real server processes on one PostgreSQL database, and a staff member's refund above the
// ceiling decided twice at once. Two owners approving the same request, one through each process, make one
// cancellation, one refund in the ledger and one message to the member (the other owner hears 409
// `refund_approval_decided`); an owner approving while the member cancels makes one cancellation and one refund,
// whoever wins (the approval closed with 409 `refund_approval_closed` when the member was first).

const ROUNDS = 4;

describe('a refund above the staff ceiling approved through two server processes at once', () => {
  // The first migrates and seeds the demo data (its owner and member among it); the second finds both done.
  const shared = useServerProcesses({ fromScratch: true });
  const { servers } = shared;

  const call = callJson;

  /** A back-office command on the shared database; fails the test when it fails. */
  async function admin(...argv: string[]): Promise<string[]> {
    const out: string[] = [];
    const code = await runAdmin(argv, {
      db: shared.db,
      clock: systemClock,
      horizonDays: 7,
      io: { out: (line) => out.push(line), err: (line) => out.push(line) },
      publicUrl: 'https://gym.example',
      operatorLocale: 'en',
    });
    expect(code, out.join('\n')).toBe(0);
    return out;
  }

  async function login(email: string, secret: string, server: ServerProcess): Promise<string> {
    const answer = await call(server, '/api/admin/auth/login', {
      email,
      password: email === DEMO_OWNER.email ? DEMO_OWNER.password : OPERATOR_PASSWORD,
      totp_code: totpCodeAt(secret, Date.now()),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body as Schemas['OperatorLoginResponse']).access_token;
  }

  /** An operator made by the CLI, its password set through one process and logged in through the other. */
  async function newOperator(email: string, role: 'owner' | 'staff'): Promise<string> {
    const text = (await admin('operator', 'add', email, '--role', role)).join('\n');
    const token = /[?&]setup=([A-Za-z0-9_-]+)/.exec(text)![1]!;
    const secret = /otpauth:\/\/totp\/[^\s]*[?&]secret=([A-Z2-7]+)/.exec(text)![1]!;
    const setup = await call(servers[0]!, '/api/admin/auth/setup-password', {
      token,
      password: OPERATOR_PASSWORD,
    });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    return login(email, secret, servers[1]!);
  }

  it(`makes one cancellation, one refund and one message per request, ${ROUNDS * 2} rounds over`, async () => {
    const owners = [
      await login(DEMO_OWNER.email, DEMO_OWNER.totpSecret, servers[0]!),
      await newOperator('second.owner@gym.example', 'owner'),
    ];
    const staff = await newOperator('staff@gym.example', 'staff');
    // Every refund of staff needs an owner.
    await admin('approvals', 'ceiling', '0');

    const memberLogin = await fetch(`${servers[0]!.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: DEMO_CLIENT.email, password: DEMO_CLIENT.password }),
    });
    expect(memberLogin.status).toBe(200);
    const member = ((await memberLogin.json()) as { access_token: string }).access_token;
    const branches = (await call(servers[1]!, '/api/bookings/branches')).body as unknown as {
      id: number;
      active_with_smart_lock: boolean;
    }[];
    const branch = branches.find((candidate) => candidate.active_with_smart_lock)!;
    const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
    const slots = (
      (await call(servers[0]!, `/api/bookings/slots/${branch.id}/${day}`)).body as unknown as {
        id: number;
        basic_price_eur: number;
        is_bookeable: boolean;
        start_time: string;
        end_time: string;
      }[]
    ).filter(
      (slot) =>
        slot.is_bookeable &&
        slot.basic_price_eur > 0 &&
        new Date(slot.end_time).getTime() - new Date(slot.start_time).getTime() <= 3_600_000,
    );
    expect(slots.length).toBeGreaterThanOrEqual(ROUNDS * 2);

    /** The member books and pays the slot, and a staff member asks to cancel it with a full refund. */
    async function pendingRequest(round: number) {
      const slot = slots[round]!;
      const created = await call(
        servers[round % 2]!,
        '/api/bookings/',
        {
          time_slot_id: [slot.id],
          max_bookings_per_slot: 1,
          coupon_code: null,
          expected_total_final_price_eur: slot.basic_price_eur,
        },
        member,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const secret = (created.body.checkout_session as { clientSecret: string }).clientSecret;
      const paid = await call(
        servers[(round + 1) % 2]!,
        `/api/checkout/local/${secret.split('_secret_')[0]}/complete`,
        {
          card_number: '4242 4242 4242 4242',
        },
      );
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const booking = await shared.db
        .selectFrom('bookings')
        .select('id')
        .where('slot_id', '=', slot.id)
        .where('status', '=', 'confirmed')
        .executeTakeFirstOrThrow();
      const asked = await call(
        servers[round % 2]!,
        `/api/admin/bookings/${booking.id}/cancel`,
        { refund: { mode: 'full' }, reason: `leak in round ${round}` },
        staff,
      );
      expect(asked.status, JSON.stringify(asked.body)).toBe(202);
      return { bookingId: booking.id, approvalId: asked.body.id as number, euros: slot.basic_price_eur };
    }

    /** What the booking came to: its status, its refunds in the ledger, the cancellation messages to the member. */
    async function outcomeOf(bookingId: number) {
      const booking = await shared.db
        .selectFrom('bookings')
        .select('status')
        .where('id', '=', bookingId)
        .executeTakeFirstOrThrow();
      const refunds = await refundSharesOf(shared.db, bookingId);
      const detail = (await call(servers[0]!, `/api/admin/bookings/${bookingId}`, undefined, owners[0]))
        .body as Schemas['AdminBookingDetail'];
      const told = detail.messages.filter(
        (message) => message.kind === 'booking_canceled' && message.channel === 'email',
      );
      return { status: booking.status, refunds, told: told.length };
    }

    // Two owners approve the same request at once, one through each process.
    for (let round = 0; round < ROUNDS; round += 1) {
      const request = await pendingRequest(round);
      const answers = await Promise.all(
        owners.map((token, index) =>
          call(servers[index]!, `/api/admin/refund-approvals/${request.approvalId}/approve`, {}, token),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('refund_approval_decided');
      expect(await outcomeOf(request.bookingId)).toEqual({
        status: 'canceled',
        refunds: [{ amount_cents: Math.round(request.euros * 100), purpose: 'operator' }],
        told: 1,
      });
    }

    // An owner approves while the member cancels the booking themselves.
    const winners: string[] = [];
    for (let round = ROUNDS; round < ROUNDS * 2; round += 1) {
      const request = await pendingRequest(round);
      const [approval, byMember] = await Promise.all([
        call(servers[round % 2]!, `/api/admin/refund-approvals/${request.approvalId}/approve`, {}, owners[0]),
        call(
          servers[(round + 1) % 2]!,
          '/api/bookings/cancel-bookings',
          { booking: [{ booking_id: request.bookingId, expected_refund_eur: request.euros }] },
          member,
        ),
      ]);
      const approved = approval.status === 200;
      if (!approved) expect(approval.body.code).toBe('refund_approval_closed');
      winners.push(approved ? 'owner' : 'member');
      expect(await outcomeOf(request.bookingId)).toEqual({
        status: 'canceled',
        refunds: [
          { amount_cents: Math.round(request.euros * 100), purpose: approved ? 'operator' : 'cancellation' },
        ],
        told: 1,
      });
      const stored = await shared.db
        .selectFrom('refund_approvals')
        .select('status')
        .where('id', '=', request.approvalId)
        .executeTakeFirstOrThrow();
      expect(stored.status).toBe(approved ? 'approved' : 'closed');
      // The member's own cancellation went through, or found the booking cancelled: never a second refund.
      expect([200, 409]).toContain(byMember.status);
    }
    expect(winners).toHaveLength(ROUNDS);
    expect(await ledgerInvariantViolations(shared.db)).toEqual(NO_VIOLATIONS);
    // One request per round, each decided once.
    const decided = await shared.db
      .selectFrom('refund_approvals')
      .select(['status'])
      .where('status', '=', 'pending')
      .execute();
    expect(decided).toEqual([]);
  }, 240_000);
});
