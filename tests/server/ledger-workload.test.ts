import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createLocalPaymentProvider } from '../../server/adapters/payments/local.ts';
import type { PaymentProvider } from '../../server/adapters/payments/provider.ts';
import { expirePendingBookings } from '../../server/booking/repository.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import type { Db } from '../../server/db/database.ts';
import { totpCodeAt } from '../../server/operators/totp.ts';
import { bookingService, lisbonSlot, verifiedUser } from './bookings-fixtures.ts';
import { registration, RELAXED_RATE_LIMITS, type Schemas } from './support/accounts.ts';
import { openFreshDatabase } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import {
  csvCells,
  ledgerInvariantViolations,
  ledgerMoneyByDay,
  ledgerPaybackViolations,
  ledgerSumsOfBookings,
  NO_PAYBACK_VIOLATIONS,
  NO_VIOLATIONS,
  type BookingLedgerSums,
} from './support/ledger.ts';
import { addOperator, OPERATOR_PASSWORD } from './support/operators.ts';
import { seededRandom } from './support/random.ts';
import { useServerProcesses } from './support/server-process.ts';

// Issue 27: a random concurrent workload of money on two server processes sharing one PostgreSQL. Members book
// one to three slots and pay (the local card checkout), move paid bookings to dearer slots (paying the difference)
// and to cheaper ones (refunded at once), cancel, and delete their accounts with paid bookings ahead; an operator
// cancels with a refund of their choosing (an amount, the policy, all, nothing), moves at the same price, and
// closes a branch over paid bookings (refunded in full), reopening it a moment later. Races are the point: the
// same checkout paid twice at once, a payment racing the session's expiry or the booking's cancellation, two
// cancellations of one booking at once, a cancellation racing a move, an operator's refund racing the member's,
// an account's deletion racing its own cancellations and payments. Requests alternate between the processes.
//
// Afterwards no answer may have been a 5xx or a status the contract does not declare for its operation; the
// ledger's invariants must hold (no refund beyond its payment, every paid booking has its payment, shares add
// up, every refund that moved money is a row); the money report and its CSV must equal sums over the ledger;
// every booking's figures on the console and in My bookings must be its ledger sums; and enough of each kind of
// money movement must have happened that the test cannot pass by doing nothing. Seeded: the seed is in the
// test's name and WORKLOAD_SEED repeats it (the workers' interleaving is the machine's, so a run is not replayed
// exactly, but its choices are drawn the same way). WORKLOAD_MS sets the run's length, WORKLOAD_VERBOSE=1 prints
// what was done.

// 20 s make two to ten times the minimums below on an idle two-core machine (45 s until issue 28's timings).
const DURATION_MS = Number(process.env.WORKLOAD_MS ?? 20_000);
const HARD_STOP_MS = 120_000;
const WORKERS = 8;
const MEMBERS = 6;
/** Deleted accounts are replaced by new ones; this many at most, so registrations do not eat the run. */
const MAX_DELETIONS = 8;
const SEED = Number(process.env.WORKLOAD_SEED ?? 27_027);
const TEST_CARD = { card_number: '4242 4242 4242 4242' };

const root = path.resolve(import.meta.dirname, '../..');

