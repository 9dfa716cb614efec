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
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import {
  DATABASE_TARGETS,
  emptyAllTables,
  freshDatabaseConfig,
  type FreshDatabase,
} from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';
import { runAdmin } from '../../server/admin/cli.ts';

// Issue 31, item 4: a door code for every guest. Each guest of a booking gets a code of their own on the branch's
// (virtual) door for the booking's window; it opens the door only there and then, and only while the guest is on a
// confirmed booking: removing the guest, cancelling or moving the booking revokes it at once, whatever the order of
// concurrent requests; the door sweep keeps it; the member's account deletion forgets the guests.

const START = '2026-03-20T10:00:00Z';
// The booking: 30 March 2026, 10:00–11:00 in Lisbon (09:00–10:00 UTC); the codes run 08:45–10:15 UTC.
const INSIDE = '2026-03-30T09:00:00Z';

describe.each(DATABASE_TARGETS)('guests of a booking (%s)', (target) => {
  const clock = fixedClock(START);
  let database: FreshDatabase;
  let app: FastifyInstance;
  let branchId: number;

  beforeAll(async () => {
    database = await freshDatabaseConfig(target);
    app = await buildApp(
      accountTestConfig(database.config, {
        SLOT_HORIZON_DAYS: '3',
        RATE_LIMITS: RELAXED_RATE_LIMITS.replace(/guest\.add=[^,]+/, 'guest.add=6/1h'),
      }),
      { clock },
    );
  }, 120_000);

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

  async function bookedAndPaid(localStart = '2026-03-30T10:00') {
    const caller = newClient(app);
    const account = await verifiedAccount(caller, app, { locale: 'en' });
    const slot = await lisbonSlot(app.db, branchId, localStart);
    await bookAndPayOverHttp(caller, account.token, slot);
    await app.jobs.runDue();
    const [booking] = (await caller.get('/api/bookings/my-bookings', account.token)).json<
      Schemas['Booking'][]
    >();
    return { caller, token: account.token, booking: booking! };
  }
  type Member = Awaited<ReturnType<typeof bookedAndPaid>>;

  const addGuest = (member: Member, body: object, bookingId = member.booking.id) =>
    member.caller.json('POST', `/api/bookings/${bookingId}/guests`, body, member.token);
  const removeGuest = (member: Member, guestId: number) =>
    member.caller.json(
      'DELETE',
      `/api/bookings/${member.booking.id}/guests/${guestId}`,
      undefined,
      member.token,
    );
  const cancel = (member: Member) =>
    member.caller.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: member.booking.id, expected_refund_eur: 15 }] },
      member.token,
    );
  const enter = async (code: string, at = INSIDE) =>
    (
      await app.inject({
        method: 'POST',
        url: `/api/dev/doors/${branchId}/enter`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ code, at }),
      })
    ).json<{ opened: boolean }>().opened;

  /** The digits of a guest's code (the member never sees them; the door does). */
  async function guestDigits(guestId: number): Promise<string> {
    const row = await app.db
      .selectFrom('booking_guests as guest')
      .innerJoin('lock_codes as code', 'code.id', 'guest.lock_code_id')
      .select('code.code')
      .where('guest.id', '=', guestId)
      .executeTakeFirstOrThrow();
    return row.code;
  }
  const memberDigits = async (member: Member) =>
    (
      await app.db
        .selectFrom('bookings as booking')
        .innerJoin('lock_codes as code', 'code.id', 'booking.lock_code_id')
        .select('code.code')
        .where('booking.id', '=', member.booking.id)
        .executeTakeFirstOrThrow()
    ).code;

  /** Live codes (not revoked) that serve no confirmed booking of theirs: must never exist after a change. */
  async function strayLiveCodes(): Promise<number[]> {
    const rows = await app.db
      .selectFrom('lock_codes as code')
      .select('code.id')
      .where('code.revoked_at', 'is', null)
      .where((eb) =>
        eb.not(
          eb.or([
            eb.exists(
              eb
                .selectFrom('bookings as booking')
                .select('booking.id')
                .whereRef('booking.lock_code_id', '=', 'code.id')
                .where('booking.status', '=', 'confirmed'),
            ),
            eb.exists(
              eb
                .selectFrom('booking_guests as guest')
                .innerJoin('bookings as booking', 'booking.id', 'guest.booking_id')
                .select('guest.id')
                .whereRef('guest.lock_code_id', '=', 'code.id')
                .where('guest.removed_at', 'is', null)
                .where('booking.status', '=', 'confirmed'),
            ),
          ]),
        ),
      )
      .execute();
    return rows.map((row) => row.id);
  }

  async function sweep() {
    await app.jobs.boss.send(JOB_QUEUES.doorSweep, null, { startAfter: dateFromInstant(clock.now()) });
    await app.jobs.runDue([JOB_QUEUES.doorSweep]);
    await app.jobs.runDue([JOB_QUEUES.lockSync]);
  }

  it('gives each guest a code of their own, on the door for the booking’s window only', async () => {
    const member = await bookedAndPaid();
    const added = await addGuest(member, { name: ' Rita ', phone_number: '+351 912 345 678' });
    expect(added.statusCode, added.body).toBe(201);
    const rita = added.json<Schemas['BookingGuest']>();
    expect(rita).toMatchObject({
      name: 'Rita',
      email: null,
      phone_number: '+351912345678',
      door_code: 'pending',
    });
    const paulo = (await addGuest(member, { name: 'Paulo', email: 'Paulo@Example.PT' })).json<
      Schemas['BookingGuest']
    >();
    expect(paulo.email).toBe('paulo@example.pt');
    await app.jobs.runDue([JOB_QUEUES.lockSync]);

    const listed = (await member.caller.get(`/api/bookings/${member.booking.id}/guests`, member.token)).json<
      Schemas['BookingGuest'][]
    >();
    expect(listed.map((guest) => [guest.name, guest.door_code])).toEqual([
      ['Rita', 'set'],
      ['Paulo', 'set'],
    ]);
    // Never the code itself: it is the guest's.
    expect(JSON.stringify(listed)).not.toMatch(/\b\d{6}\b/);

    const codes = [await memberDigits(member), await guestDigits(rita.id), await guestDigits(paulo.id)];
    expect(new Set(codes).size).toBe(3);
    const held = await app.db
      .selectFrom('virtual_door_codes')
      .select(['code', 'starts_at', 'ends_at'])
      .execute();
    expect(held.map((row) => [row.starts_at.toISOString(), row.ends_at.toISOString()])).toEqual(
      Array(3).fill(['2026-03-30T08:45:00.000Z', '2026-03-30T10:15:00.000Z']),
    );
    const ritaCode = codes[1]!;
    expect(await enter(ritaCode, INSIDE)).toBe(true);
    // The guest's entry is theirs: the member sees it on the guest, and the booking's own entry stays empty.
    const entered = (await member.caller.get(`/api/bookings/${member.booking.id}/guests`, member.token)).json<
      Schemas['BookingGuest'][]
    >();
    expect(entered.map((guest) => [guest.name, guest.entered_at])).toEqual([
      ['Rita', '2026-03-30T09:00:00.000Z'],
      ['Paulo', null],
    ]);
    const [own] = (await member.caller.get('/api/bookings/my-bookings', member.token)).json<
      Schemas['Booking'][]
    >();
    expect(own!.checked_in_at).toBeNull();
    expect(await enter(ritaCode, '2026-03-30T08:44:59Z')).toBe(false);
    expect(await enter(ritaCode, '2026-03-30T10:15:00Z')).toBe(false);

    // The door sweep keeps a guest's live code as it is.
    await sweep();
    expect(await enter(ritaCode, INSIDE)).toBe(true);
    expect(await strayLiveCodes()).toEqual([]);
  });

  it('revokes a removed guest’s code at once; the member and the other guests keep theirs', async () => {
    const member = await bookedAndPaid();
    const rita = (await addGuest(member, { name: 'Rita', phone_number: '+351912345678' })).json<
      Schemas['BookingGuest']
    >();
    const paulo = (await addGuest(member, { name: 'Paulo', email: 'paulo@example.pt' })).json<
      Schemas['BookingGuest']
    >();
    await app.jobs.runDue([JOB_QUEUES.lockSync]);
    const ritaCode = await guestDigits(rita.id);

    const removed = await removeGuest(member, rita.id);
    expect(removed.statusCode, removed.body).toBe(204);
    // Refused before the sync has even deleted it from the door.
    expect(await enter(ritaCode)).toBe(false);
    await app.jobs.runDue([JOB_QUEUES.lockSync]);
    expect(
      await app.db.selectFrom('virtual_door_codes').select('code').where('code', '=', ritaCode).execute(),
    ).toEqual([]);
    expect(await enter(await guestDigits(paulo.id))).toBe(true);
    expect(await enter(await memberDigits(member))).toBe(true);
    // A repeated request answers the same and changes nothing.
    expect((await removeGuest(member, rita.id)).statusCode).toBe(204);
    const listed = (await member.caller.get(`/api/bookings/${member.booking.id}/guests`, member.token)).json<
      Schemas['BookingGuest'][]
    >();
    expect(listed.map((guest) => guest.name)).toEqual(['Paulo']);
    expect(await strayLiveCodes()).toEqual([]);
  });

  it('cancelling the booking revokes every guest’s code', async () => {
    const member = await bookedAndPaid();
    const rita = (await addGuest(member, { name: 'Rita', phone_number: '+351912345678' })).json<
      Schemas['BookingGuest']
    >();
    await app.jobs.runDue([JOB_QUEUES.lockSync]);
    const ritaCode = await guestDigits(rita.id);
    expect((await cancel(member)).statusCode).toBe(200);
    expect(await enter(ritaCode)).toBe(false);
    await app.jobs.runDue();
    expect(await app.db.selectFrom('virtual_door_codes').select('code').execute()).toEqual([]);
    expect(await strayLiveCodes()).toEqual([]);
    const listed = (await member.caller.get(`/api/bookings/${member.booking.id}/guests`, member.token)).json<
      Schemas['BookingGuest'][]
    >();
    expect(listed.map((guest) => guest.door_code)).toEqual(['revoked']);
    // And no guest joins a cancelled booking.
    const late = await addGuest(member, { name: 'Paulo', email: 'paulo@example.pt' });
    expect(late.statusCode).toBe(409);
    expect(late.json<ErrorBody>().code).toBe('booking_not_guestable');
  });

  it('moving the booking gives its guests fresh codes for the new time and revokes the old ones', async () => {
    const member = await bookedAndPaid();
    const rita = (await addGuest(member, { name: 'Rita', phone_number: '+351912345678' })).json<
      Schemas['BookingGuest']
    >();
    await app.jobs.runDue([JOB_QUEUES.lockSync]);
    const before = await guestDigits(rita.id);
    const later = await lisbonSlot(app.db, branchId, '2026-03-30T15:00');
    const moved = await member.caller.json(
      'POST',
      `/api/bookings/${member.booking.id}/move`,
      { time_slot_id: later, expected_price_difference_eur: 0 },
      member.token,
    );
    expect(moved.statusCode, moved.body).toBe(200);
    await app.jobs.runDue([JOB_QUEUES.lockSync]);
    const after = await guestDigits(rita.id);
    expect(await enter(before, INSIDE)).toBe(false);
    expect(await enter(after, INSIDE)).toBe(false);
    expect(await enter(after, '2026-03-30T14:30:00Z')).toBe(true);
    expect(await strayLiveCodes()).toEqual([]);
  });

  type OutboxRow = { kind: string; channel: string; recipient: string; text_body: string; locale: string };
  const messagesOf = async (kind: 'guest_code' | 'guest_withdrawn') =>
    (await app.db
      .selectFrom('outbox')
      .select(['kind', 'channel', 'recipient', 'text_body', 'locale'])
      .where('kind', '=', kind)
      .orderBy('id')
      .execute()) as OutboxRow[];
  const guestMessages = () => messagesOf('guest_code');
  const withdrawals = () => messagesOf('guest_withdrawn');

  /** Rita (an e-mail and a phone) and Paulo (an e-mail) on the member's booking. */
  async function ritaAndPaulo(member: Member) {
    const rita = (
      await addGuest(member, { name: 'Rita', email: 'rita@example.pt', phone_number: '+351912345678' })
    ).json<Schemas['BookingGuest']>();
    const paulo = (await addGuest(member, { name: 'Paulo', email: 'paulo@example.pt' })).json<
      Schemas['BookingGuest']
    >();
    return { rita, paulo };
  }

  it('sends each guest their own code 30 minutes before the start, in the member’s language, once', async () => {
    const member = await bookedAndPaid();
    const { rita, paulo: gone } = await ritaAndPaulo(member);
    await removeGuest(member, gone.id);
    await app.jobs.runDue();
    expect(await guestMessages()).toEqual([]);

    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    await app.jobs.runDue();
    const digits = await guestDigits(rita.id);
    const sent = await guestMessages();
    // Rita's e-mail and SMS; nothing for the guest removed before the time.
    expect(sent.map((row) => [row.channel, row.recipient, row.locale])).toEqual([
      ['email', 'rita@example.pt', 'en'],
      ['sms', '+351912345678', 'en'],
    ]);
    expect(sent[0]!.text_body).toContain('Hello Rita');
    expect(sent[0]!.text_body).toMatch(/invited you to a session at Lisboa – Avenidas Novas/);
    expect(sent[0]!.text_body).toContain(digits);
    expect(sent[0]!.text_body).not.toContain(await memberDigits(member));
    expect(sent[0]!.text_body).not.toContain('account_tab');
    expect(sent[1]!.text_body).toContain(digits);
  });

  it('after a move the guest is sent the new code at the new time, never the old one', async () => {
    const member = await bookedAndPaid();
    const rita = (await addGuest(member, { name: 'Rita', email: 'rita@example.pt' })).json<
      Schemas['BookingGuest']
    >();
    const old = await guestDigits(rita.id);
    const later = await lisbonSlot(app.db, branchId, '2026-03-30T15:00');
    await member.caller.json(
      'POST',
      `/api/bookings/${member.booking.id}/move`,
      { time_slot_id: later, expected_price_difference_eur: 0 },
      member.token,
    );
    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    expect(await guestMessages()).toEqual([]);
    clock.set('2026-03-30T13:30:00Z');
    await app.jobs.runDue();
    await app.jobs.runDue();
    const sent = await guestMessages();
    expect(sent.map((row) => row.channel)).toEqual(['email']);
    expect(sent[0]!.text_body).toContain(await guestDigits(rita.id));
    expect(sent[0]!.text_body).not.toContain(old);
  });

  const cancelNow = (member: Member) =>
    member.caller.json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: member.booking.id, expected_refund_eur: 0 }] },
      member.token,
    );

  it('a guest removed after their code was sent is told, once, that it no longer opens the door', async () => {
    const member = await bookedAndPaid();
    const { rita, paulo: early } = await ritaAndPaulo(member);
    // Removed before the code went out: they hold no code, and hear nothing.
    expect((await removeGuest(member, early.id)).statusCode).toBe(204);
    expect(await withdrawals()).toEqual([]);

    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    await app.jobs.runDue();
    const digits = await guestDigits(rita.id);
    expect((await guestMessages()).map((row) => row.recipient)).toEqual(['rita@example.pt', '+351912345678']);

    expect((await removeGuest(member, rita.id)).statusCode).toBe(204);
    expect((await removeGuest(member, rita.id)).statusCode).toBe(204);
    await app.jobs.runDue();
    const told = await withdrawals();
    expect(told.map((row) => [row.channel, row.recipient, row.locale])).toEqual([
      ['email', 'rita@example.pt', 'en'],
      ['sms', '+351912345678', 'en'],
    ]);
    expect(told[0]!.text_body).toContain('Hello Rita');
    expect(told[0]!.text_body).toMatch(
      /Your invitation from \S+ to this session at Lisboa – Avenidas Novas has been cancelled:/,
    );
    expect(told[0]!.text_body).toContain('The door code you were sent no longer opens the door.');
    expect(told[1]!.text_body).toMatch(
      /your invitation from \S+ for .+ at Lisboa – Avenidas Novas has been cancelled/,
    );
    // The word carries no code, and the code itself is gone from the door.
    for (const row of told) expect(row.text_body).not.toContain(digits);
    expect(await enter(digits, '2026-03-30T09:50:00Z')).toBe(false);
  });

  it('cancelling the booking tells each guest who had their code; erasing the account tells none', async () => {
    const member = await bookedAndPaid();
    await addGuest(member, { name: 'Rita', phone_number: '+351912345678' });
    const other = await bookedAndPaid('2026-03-30T11:00');
    await addGuest(other, { name: 'Paulo', email: 'paulo@example.pt' });
    // The first booking starts at 09:00 UTC, the second at 10:00: each guest's code goes out half an hour before.
    clock.set('2026-03-30T08:30:00Z');
    await app.jobs.runDue();
    await app.jobs.runDue();
    clock.set('2026-03-30T08:40:00Z');
    const cancelled = await cancelNow(member);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    clock.set('2026-03-30T09:30:00Z');
    await app.jobs.runDue();
    await app.jobs.runDue();
    expect((await guestMessages()).map((row) => row.recipient)).toEqual([
      '+351912345678',
      'paulo@example.pt',
    ]);
    const deleted = await other.caller.json('DELETE', '/api/auth/delete-account', undefined, other.token);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await app.jobs.runDue();
    const told = await withdrawals();
    expect(told.map((row) => [row.channel, row.recipient])).toEqual([['sms', '+351912345678']]);
    expect(told[0]!.text_body).toMatch(
      /has been cancelled; the door code you were sent no longer opens the door\.$/,
    );
  });

  it('a guest removed, or their booking cancelled, as their code goes out: told exactly when the code went', async () => {
    // Even rounds remove the guest, odd ones cancel the booking, each racing the code's message.
    for (let round = 0; round < 6; round += 1) {
      const day = `2026-03-${String(24 + round).padStart(2, '0')}`;
      const member = await bookedAndPaid(`${day}T12:00`);
      const guest = (await addGuest(member, { name: 'Rita', email: 'rita@example.pt' })).json<
        Schemas['BookingGuest']
      >();
      // 12:00 in Lisbon is 11:00 UTC from the 29th (summer time), 12:00 UTC before it.
      clock.set(`${day}T${24 + round >= 29 ? '10' : '11'}:30:00Z`);
      const [ended] = await Promise.all([
        round % 2 === 0 ? removeGuest(member, guest.id) : cancelNow(member),
        app.jobs.runDue([JOB_QUEUES.guestCode]),
      ]);
      expect(ended.statusCode, ended.body).toBe(round % 2 === 0 ? 204 : 200);
      await app.jobs.runDue([JOB_QUEUES.guestCode]);
      const ofGuest = async (kind: string) =>
        (
          await app.db
            .selectFrom('outbox')
            .select('id')
            .where('kind', '=', kind)
            .where('dedupe_key', 'like', `${kind}:email:${guest.id}:%`)
            .execute()
        ).length;
      expect(await ofGuest('guest_withdrawn'), `round ${round}`).toBe(await ofGuest('guest_code'));
    }
  });

  it('refuses guests beyond the branch’s limit, without a contact, or on someone else’s booking', async () => {
    // The owner sets the limit in the console (PATCH; the CLI's `branch update --guest-limit` is the same use case).
    const owner = await loggedInOperator(app, clock, `owner-${branchId}@gym.example`, 'owner');
    const set = await owner.client.json(
      'PATCH',
      `/api/admin/branches/${branchId}`,
      { guest_limit: 1 },
      owner.token,
    );
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Schemas['AdminBranch']>().guest_limit).toBe(1);
    const tooMany = await owner.client.json(
      'PATCH',
      `/api/admin/branches/${branchId}`,
      { guest_limit: 21 },
      owner.token,
    );
    expect(tooMany.statusCode).toBe(422);
    const member = await bookedAndPaid();
    const noContact = await addGuest(member, { name: 'Rita' });
    expect(noContact.statusCode).toBe(422);
    expect(noContact.json<ErrorBody>().code).toBe('guest_contact_required');
    const badPhone = await addGuest(member, { name: 'Rita', phone_number: '912' });
    expect(badPhone.statusCode).toBe(422);
    expect((await addGuest(member, { name: 'Rita', email: 'rita@example.pt' })).statusCode).toBe(201);
    const second = await addGuest(member, { name: 'Paulo', email: 'paulo@example.pt' });
    expect(second.statusCode).toBe(409);
    expect(second.json<ErrorBody>().code).toBe('guest_limit_reached');

    // Adding and removing over and over (each a message to a number the member typed) is limited per member.
    const rita = (await member.caller.get(`/api/bookings/${member.booking.id}/guests`, member.token)).json<
      Schemas['BookingGuest'][]
    >()[0]!;
    await removeGuest(member, rita.id);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const again = await addGuest(member, { name: `Rita ${attempt}`, phone_number: '+351912345678' });
      statuses.push(again.statusCode);
      // The first is removed again; the second stays, for the stranger below.
      if (attempt === 0) await removeGuest(member, again.json<Schemas['BookingGuest']>().id);
    }
    // Six allowed an hour: the two refused additions above counted (a limit on trying, not on succeeding).
    expect(statuses).toEqual([201, 201, 429, 429, 429, 429]);

    const stranger = await bookedAndPaid('2026-03-30T12:00');
    const theirs = await addGuest(stranger, { name: 'Intruso', email: 'x@example.pt' }, member.booking.id);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<ErrorBody>().code).toBe('booking_not_found');
    const live = (
      await app.db
        .selectFrom('booking_guests')
        .select('id')
        .where('removed_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).id;
    const removal = await removeGuest({ ...stranger, booking: member.booking }, live);
    expect(removal.statusCode).toBe(404);
    expect(removal.json<ErrorBody>().code).toBe('booking_not_found');
    // Nothing of the stranger's on the member's booking, and the member's live guest not removed by them.
    expect(
      (await app.db.selectFrom('booking_guests').select(['name', 'removed_at']).orderBy('id').execute()).map(
        (row) => [row.name, row.removed_at !== null],
      ),
    ).toEqual([
      ['Rita', true],
      ['Rita 0', true],
      ['Rita 1', false],
    ]);
  });

  it('deleting the member’s account revokes their guests’ codes and forgets the guests', async () => {
    const member = await bookedAndPaid();
    const rita = (await addGuest(member, { name: 'Rita', phone_number: '+351912345678' })).json<
      Schemas['BookingGuest']
    >();
    await app.jobs.runDue([JOB_QUEUES.lockSync]);
    const code = await guestDigits(rita.id);
    const deleted = await member.caller.json('DELETE', '/api/auth/delete-account', undefined, member.token);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await enter(code)).toBe(false);
    expect(await strayLiveCodes()).toEqual([]);
    const row = await app.db
      .selectFrom('booking_guests')
      .select(['name', 'email', 'phone_number', 'forgotten_at'])
      .where('id', '=', rita.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: '-', email: null, phone_number: null });
    expect(row.forgotten_at).not.toBeNull();
  });

  it('the CLI sets a branch’s guest limit; 0 turns guests off for the next ones', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const cli = (...argv: string[]) =>
      runAdmin(argv, {
        db: app.db,
        clock,
        horizonDays: 3,
        io: { out: (text) => out.push(text), err: (text) => err.push(text) },
      });
    const member = await bookedAndPaid();
    expect((await addGuest(member, { name: 'Rita', email: 'rita@example.pt' })).statusCode).toBe(201);
    expect(await cli('branch', 'update', String(branchId), '--guest-limit', '0'), err.join('\n')).toBe(0);
    expect(out).toContain(`branch ${branchId} guests per booking: 0 from now on`);
    expect(await cli('branch', 'update', String(branchId), '--guest-limit', '21')).toBe(2);
    const refused = await addGuest(member, { name: 'Paulo', email: 'paulo@example.pt' });
    expect(refused.json<ErrorBody>().code).toBe('guest_limit_reached');
    // Rita stays on the booking, her code with her.
    const listed = (await member.caller.get(`/api/bookings/${member.booking.id}/guests`, member.token)).json<
      Schemas['BookingGuest'][]
    >();
    expect(listed.map((guest) => guest.name)).toEqual(['Rita']);
  });

  it('a guest added while the booking is cancelled never keeps a live code, whichever commits first', async () => {
    for (let round = 0; round < 5; round += 1) {
      const member = await bookedAndPaid(`2026-03-${String(24 + round).padStart(2, '0')}T10:00`);
      const [added, canceled] = await Promise.all([
        addGuest(member, { name: `Guest ${round}`, email: `guest${round}@example.pt` }),
        cancel(member),
      ]);
      expect(canceled.statusCode, canceled.body).toBe(200);
      expect([201, 409]).toContain(added.statusCode);
      expect(await strayLiveCodes(), `round ${round}`).toEqual([]);
    }
  });

  it('a guest removed while the booking is cancelled: their code is revoked either way', async () => {
    for (let round = 0; round < 5; round += 1) {
      const member = await bookedAndPaid(`2026-03-${String(24 + round).padStart(2, '0')}T12:00`);
      const guest = (await addGuest(member, { name: 'Rita', email: 'rita@example.pt' })).json<
        Schemas['BookingGuest']
      >();
      const [removed, canceled] = await Promise.all([removeGuest(member, guest.id), cancel(member)]);
      expect(removed.statusCode).toBe(204);
      expect(canceled.statusCode).toBe(200);
      expect(await strayLiveCodes(), `round ${round}`).toEqual([]);
      expect(
        await enter(await guestDigits(guest.id), `2026-03-${String(24 + round).padStart(2, '0')}T11:30:00Z`),
      ).toBe(false);
    }
  });
});