// The statuses the contract declares for each operation, to check every answer of the run against.
type SpecOperation = { operationId: string; responses?: Record<string, unknown> };
const spec = parse(readFileSync(path.join(root, 'openapi/openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, SpecOperation>>;
};
const declaredOperations = Object.entries(spec.paths)
  .flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        id: operation.operationId,
        // Literal segments win over parameters: /bookings/my-bookings before /bookings/{booking_id}.
        parameters: (template.match(/\{/g) ?? []).length,
        pattern: new RegExp(`^/api${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        statuses: new Set(Object.keys(operation.responses ?? {})),
      })),
  )
  .sort((a, b) => a.parameters - b.parameters);

function declaredOperation(method: string, url: string) {
  const pathOnly = url.split('?')[0]!;
  return declaredOperations.find(
    (operation) => operation.method === method && operation.pattern.test(pathOnly),
  );
}

const cents = (euros: number) => Math.round(euros * 100);
const euros = (amount: number) => amount / 100;

type Slot = { id: number; branchId: number; start: number; priceCents: number };
type Member = { email: string; token: string; userId: string; alive: boolean };
type MyBooking = Schemas['Booking'];
type Answer = { status: number; body: Record<string, unknown>; text: string; headers: Headers };

describe('a random concurrent workload of money on two processes (postgres)', () => {
  const shared = useServerProcesses({
    env: { RATE_LIMITS: RELAXED_RATE_LIMITS.replace(/=1000\/1h/g, '=100000/1h') },
  });
  const { servers } = shared;
  /** `<label> <status>` → how many answers. */
  const statuses = new Map<string, number>();
  /** What actually happened, by kind: what the minimum counts are asserted on. */
  const done = new Map<string, number>();
  const failures: string[] = [];
  const undeclared: string[] = [];

  const count = (kind: string, by = 1) => done.set(kind, (done.get(kind) ?? 0) + by);

  async function call(
    label: string,
    server: number,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    token?: string,
  ): Promise<Answer> {
    const response = await fetch(`${servers[server % 2]!.url}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        locale: 'en',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const code = response.status >= 400 ? /"code":"([a-z_]+)"/.exec(text)?.[1] : undefined;
    const key = `${label} ${response.status}${code ? ` ${code}` : ''}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
    if (response.status >= 500)
      failures.push(`${label} ${method} ${url} → ${response.status}: ${text.slice(0, 300)}`);
    const operation = declaredOperation(method, url);
    if (!operation || !operation.statuses.has(String(response.status))) {
      undeclared.push(`${label} ${method} ${url} → ${response.status} (${operation?.id ?? 'no operation'})`);
    }
    let parsed: Record<string, unknown> = {};
    if (response.headers.get('content-type')?.includes('json') && text) {
      parsed = JSON.parse(text) as Record<string, unknown>;
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  async function codeSentTo(to: string): Promise<string> {
    const messages = (await (
      await fetch(`${servers[0]!.url}/api/dev/outbox?to=${encodeURIComponent(to)}`)
    ).json()) as { text: string }[];
    const code = messages.map((message) => /\b(\d{6})\b/.exec(message.text)?.[1]).find(Boolean);
    if (!code) throw new Error(`no code was sent to ${to}`);
    return code;
  }

  /** A verified member, registered and logged in over HTTP. */
  async function newMember(): Promise<Member> {
    const account = registration({ locale: 'en' });
    expect((await call('register', 0, 'POST', '/api/auth/register', account)).status).toBe(201);
    await call('confirm', 1, 'GET', `/api/auth/confirm-email/${await codeSentTo(account.email)}`);
    await call(
      'confirm',
      0,
      'GET',
      `/api/auth/confirm-phone-number/${await codeSentTo(account.phone_number)}`,
    );
    const login = await fetch(`${servers[1]!.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: account.email, password: account.password }),
    });
    expect(login.status).toBe(200);
    const { id: userId } = await shared.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', account.email.toLowerCase())
      .executeTakeFirstOrThrow();
    const token = ((await login.json()) as { access_token: string }).access_token;
    return { email: account.email, token, userId, alive: true };
  }

  /** An owner of the console, made by the CLI as the product makes them, logged in. */
  async function operator(): Promise<string> {
    const { setupToken: setup, secret } = await addOperator(
      shared.database,
      fixedClock(new Date().toISOString()),
      'ledger-ops@gym.example',
      'owner',
    );
    const body = { token: setup, password: OPERATOR_PASSWORD };
    expect((await call('setup', 0, 'POST', '/api/admin/auth/setup-password', body)).status).toBe(200);
    const login = await call('admin login', 1, 'POST', '/api/admin/auth/login', {
      email: 'ledger-ops@gym.example',
      password: OPERATOR_PASSWORD,
      totp_code: totpCodeAt(secret, Date.now()),
    });
    expect(login.status).toBe(200);
    return login.body.access_token as string;
  }

  it(`keeps the ledger's invariants, and every figure of money equal to the ledger's sums (seed ${SEED})`, async () => {
    const began = Date.now();
    const { next, pick, sample } = seededRandom(SEED);
    const chance = (probability: number) => next() < probability;

    // Both bookable branches; on each, the hours from 06:00 to 21:59 (night, morning, day and peak prices) of
    // the next few days: some within the refund policy's 50 % and 0 % tiers, most beyond 48 hours (movable).
    const branches = (await (await fetch(`${servers[0]!.url}/api/bookings/branches`)).json()) as {
      id: number;
      active_with_smart_lock: boolean;
    }[];
    const pools: Slot[][] = [];
    for (const branch of branches.filter((candidate) => candidate.active_with_smart_lock)) {
      const pool: Slot[] = [];
      for (const daysAhead of [1, 2, 3, 4]) {
        const day = new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
        const slots = (await (
          await fetch(`${servers[0]!.url}/api/bookings/slots/${branch.id}/${day}`)
        ).json()) as { id: number; start_time: string; basic_price_eur: number }[];
        for (const slot of slots) {
          const hour = slot.start_time.slice(11, 13);
          if (hour < '06' || hour > '21') continue;
          pool.push({
            id: slot.id,
            branchId: branch.id,
            start: Date.parse(slot.start_time),
            priceCents: cents(slot.basic_price_eur),
          });
        }
      }
      pools.push(pool.sort((a, b) => a.start - b.start));
    }
    expect(pools.length).toBeGreaterThanOrEqual(1);
    expect(pools.every((pool) => pool.length >= 40)).toBe(true);
    const slotById = new Map(pools.flat().map((slot) => [slot.id, slot]));

    const members: Member[] = [];
    for (let index = 0; index < MEMBERS; index += 1) members.push(await newMember());
    const operatorToken = await operator();
    let deletions = 0;

    const pickMember = (): Member | undefined => {
      const alive = members.filter((member) => member.alive);
      return alive.length === 0 ? undefined : pick(alive);
    };
    const memberOf = (userId: string | null) =>
      members.find((member) => member.alive && member.userId === userId);
    const sessionOf = (clientSecret: string) => clientSecret.split('_secret_')[0]!;

    // --- The members' and the operator's requests ----------------------------------------------------------

    async function pay(server: number, sessionId: string, kind: string) {
      const paid = await call('pay', server, 'POST', `/api/checkout/local/${sessionId}/complete`, TEST_CARD);
      if (paid.status === 200 && paid.body.outcome === 'paid') count(kind);
      return paid;
    }

    async function payLate(server: number, sessionId: string) {
      const late = await call('pay late', server, 'POST', `/api/dev/checkout/${sessionId}/pay-late`);
      if (late.status === 200) count('pay late');
    }

    async function expire(server: number, sessionId: string) {
      await call('expire', server, 'POST', `/api/dev/checkout/${sessionId}/expire`);
    }

    /** The member back from the checkout: their page reads the session's status, which also reconciles it. */
    async function returnFromCheckout(server: number, member: Member, sessionId: string) {
      await call(
        'session status',
        server,
        'GET',
        `/api/checkout/session-status?stripe_session_id=${sessionId}`,
        undefined,
        member.token,
      );
    }

    /** A checkout paid one of the ways a member's can be, racing what `race` sends at the same time. */
    async function settle(
      server: number,
      member: Member,
      sessionId: string,
      kind: string,
      race?: () => Promise<unknown>,
    ) {
      const roll = next();
      if (race) await Promise.all([pay(server, sessionId, kind), race()]);
      else if (roll < 0.45) await pay(server, sessionId, kind);
      // The return page's reconciliation racing the payment's own fulfilment.
      else if (roll < 0.68)
        await Promise.all([pay(server, sessionId, kind), returnFromCheckout(server + 1, member, sessionId)]);
      // The same checkout paid twice at once, on both processes.
      else if (roll < 0.8)
        await Promise.all([pay(server, sessionId, kind), pay(server + 1, sessionId, kind)]);
      // The payment racing the session's expiry.
      else if (roll < 0.88) await Promise.all([pay(server, sessionId, kind), expire(server + 1, sessionId)]);
      // A bank payment arriving after the hold ended: refunded at once.
      else if (roll < 0.95) await payLate(server, sessionId);
      // Left unpaid: the hold stays until it expires, or a closure or a deletion ends it.
    }

    async function book(server: number, member: Member, slots: Slot[]): Promise<string | null> {
      const total = slots.reduce((sum, slot) => sum + slot.priceCents, 0);
      const created = await call(
        'book',
        server,
        'POST',
        '/api/bookings/',
        {
          time_slot_id: slots.map((slot) => slot.id),
          max_bookings_per_slot: 1,
          coupon_code: null,
          expected_total_final_price_eur: euros(total),
        },
        member.token,
      );
      const session = created.body.checkout_session as { clientSecret?: string | null } | undefined;
      if (created.status !== 201 || !session?.clientSecret) return null;
      count('book');
      return sessionOf(session.clientSecret);
    }

    async function myBookings(server: number, member: Member): Promise<MyBooking[]> {
      const answer = await call(
        'my bookings',
        server,
        'GET',
        '/api/bookings/my-bookings',
        undefined,
        member.token,
      );
      return answer.status === 200 ? (answer.body as unknown as MyBooking[]) : [];
    }

    async function cancel(server: number, member: Member, bookings: MyBooking[], label = 'cancel') {
      const canceled = await call(
        label,
        server,
        'POST',
        '/api/bookings/cancel-bookings',
        {
          booking: bookings.map((booking) => ({
            booking_id: booking.id,
            expected_refund_eur: booking.refundable_eur,
          })),
        },
        member.token,
      );
      if (canceled.status === 200) count(label);
      return canceled;
    }

    /** A free slot of the booking's branch, dearer, cheaper or at the same price, other than its own. */
    function moveTarget(booking: MyBooking, direction: 'up' | 'down' | 'same'): Slot | undefined {
      const pool = pools.find(
        (candidates) => candidates[0]!.branchId === booking.time_slot_data.branch_data.id,
      );
      const own = Date.parse(booking.time_slot_data.start_time);
      const price = cents(booking.final_price_eur);
      const targets = (pool ?? []).filter(
        (slot) =>
          slot.start !== own &&
          (direction === 'up'
            ? slot.priceCents > price
            : direction === 'down'
              ? slot.priceCents < price
              : slot.priceCents === price),
      );
      return targets.length === 0 ? undefined : pick(targets);
    }

    async function move(server: number, member: Member, booking: MyBooking, target: Slot, label = 'move') {
      const body = (difference: number) => ({
        time_slot_id: target.id,
        expected_price_difference_eur: euros(difference),
      });
      let moved = await call(
        label,
        server,
        'POST',
        `/api/bookings/${booking.id}/move`,
        body(target.priceCents - cents(booking.final_price_eur)),
        member.token,
      );
      // The booking moved since it was read: the client shows the server's figure and asks again.
      if (moved.status === 409 && moved.body.code === 'price_difference_changed') {
        const difference = moved.body.price_difference_eur;
        if (typeof difference !== 'number') return moved;
        moved = await call(
          label,
          server + 1,
          'POST',
          `/api/bookings/${booking.id}/move`,
          body(cents(difference)),
          member.token,
        );
      }
      if (moved.status === 200) {
        const refunded = moved.body.refunded_eur;
        if (moved.body.status === 'awaiting_payment') count('move up (checkout)');
        else if (typeof refunded === 'number' && refunded > 0) count('move down (refunded)');
        else count('move same price');
      }
      return moved;
    }

    const movedSession = (moved: Answer) => {
      const session = moved.body.checkout_session as { clientSecret?: string } | null | undefined;
      return moved.status === 200 && session?.clientSecret ? sessionOf(session.clientSecret) : null;
    };

    /** A confirmed or held booking ahead, read from the database as an operator's search would find it. */
    async function liveBookingFromDatabase(kinds: ('confirmed' | 'pending')[]) {
      const rows = await shared.db
        .selectFrom('bookings')
        .select([
          'id',
          'user_id',
          'slot_id',
          'branch_id',
          'start_time',
          'end_time',
          'status',
          'checkout_session_id',
        ])
        .where('status', 'in', kinds)
        .where('start_time', '>', new Date(Date.now() + 60_000))
        .execute();
      return rows.length === 0 ? undefined : pick(rows);
    }

    async function operatorCancel(server: number, bookingId: number) {
      const detail = await call(
        'admin booking',
        server,
        'GET',
        `/api/admin/bookings/${bookingId}`,
        undefined,
        operatorToken,
      );
      if (detail.status !== 200) return;
      const { booking } = detail.body as unknown as Schemas['AdminBookingDetail'];
      const held = cents(booking.paid_eur) - cents(booking.refunded_eur);
      const roll = next();
      const refund =
        roll < 0.5 && held > 0
          ? { mode: 'amount', amount_eur: euros(1 + Math.floor(next() * held)) }
          : roll < 0.6
            ? // More than the gym holds: refused.
              { mode: 'amount', amount_eur: euros(held + 1) }
            : pick([{ mode: 'policy' }, { mode: 'full' }, { mode: 'none' }]);
      const canceled = await call(
        'admin cancel',
        server + 1,
        'POST',
        `/api/admin/bookings/${bookingId}/cancel`,
        { refund, reason: 'workload' },
        operatorToken,
      );
      if (canceled.status === 200) count(`admin cancel (${refund.mode})`);
    }

    const actions: { weight: number; run: (server: number) => Promise<void> }[] = [
      {
        // Book one to three slots of a branch in one checkout, and pay.
        weight: 6,
        run: async (server) => {
          const member = pickMember();
          if (!member) return;
          const pool = pick(pools);
          const size = 1 + Math.floor(next() * 3);
          const first = Math.floor(next() * (pool.length - size + 1));
          const sessionId = await book(server, member, pool.slice(first, first + size));
          if (sessionId) await settle(server + 1, member, sessionId, 'pay booking');
        },
      },
      {
        // Cancel one or two of one's bookings; now and then the same cancellation twice at once.
        weight: 3,
        run: async (server) => {
          const member = pickMember();
          if (!member) return;
          const live = (await myBookings(server, member)).filter((booking) => booking.is_cancelable);
          if (live.length === 0) return;
          const chosen = sample(live, chance(0.3) ? 2 : 1);
          if (chance(0.3)) {
            await Promise.all([
              cancel(server, member, chosen, 'cancel twice'),
              cancel(server + 1, member, chosen, 'cancel twice'),
            ]);
          } else await cancel(server + 1, member, chosen);
        },
      },
      {
        // Move a paid booking to a dearer slot (pay the difference), a cheaper one (refunded) or one at the same
        // price; now and then two moves of it at once, or the difference's payment racing a cancellation.
        weight: 5,
        run: async (server) => {
          const member = pickMember();
          if (!member) return;
          const movable = (await myBookings(server, member)).filter((booking) => booking.is_movable);
          if (movable.length === 0) return;
          const booking = pick(movable);
          const target = moveTarget(booking, pick(['up', 'up', 'down', 'down', 'same'] as const));
          if (!target) return;
          if (chance(0.15)) {
            const other = moveTarget(booking, pick(['up', 'down', 'same'] as const)) ?? target;
            const answers = await Promise.all([
              move(server, member, booking, target, 'move twice'),
              move(server + 1, member, booking, other, 'move twice'),
            ]);
            for (const answer of answers) {
              const sessionId = movedSession(answer);
              if (sessionId) await pay(server, sessionId, 'pay move difference');
            }
            return;
          }
          const sessionId = movedSession(await move(server + 1, member, booking, target));
          if (!sessionId) return;
          if (chance(0.2)) {
            // The difference paid while the member cancels the booking.
            await settle(server, member, sessionId, 'pay move difference', () =>
              cancel(server + 1, member, [booking], 'cancel racing payment'),
            );
          } else await settle(server, member, sessionId, 'pay move difference');
        },
      },
      {
        // A cancellation racing a move of the same booking, on the two processes.
        weight: 2,
        run: async (server) => {
          const member = pickMember();
          if (!member) return;
          const movable = (await myBookings(server, member)).filter((booking) => booking.is_movable);
          if (movable.length === 0) return;
          const booking = pick(movable);
          const target = moveTarget(booking, pick(['up', 'down', 'same'] as const));
          if (!target) return;
          const [, moved] = await Promise.all([
            cancel(server, member, [booking], 'cancel racing move'),
            move(server + 1, member, booking, target, 'move racing cancel'),
          ]);
          const sessionId = movedSession(moved);
          if (sessionId) await pay(server, sessionId, 'pay move difference');
        },
      },
      {
        // An operator cancels a booking with a refund of their choosing; now and then while its member cancels
        // it too, or, for a held one, while its member pays it.
        weight: 3,
        run: async (server) => {
          const booking = await liveBookingFromDatabase(chance(0.2) ? ['pending'] : ['confirmed']);
          if (!booking) return;
          const member = memberOf(booking.user_id);
          if (member && booking.status === 'pending' && booking.checkout_session_id) {
            const sessionId = booking.checkout_session_id;
            await Promise.all([
              operatorCancel(server, booking.id),
              pay(server + 1, sessionId, 'pay booking'),
            ]);
          } else if (member && chance(0.35)) {
            const mine = (await myBookings(server, member)).find((listed) => listed.id === booking.id);
            await Promise.all([
              operatorCancel(server, booking.id),
              mine?.is_cancelable ? cancel(server + 1, member, [mine], 'cancel racing operator') : undefined,
            ]);
          } else await operatorCancel(server, booking.id);
        },
      },
      {
        // An operator moves a booking to a free slot at the same price, now and then while its member moves it.
        weight: 2,
        run: async (server) => {
          const booking = await liveBookingFromDatabase(['confirmed']);
          if (!booking) return;
          const from = slotById.get(booking.slot_id);
          const targets = pools
            .flat()
            .filter(
              (slot) =>
                slot.branchId === booking.branch_id &&
                slot.id !== booking.slot_id &&
                slot.priceCents === from?.priceCents,
            );
          if (targets.length === 0) return;
          const operatorMove = async () => {
            const moved = await call(
              'admin move',
              server,
              'POST',
              `/api/admin/bookings/${booking.id}/move`,
              { time_slot_id: pick(targets).id, reason: 'workload' },
              operatorToken,
            );
            if (moved.status === 200) count('admin move');
          };
          const member = memberOf(booking.user_id);
          const mine =
            member && chance(0.4)
              ? (await myBookings(server + 1, member)).find(
                  (listed) => listed.id === booking.id && listed.is_movable,
                )
              : undefined;
          const target = mine && moveTarget(mine, pick(['up', 'down', 'same'] as const));
          if (member && mine && target) {
            const [, moved] = await Promise.all([
              operatorMove(),
              move(server + 1, member, mine, target, 'move racing operator'),
            ]);
            const sessionId = movedSession(moved);
            if (sessionId) await pay(server, sessionId, 'pay move difference');
          } else await operatorMove();
        },
      },
      {
        // An operator closes a branch over a booking (and what is around it), its member paying or cancelling
        // at the same moment now and then; the branch reopens a moment later.
        weight: 2,
        run: async (server) => {
          const booking = await liveBookingFromDatabase(
            chance(0.25) ? ['pending', 'confirmed'] : ['confirmed'],
          );
          if (!booking) return;
          const before = Math.floor(next() * 2) * 3_600_000;
          const after = Math.floor(next() * 2) * 3_600_000;
          const closing = () =>
            call(
              'closure',
              server,
              'POST',
              '/api/admin/closures',
              {
                branch_id: booking.branch_id,
                starts_at: new Date(booking.start_time.getTime() - before).toISOString(),
                ends_at: new Date(booking.end_time.getTime() + after).toISOString(),
                reason: 'workload',
              },
              operatorToken,
            );
          const member = memberOf(booking.user_id);
          let closure: Answer;
          if (member && booking.status === 'pending' && booking.checkout_session_id) {
            [closure] = await Promise.all([
              closing(),
              pay(server + 1, booking.checkout_session_id, 'pay booking'),
            ]);
          } else if (member && chance(0.3)) {
            const mine = (await myBookings(server + 1, member)).find((listed) => listed.id === booking.id);
            [closure] = await Promise.all([
              closing(),
              mine?.is_cancelable ? cancel(server + 1, member, [mine], 'cancel racing closure') : undefined,
            ]);
          } else closure = await closing();
          if (closure.status !== 201) return;
          count('closure');
          await new Promise((resolve) => setTimeout(resolve, 200 + next() * 1_000));
          const reopened = await call(
            'reopen',
            server + 1,
            'POST',
            `/api/admin/closures/${closure.body.id as number}/reopen`,
            undefined,
            operatorToken,
          );
          if (reopened.status === 200) count('reopen');
        },
      },
      {
        // A member deletes their account with paid bookings ahead, racing now and then one of their own
        // cancellations, an operator's refund, or a payment of a held booking; a new member takes their place.
        weight: 2,
        run: async (server) => {
          if (deletions >= MAX_DELETIONS) return;
          const member = pickMember();
          if (!member) return;
          deletions += 1;
          member.alive = false;
          let upcoming = (await myBookings(server, member)).filter((booking) => booking.is_cancelable);
          if (upcoming.length === 0) {
            const pool = pick(pools);
            const sessionId = await book(server, member, [pick(pool)]);
            if (sessionId) await pay(server + 1, sessionId, 'pay booking');
            upcoming = (await myBookings(server, member)).filter((booking) => booking.is_cancelable);
          }
          const roll = next();
          const deleting = async () => {
            const deleted = await call(
              'delete account',
              server,
              'DELETE',
              '/api/auth/delete-account',
              undefined,
              member.token,
            );
            if (deleted.status === 200) count('delete account');
          };
          if (roll < 0.25 && upcoming.length > 0) {
            await Promise.all([
              deleting(),
              cancel(server + 1, member, [pick(upcoming)], 'cancel racing deletion'),
            ]);
          } else if (roll < 0.45 && upcoming.length > 0) {
            await Promise.all([deleting(), operatorCancel(server + 1, pick(upcoming).id)]);
          } else if (roll < 0.65) {
            const sessionId = await book(server, member, [pick(pick(pools))]);
            await Promise.all([
              deleting(),
              sessionId ? pay(server + 1, sessionId, 'pay booking') : undefined,
            ]);
          } else if (roll < 0.8) {
            // The difference of a move to a dearer slot paid while the account goes.
            const movable = upcoming.filter((booking) => booking.is_movable);
            const booking = movable.length === 0 ? undefined : pick(movable);
            const target = booking && moveTarget(booking, 'up');
            const sessionId =
              booking && target ? movedSession(await move(server + 1, member, booking, target)) : null;
            await Promise.all([
              deleting(),
              sessionId ? pay(server + 1, sessionId, 'pay move difference') : undefined,
            ]);
          } else await deleting();
          members.push(await newMember());
        },
      },
    ];
    const weighted = actions.flatMap((action) => Array.from({ length: action.weight }, () => action.run));

    // 4. Work was done: each kind of money movement happened, several times over (checked at the end).
    const ledgerPurposes = async () =>
      (
        await sql<{ kind: string; purpose: string; entries: number }>`
          select kind, purpose, count(*)::int as entries from ledger_entries group by 1, 2 order by 1, 2`.execute(
          shared.db,
        )
      ).rows;
    const shortfalls = (rows: { purpose: string; entries: number }[]) => {
      const ledgerCount = (purpose: string) => rows.find((row) => row.purpose === purpose)?.entries ?? 0;
      const minimums: [string, number, number][] = [
        // 20 s on an idle two-core machine make two to ten times these (141 booking payments, 17 move
        // differences, 25 cheaper moves, 92 cancellations, 49 closures' refunds, 50 double cancellations); a busy
        // machine runs on until they are met.
        ['payments of bookings', ledgerCount('booking'), 50],
        ['payments of move differences', ledgerCount('move_difference'), 5],
        ['refunds of moves to cheaper slots', ledgerCount('move_to_cheaper_slot'), 8],
        ["refunds of members' cancellations", ledgerCount('cancellation'), 30],
        ["refunds of an operator's choosing", ledgerCount('operator'), 10],
        ['refunds of closures', ledgerCount('closure'), 10],
        ['refunds of deleted accounts', ledgerCount('account_deletion'), 4],
        ['refunds of late payments', ledgerCount('late_payment') + ledgerCount('move_late_payment'), 4],
        ['accounts deleted', done.get('delete account') ?? 0, 4],
        ['closures', done.get('closure') ?? 0, 10],
        ['cancellations sent twice at once', done.get('cancel twice') ?? 0, 5],
        ['cancellations racing a move', done.get('cancel racing move') ?? 0, 3],
      ];
      return minimums
        .filter(([, times, least]) => times < least)
        .map(([what, times, least]) => `${what}: ${times} < ${least}`);
    };

    // The workload runs for DURATION_MS, and on (up to HARD_STOP_MS) while some kind of work has not yet happened
    // often enough: a busy machine does fewer operations in the same time, not different ones.
    const started = Date.now();
    const deadline = started + DURATION_MS;
    const hardStop = started + Math.max(HARD_STOP_MS, 2 * DURATION_MS);
    let enough = false;
    const working = Promise.all(
      Array.from({ length: WORKERS }, async (_, worker) => {
        for (let turn = 0; Date.now() < deadline || (!enough && Date.now() < hardStop); turn += 1)
          await pick(weighted)(worker + turn);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, DURATION_MS));
    while (!enough && Date.now() < hardStop) {
      enough = shortfalls(await ledgerPurposes()).length === 0;
      if (!enough) await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    await working;
    const workloadMs = Date.now() - started;
    const setupMs = started - began;

    // --- What happened --------------------------------------------------------------------------------------
    const purposes = await ledgerPurposes();
    const summary = [
      `seed ${SEED}: setup ${setupMs} ms, workload ${workloadMs} ms`,
      ...[...done.entries()].sort().map(([kind, times]) => `done ${kind}: ${times}`),
      ...purposes.map((row) => `ledger ${row.kind} ${row.purpose}: ${row.entries}`),
      ...[...statuses.entries()].sort().map(([key, times]) => `${key}: ${times}`),
    ];
    const errors = servers
      .flatMap((server) => server.output.join('').split('\n'))
      .filter((line) => line.includes('"level":50'))
      .map((line) => line.slice(0, 1500))
      .slice(0, 20);
    if (process.env.WORKLOAD_VERBOSE) console.log(summary.join('\n'));

    // 1. No 5xx, and no status the contract does not declare for its operation.
    expect.soft(failures, [...summary, ...errors].join('\n')).toEqual([]);
    expect.soft(undeclared, summary.join('\n')).toEqual([]);

    // 2. The ledger's invariants.
    expect.soft(await ledgerInvariantViolations(shared.db), 'ledger invariants').toEqual(NO_VIOLATIONS);
    expect
      .soft(await ledgerPaybackViolations(shared.db), 'ledger payback invariants')
      .toEqual(NO_PAYBACK_VIOLATIONS);
    const sums = await ledgerSumsOfBookings(shared.db);
    const sumsOf = (id: number): BookingLedgerSums =>
      sums.get(id) ?? { paid: 0, refunded: 0, movesRefunded: 0 };
    const bookings = await shared.db
      .selectFrom('bookings')
      .select(['id', 'status', 'final_price_cents', 'canceled_by', 'user_id'])
      .orderBy('id')
      .execute();
    // A live booking was refunded nothing but its moves' differences, and costs what its payments came to
    // less those; a booking a closure ended or whose hold ended holds nothing of what was paid.
    const live = bookings.filter((booking) => booking.status === 'confirmed' && sumsOf(booking.id).paid > 0);
    expect
      .soft(
        live.filter((booking) => {
          const sum = sumsOf(booking.id);
          return (
            sum.refunded !== sum.movesRefunded || sum.paid - sum.movesRefunded !== booking.final_price_cents
          );
        }),
        'confirmed bookings whose ledger sums disagree with them',
      )
      .toEqual([]);
    expect
      .soft(
        bookings
          .filter((booking) => booking.status === 'expired' || booking.canceled_by?.startsWith('closure:'))
          .filter((booking) => sumsOf(booking.id).paid !== sumsOf(booking.id).refunded)
          .map((booking) => ({ ...booking, ...sumsOf(booking.id) })),
        'expired or closed bookings the gym still holds money of',
      )
      .toEqual([]);

    // 3. The money report and its CSV, over days covering the run, are the ledger's sums.
    const today = Date.now();
    const period = {
      from: new Date(started - 86_400_000).toISOString().slice(0, 10),
      to: new Date(today + 86_400_000).toISOString().slice(0, 10),
    };
    const fromLedger = await ledgerMoneyByDay(shared.db, period);
    const { rows: everything } = await sql<{ entries: number }>`
      select count(*)::int as entries from ledger_entries`.execute(shared.db);
    expect(fromLedger.totals.payments_count + fromLedger.totals.refunds_count).toBe(everything[0]!.entries);
    const query = `from=${period.from}&to=${period.to}`;
    const reportAnswer = await call(
      'money report',
      0,
      'GET',
      `/api/admin/reports/money?${query}`,
      undefined,
      operatorToken,
    );
    expect(reportAnswer.status).toBe(200);
    const report = reportAnswer.body as unknown as Schemas['MoneyReport'];
    expect
      .soft(
        {
          payments: cents(report.totals.payments_eur),
          refunds: cents(report.totals.refunds_eur),
          revenue: cents(report.totals.revenue_eur),
          payments_count: report.totals.payments_count,
          refunds_count: report.totals.refunds_count,
        },
        'money report totals',
      )
      .toEqual({
        payments: fromLedger.totals.payments_cents,
        refunds: fromLedger.totals.refunds_cents,
        revenue: fromLedger.totals.payments_cents - fromLedger.totals.refunds_cents,
        payments_count: fromLedger.totals.payments_count,
        refunds_count: fromLedger.totals.refunds_count,
      });
    const ledgerRows = fromLedger.everyDay.map((row) => [
      row.period,
      row.branch_id,
      row.payments_cents,
      row.refunds_cents,
      row.payments_cents - row.refunds_cents,
      row.payments_count,
      row.refunds_count,
    ]);
    expect
      .soft(
        report.rows.map((row) => [
          row.period,
          row.branch.id,
          cents(row.payments_eur),
          cents(row.refunds_eur),
          cents(row.revenue_eur),
          row.payments_count,
          row.refunds_count,
        ]),
        'money report rows',
      )
      .toEqual(ledgerRows);
    const csvAnswer = await call(
      'money csv',
      1,
      'GET',
      `/api/admin/reports/money/csv?${query}`,
      undefined,
      operatorToken,
    );
    expect(csvAnswer.status).toBe(200);
    const [header, ...csvRows] = csvAnswer.text.trimEnd().split('\r\n').map(csvCells);
    expect(header).toEqual([
      'period',
      'branch_id',
      'branch',
      'payments_eur',
      'refunds_eur',
      'revenue_eur',
      'payments_count',
      'refunds_count',
    ]);
    expect
      .soft(
        csvRows.map((cells) => [cells[0], ...cells.slice(1, 2), ...cells.slice(3)]),
        'money report CSV',
      )
      .toEqual(
        fromLedger.everyDay.map((row) => [
          row.period,
          String(row.branch_id),
          (row.payments_cents / 100).toFixed(2),
          (row.refunds_cents / 100).toFixed(2),
          ((row.payments_cents - row.refunds_cents) / 100).toFixed(2),
          String(row.payments_count),
          String(row.refunds_count),
        ]),
      );

    // Per booking, the console's booking page shows the ledger's sums: a sample of those money moved for.
    const expectedOnConsole = (id: number, finalPriceCents: number) => {
      const sum = sumsOf(id);
      return {
        final_price_eur: euros(sum.paid > 0 ? sum.paid - sum.movesRefunded : finalPriceCents),
        paid_eur: euros(sum.paid),
        refunded_eur: euros(sum.refunded),
      };
    };
    const withMoney = bookings.filter((booking) => sums.has(booking.id));
    const consoleSample = sample(withMoney, 40);
    const consolePages = await Promise.all(
      consoleSample.map(async (booking, index) => {
        const page = await call(
          'admin booking',
          index,
          'GET',
          `/api/admin/bookings/${booking.id}`,
          undefined,
          operatorToken,
        );
        const shown = (page.body as unknown as Schemas['AdminBookingDetail']).booking;
        return {
          id: booking.id,
          shown: {
            final_price_eur: shown.final_price_eur,
            paid_eur: shown.paid_eur,
            refunded_eur: shown.refunded_eur,
          },
          ledger: expectedOnConsole(booking.id, booking.final_price_cents),
        };
      }),
    );
    expect
      .soft(
        consolePages.map(({ id, shown }) => ({ id, ...shown })),
        'console booking pages',
      )
      .toEqual(consolePages.map(({ id, ledger }) => ({ id, ...ledger })));

    // My bookings of every member still there lists each of their bookings with the ledger's figures.
    const rowById = new Map(bookings.map((booking) => [booking.id, booking]));
    const listed: { id: number; final_price_eur: number; paid: boolean; refunded_eur: number | null }[] = [];
    for (const [index, member] of members.filter((candidate) => candidate.alive).entries()) {
      let cursor: string | null = null;
      do {
        const url: string = `/api/bookings/my-bookings?history_limit=100${cursor ? `&history_before=${cursor}` : ''}`;
        const page = await call('my bookings', index, 'GET', url, undefined, member.token);
        expect(page.status).toBe(200);
        for (const booking of page.body as unknown as MyBooking[]) {
          listed.push({
            id: booking.id,
            final_price_eur: booking.final_price_eur,
            paid: booking.paid,
            refunded_eur: booking.refunded_eur,
          });
        }
        cursor = page.headers.get('next-history-cursor');
      } while (cursor);
    }
    expect(listed.length).toBeGreaterThan(20);
    expect.soft(listed, 'My bookings').toEqual(
      listed.map(({ id }) => {
        const sum = sumsOf(id);
        const ending = sum.refunded - sum.movesRefunded;
        return {
          id,
          final_price_eur: euros(
            sum.paid > 0 ? sum.paid - sum.movesRefunded : rowById.get(id)!.final_price_cents,
          ),
          paid: sum.paid > 0,
          refunded_eur: ending > 0 ? euros(ending) : null,
        };
      }),
    );

    // 4. Work was done (the minimums above).
    expect(shortfalls(purposes), summary.join('\n')).toEqual([]);
  }, 240_000);
});

// What the workload found: a closure or an operator's cancellation ended a member's holds while the payment
// provider was opening their checkout, and the member heard 503 payment_provider_unavailable, though the provider
// was fine. The same moment, made certain: the provider ends the holds as a closure does before it answers.
describe('a booking whose holds a closure or an operator ends while its checkout opens (postgres)', () => {
  let database: { db: Db; close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    database = await openFreshDatabase('postgres');
  });
  afterAll(async () => database?.close());

  it('answers 409 slot_unavailable, not 503', async () => {
    const db = database!.db;
    const clock = fixedClock('2026-03-20T10:30:00Z');
    const slot = await lisbonSlot(db, await createBranch(db), '2026-03-26T10:00');
    const local = createLocalPaymentProvider({ db, clock });
    const payments: PaymentProvider = {
      ...local,
      createCheckoutSession: async (request) => {
        // What a closure of the period, or an operator cancelling the hold, does to it meanwhile.
        await expirePendingBookings(db, request.metadata.booking_ids!.split(',').map(Number));
        return local.createCheckoutSession(request);
      },
    };
    const booking = bookingService(db, clock, { payments }).createBooking({
      userId: await verifiedUser(db),
      slotIds: [slot],
      couponId: null,
      expectedTotalEur: 15,
      locale: 'en',
    });
    await expect(booking).rejects.toMatchObject({ code: 'slot_unavailable' });
  });
});
