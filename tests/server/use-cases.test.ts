import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/cli.ts';
import { readRefundRatios } from '../../server/catalog/refund-ratios.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import {
  bookAndPayOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { createBranch, insertBooking, insertSlot } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// One use case per state change (issue 27, item 3): the console (over HTTP, as an operator) and the CLI (as
// `cli:<OS user>`) call the same use case, so they make the same change, write the same audit row but for who made
// it, and a rule the use case refuses is refused to both with the same error code. Bookings end by one
// cancellation, whoever asks (the member, an operator, a closure, a block): the same steps, a different actor and
// refund.

const CLI_ACTOR = { operator_id: null, operator_email: `cli:${userInfo().username}` };
const DESCRIPTIONS = { pt: '<p>pt</p>', en: '<p>en</p>', fr: '<p>fr</p>', de: '<p>de</p>', sk: '<p>sk</p>' };

type AuditRow = {
  id: number;
  operator_id: number | null;
  operator_email: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  reason: string | null;
  before: unknown;
  after: unknown;
};

describe.each(PGLITE_ONLY)('use cases shared by the console and the CLI on %s', (target) => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let consoleActor: { operator_id: number | null; operator_email: string };

  beforeAll(async () => {
    server = await startAccountApp(target);
    owner = await loggedInOperator(server.app, server.clock, `owner-${target}@gym.example`, 'owner');
    const { id } = await server.app.db
      .selectFrom('operators')
      .select('id')
      .where('email', '=', owner.email)
      .executeTakeFirstOrThrow();
    consoleActor = { operator_id: id, operator_email: owner.email };
  });
  afterAll(async () => server?.close());

  /** An operation of the console as the owner: its status and body. */
  async function viaConsole(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) {
    const response = await owner.client.call({
      method,
      url: `/api/admin${url}`,
      headers: { authorization: `Bearer ${owner.token}` },
      ...(payload ? { payload } : {}),
    });
    return { status: response.statusCode, body: response.body ? response.json<unknown>() : null };
  }

  /** A back-office command on the server's database and clock: its exit code and what it wrote. */
  async function viaCli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      db: server.app.db,
      clock: server.clock,
      horizonDays: 2,
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    });
    return { code, out, err };
  }

  /** Runs `work` and answers what it answered with the audit rows it wrote. */
  async function audited<T>(work: () => Promise<T>): Promise<{ result: T; rows: AuditRow[] }> {
    const last = await server.app.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const result = await work();
    const rows = await server.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('id', '>', Number(last?.id ?? 0))
      .orderBy('id')
      .execute();
    return { result, rows };
  }

  const actorOf = (row: AuditRow) => ({ operator_id: row.operator_id, operator_email: row.operator_email });
  /** The row but for who wrote it and when. */
  const changeOf = (row: AuditRow) => ({
    action: row.action,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    reason: row.reason,
    before: row.before,
    after: row.after,
  });
  const codeOf = (answer: { body: unknown }) => (answer.body as ErrorBody).code;

  it('creates a branch, the same one from either, and refuses a slug taken with branch_slug_taken', async () => {
    const fromConsole = await audited(() =>
      viaConsole('POST', '/branches', {
        slug: `console-${target}`,
        name: 'Twin',
        location: 'Rua 1',
        latitude: 41.1,
        longitude: -8.6,
        time_zone: 'Europe/Lisbon',
        default_price_eur: 12.5,
        images: ['/twin.jpg'],
        descriptions: DESCRIPTIONS,
      }),
    );
    expect(fromConsole.result.status).toBe(201);
    const fromCli = await audited(() =>
      viaCli(
        'branch',
        'create',
        '--slug',
        `cli-${target}`,
        '--name',
        'Twin',
        '--location',
        'Rua 1',
        '--latitude',
        '41.1',
        '--longitude=-8.6',
        '--time-zone',
        'Europe/Lisbon',
        '--price',
        '12.50',
        '--image',
        '/twin.jpg',
        ...Object.entries(DESCRIPTIONS).flatMap(([locale, html]) => ['--description', `${locale}=${html}`]),
      ),
    );
    expect(fromCli.result).toMatchObject({ code: 0, err: [] });

    const [consoleRow] = fromConsole.rows;
    const [cliRow] = fromCli.rows;
    expect(fromConsole.rows.map((row) => row.action)).toEqual(['branch.create']);
    expect(fromCli.rows.map((row) => row.action)).toEqual(['branch.create']);
    expect(actorOf(consoleRow!)).toEqual(consoleActor);
    expect(actorOf(cliRow!)).toEqual(CLI_ACTOR);
    // The same branch but for its id and slug, slots generated alike.
    const anonymous = (row: AuditRow) => ({ ...(row.after as object), id: 0, slug: '' });
    expect(anonymous(cliRow!)).toEqual(anonymous(consoleRow!));
    expect(consoleRow!.after).toMatchObject({ name: 'Twin', slots_generated_until: '2026-03-21' });
    expect(consoleRow!.entity_id).toBe(String((fromConsole.result.body as Schemas['AdminBranch']).id));

    const taken = await audited(() =>
      viaConsole('POST', '/branches', {
        slug: `cli-${target}`,
        name: 'Again',
        location: 'Rua 2',
        latitude: 41.1,
        longitude: -8.6,
        time_zone: 'Europe/Lisbon',
        default_price_eur: 1,
        images: ['/again.jpg'],
        descriptions: DESCRIPTIONS,
      }),
    );
    expect({ status: taken.result.status, code: codeOf(taken.result) }).toEqual({
      status: 409,
      code: 'branch_slug_taken',
    });
    const takenByCli = await audited(() =>
      viaCli('branch', 'update', consoleRow!.entity_id, '--slug', `cli-${target}`),
    );
    expect(takenByCli.result.code).toBe(2);
    expect(takenByCli.result.err[0]).toContain('(branch_slug_taken)');
    expect([...taken.rows, ...takenByCli.rows]).toEqual([]);
  });

  it('updates a branch with the same before and after from either, and refuses an unknown one with branch_not_found', async () => {
    const branchId = await createBranch(server.app.db, {
      slug: `update-${target}`,
      name: 'Before',
      order: 0,
    });
    const fromConsole = await audited(() =>
      viaConsole('PATCH', `/branches/${branchId}`, { name: 'After', order: 7 }),
    );
    expect(fromConsole.result.status).toBe(200);
    const back = await audited(() =>
      viaCli('branch', 'update', String(branchId), '--name', 'Before', '--order', '0'),
    );
    expect(back.result.code).toBe(0);
    const fromCli = await audited(() =>
      viaCli('branch', 'update', String(branchId), '--name', 'After', '--order', '7'),
    );
    expect(fromCli.result).toMatchObject({ code: 0, err: [] });

    expect(fromConsole.rows.map(actorOf)).toEqual([consoleActor]);
    expect(fromCli.rows.map(actorOf)).toEqual([CLI_ACTOR]);
    expect(fromCli.rows.map(changeOf)).toEqual(fromConsole.rows.map(changeOf));
    expect(fromCli.rows[0]).toMatchObject({
      action: 'branch.update',
      entity_type: 'branch',
      entity_id: String(branchId),
      before: { name: 'Before', order: 0 },
      after: { name: 'After', order: 7 },
    });

    const unknown = await audited(() => viaConsole('PATCH', '/branches/999999', { name: 'Nobody' }));
    expect({ status: unknown.result.status, code: codeOf(unknown.result) }).toEqual({
      status: 404,
      code: 'branch_not_found',
    });
    const unknownByCli = await audited(() => viaCli('branch', 'update', '999999', '--name', 'Nobody'));
    expect(unknownByCli.result.code).toBe(2);
    expect(unknownByCli.result.err[0]).toBe('branch update: there is no branch 999999 (branch_not_found)');
    expect([...unknown.rows, ...unknownByCli.rows]).toEqual([]);
  });

  it('sets the refund ratios alike from either, and refuses a policy without a "0" threshold alike', async () => {
    const baseline = {
      thresholds: [
        { hours: 48, ratio: 1 },
        { hours: 0, ratio: 0 },
      ],
    };
    expect((await viaCli('refund-ratios', 'set', '{"48": 1, "0": 0}')).code).toBe(0);
    const fromConsole = await audited(() =>
      viaConsole('PUT', '/refund-policy', {
        thresholds: [
          { hours: 72, ratio: 1 },
          { hours: 0, ratio: 0.5 },
        ],
      }),
    );
    expect(fromConsole.result).toEqual({ status: 200, body: { '0': 0.5, '72': 1 } });
    expect((await viaConsole('PUT', '/refund-policy', baseline)).status).toBe(200);
    const fromCli = await audited(() => viaCli('refund-ratios', 'set', '{"72": 1, "0": 0.5}'));
    expect(fromCli.result).toMatchObject({ code: 0, out: ['refund ratios set to {"0":0.5,"72":1}'] });
    expect(await readRefundRatios(server.app.db)).toEqual({ '0': 0.5, '72': 1 });

    expect(fromConsole.rows.map(actorOf)).toEqual([consoleActor]);
    expect(fromCli.rows.map(actorOf)).toEqual([CLI_ACTOR]);
    expect(fromCli.rows.map(changeOf)).toEqual(fromConsole.rows.map(changeOf));
    expect(fromCli.rows[0]).toMatchObject({
      action: 'refund_policy.set',
      entity_type: 'refund_policy',
      entity_id: 'refund_ratios',
      before: { '48': 1, '0': 0 },
      after: { '72': 1, '0': 0.5 },
    });

    const refused = await audited(() =>
      viaConsole('PUT', '/refund-policy', { thresholds: [{ hours: 48, ratio: 1 }] }),
    );
    expect(refused.result.status).toBe(422);
    expect(refused.result.body).toMatchObject({
      code: 'validation_failed',
      fields: [{ field: 'thresholds', problem: 'invalid' }],
    });
    expect((refused.result.body as ErrorBody).detail).toContain('"0" threshold');
    const refusedByCli = await audited(() => viaCli('refund-ratios', 'set', '{"48": 1}'));
    expect(refusedByCli.result.code).toBe(2);
    expect(refusedByCli.result.err[0]).toContain('"0" threshold');
    expect([...refused.rows, ...refusedByCli.rows]).toEqual([]);
    expect(await readRefundRatios(server.app.db)).toEqual({ '0': 0.5, '72': 1 });
  });

  it('creates and updates coupons alike from either, and refuses a code taken and an unknown one alike', async () => {
    const settings = {
      discount: 0.15,
      valid_from: '2026-03-01T00:00:00.000Z',
      valid_until: '2026-04-01T00:00:00.000Z',
      max_uses: 50,
      max_uses_per_user: 2,
    };
    const fromConsole = await audited(() =>
      viaConsole('POST', '/coupons', { code: 'console15', ...settings }),
    );
    expect(fromConsole.result.status).toBe(201);
    const fromCli = await audited(() =>
      viaCli(
        'coupon',
        'create',
        'cli15',
        '--discount',
        '0.15',
        '--valid-from',
        '2026-03-01',
        '--valid-until',
        '2026-04-01',
        '--max-uses',
        '50',
        '--max-uses-per-user',
        '2',
      ),
    );
    expect(fromCli.result).toMatchObject({ code: 0, out: ['created coupon CLI15'] });
    expect(fromConsole.rows.map(actorOf)).toEqual([consoleActor]);
    expect(fromCli.rows.map(actorOf)).toEqual([CLI_ACTOR]);
    const withoutCode = (row: AuditRow) => ({
      ...changeOf(row),
      entity_id: '',
      after: { ...(row.after as object), code: '' },
    });
    expect(withoutCode(fromCli.rows[0]!)).toEqual(withoutCode(fromConsole.rows[0]!));
    expect(fromConsole.rows[0]).toMatchObject({
      action: 'coupon.create',
      entity_type: 'coupon',
      entity_id: 'CONSOLE15',
      after: { code: 'CONSOLE15', discount: 0.15, max_uses: 50, uses: 0, active: true },
    });

    const updatedInConsole = await audited(() =>
      viaConsole('PATCH', '/coupons/console15', { discount: 0.25, max_uses: null, active: false }),
    );
    expect(updatedInConsole.result.status).toBe(200);
    const updatedByCli = await audited(() =>
      viaCli('coupon', 'update', 'cli15', '--discount', '0.25', '--max-uses', 'none', '--inactive'),
    );
    expect(updatedByCli.result).toMatchObject({ code: 0, out: ['updated coupon CLI15'] });
    expect(updatedInConsole.rows.map(actorOf)).toEqual([consoleActor]);
    expect(updatedByCli.rows.map(actorOf)).toEqual([CLI_ACTOR]);
    const withoutCodes = (row: AuditRow) => ({
      ...withoutCode(row),
      before: { ...(row.before as object), code: '' },
    });
    expect(withoutCodes(updatedByCli.rows[0]!)).toEqual(withoutCodes(updatedInConsole.rows[0]!));
    expect(updatedByCli.rows[0]).toMatchObject({
      action: 'coupon.update',
      entity_id: 'CLI15',
      before: { discount: 0.15, max_uses: 50, active: true },
      after: { discount: 0.25, max_uses: null, active: false },
    });

    const taken = await audited(() => viaConsole('POST', '/coupons', { code: 'Cli15', discount: 0.1 }));
    expect({ status: taken.result.status, code: codeOf(taken.result) }).toEqual({
      status: 409,
      code: 'coupon_exists',
    });
    const takenByCli = await audited(() => viaCli('coupon', 'create', 'console15', '--discount', '0.1'));
    expect(takenByCli.result.code).toBe(2);
    expect(takenByCli.result.err[0]).toBe('coupon create: coupon CONSOLE15 exists already (coupon_exists)');
    const unknown = await audited(() => viaConsole('PATCH', '/coupons/NOPE', { discount: 0.1 }));
    expect({ status: unknown.result.status, code: codeOf(unknown.result) }).toEqual({
      status: 404,
      code: 'coupon_not_found',
    });
    const unknownByCli = await audited(() => viaCli('coupon', 'update', 'nope', '--discount', '0.1'));
    expect(unknownByCli.result.code).toBe(2);
    expect(unknownByCli.result.err[0]).toContain('(coupon_not_found)');
    // A rule of the settings: the same problem from either.
    const backwards = { valid_from: '2026-03-10T00:00:00Z', valid_until: '2026-03-09T00:00:00Z' };
    const invalid = await audited(() => viaConsole('PATCH', '/coupons/console15', backwards));
    expect({ status: invalid.result.status, code: codeOf(invalid.result) }).toEqual({
      status: 422,
      code: 'validation_failed',
    });
    expect((invalid.result.body as ErrorBody).detail).toContain('valid_until must be after valid_from');
    const invalidByCli = await audited(() =>
      viaCli('coupon', 'update', 'cli15', '--valid-from', '2026-03-10', '--valid-until', '2026-03-09'),
    );
    expect(invalidByCli.result.code).toBe(2);
    expect(invalidByCli.result.err[0]).toContain('--valid-until must be after --valid-from');
    expect([
      ...taken.rows,
      ...takenByCli.rows,
      ...unknown.rows,
      ...unknownByCli.rows,
      ...invalid.rows,
      ...invalidByCli.rows,
    ]).toEqual([]);
  });

  it('blocks and unblocks a contact alike from either, and refuses what is no contact or not blocked alike', async () => {
    const email = `eve-${target}@example.com`;
    const blockedInConsole = await audited(() =>
      viaConsole('POST', '/blocked-contacts', {
        kind: 'email',
        value: email.toUpperCase(),
        reason: 'fraud',
        cancel_future_bookings: false,
      }),
    );
    expect(blockedInConsole.result).toMatchObject({ status: 201, body: { kind: 'email', value: email } });
    const blockId = (blockedInConsole.result.body as Schemas['BlockedContact']).id;
    // Blocked already: the console refuses it, the CLI says so; neither writes a row.
    const again = await audited(() =>
      viaConsole('POST', '/blocked-contacts', {
        kind: 'email',
        value: email,
        reason: 'again',
        cancel_future_bookings: false,
      }),
    );
    expect({ status: again.result.status, code: codeOf(again.result) }).toEqual({
      status: 409,
      code: 'contact_already_blocked',
    });
    const againByCli = await audited(() => viaCli('block', 'add', 'email', email, '--reason', 'again'));
    expect(againByCli.result).toMatchObject({ code: 0, out: [`email ${email} was blocked already`] });
    expect([...again.rows, ...againByCli.rows]).toEqual([]);

    const unblockedByCli = await audited(() => viaCli('block', 'remove', 'email', email));
    expect(unblockedByCli.result).toMatchObject({ code: 0, out: [`unblocked email ${email}`] });
    const blockedByCli = await audited(() =>
      viaCli('block', 'add', 'email', email.toUpperCase(), '--reason', 'fraud'),
    );
    expect(blockedByCli.result).toMatchObject({ code: 0, out: [`blocked email ${email}`] });
    const listed = await owner.client.get('/api/admin/blocked-contacts', owner.token);
    const newBlock = listed.json<Schemas['BlockedContact'][]>().find((block) => block.value === email)!;
    expect(newBlock.id).not.toBe(blockId);
    const unblockedInConsole = await audited(() => viaConsole('DELETE', `/blocked-contacts/${newBlock.id}`));
    expect(unblockedInConsole.result.status).toBe(204);

    expect([...blockedInConsole.rows, ...unblockedInConsole.rows].map(actorOf)).toEqual([
      consoleActor,
      consoleActor,
    ]);
    expect([...blockedByCli.rows, ...unblockedByCli.rows].map(actorOf)).toEqual([CLI_ACTOR, CLI_ACTOR]);
    expect(blockedByCli.rows.map(changeOf)).toEqual(blockedInConsole.rows.map(changeOf));
    expect(unblockedByCli.rows.map(changeOf)).toEqual(unblockedInConsole.rows.map(changeOf));
    expect(blockedByCli.rows[0]).toMatchObject({
      action: 'contact.block',
      entity_type: 'blocked_contact',
      entity_id: `email:${email}`,
      reason: 'fraud',
      after: { kind: 'email', value: email, canceled_booking_ids: [] },
    });
    expect(unblockedInConsole.rows[0]).toMatchObject({
      action: 'contact.unblock',
      entity_id: `email:${email}`,
      before: { kind: 'email', value: email, reason: 'fraud' },
    });

    const notBlocked = await audited(() => viaConsole('DELETE', `/blocked-contacts/${newBlock.id}`));
    expect({ status: notBlocked.result.status, code: codeOf(notBlocked.result) }).toEqual({
      status: 404,
      code: 'blocked_contact_not_found',
    });
    const notBlockedByCli = await audited(() => viaCli('block', 'remove', 'email', email));
    expect(notBlockedByCli.result.code).toBe(2);
    expect(notBlockedByCli.result.err[0]).toBe(
      `block remove: email ${email} is not blocked (blocked_contact_not_found)`,
    );
    const noAddress = await audited(() =>
      viaConsole('POST', '/blocked-contacts', {
        kind: 'email',
        value: 'not-an-address',
        reason: 'x',
        cancel_future_bookings: false,
      }),
    );
    expect({ status: noAddress.result.status, code: codeOf(noAddress.result) }).toEqual({
      status: 422,
      code: 'validation_failed',
    });
    const noAddressByCli = await audited(() => viaCli('block', 'add', 'email', 'not-an-address'));
    expect(noAddressByCli.result.code).toBe(2);
    expect(noAddressByCli.result.err[0]).toContain("'not-an-address' is not an e-mail address");
    expect([...notBlocked.rows, ...notBlockedByCli.rows, ...noAddress.rows, ...noAddressByCli.rows]).toEqual(
      [],
    );
  });

  it('blocks and unblocks a member (the console alone has these), each with its audit row, refusing an unknown member', async () => {
    const member = await verifiedAccount(newClient(server.app), server.app);
    const {
      id,
      email,
      phone_number: phone,
    } = await server.app.db
      .selectFrom('users')
      .select(['id', 'email', 'phone_number'])
      .where('email', '=', member.email.toLowerCase())
      .executeTakeFirstOrThrow();
    const blocked = await audited(() =>
      viaConsole('POST', `/members/${id}/block`, { reason: 'abuse', cancel_future_bookings: false }),
    );
    expect(blocked.result.status).toBe(200);
    expect((blocked.result.body as Schemas['MemberDetail']).member.blocked).toBe(true);
    const unblocked = await audited(() => viaConsole('POST', `/members/${id}/unblock`, { reason: 'appeal' }));
    expect((unblocked.result.body as Schemas['MemberDetail']).member.blocked).toBe(false);
    expect([...blocked.rows, ...unblocked.rows].map(changeOf)).toEqual([
      {
        action: 'member.block',
        entity_type: 'member',
        entity_id: id,
        reason: 'abuse',
        before: { blocked: false },
        after: {
          blocked: true,
          blocks_added: [`email:${email}`, `phone:${phone}`],
          canceled_booking_ids: [],
        },
      },
      {
        action: 'member.unblock',
        entity_type: 'member',
        entity_id: id,
        reason: 'appeal',
        before: { blocks: [`email:${email}`, `phone:${phone}`] },
        after: { blocked: false },
      },
    ]);
    const unknown = await audited(() =>
      viaConsole('POST', '/members/00000000-0000-4000-8000-000000000000/block', {
        reason: 'x',
        cancel_future_bookings: false,
      }),
    );
    expect({ status: unknown.result.status, code: codeOf(unknown.result) }).toEqual({
      status: 404,
      code: 'member_not_found',
    });
    expect(unknown.rows).toEqual([]);
  });

  /** A member's paid booking of a new slot of the branch: its id. */
  async function paidBooking(
    member: { token: string },
    branchId: number,
    start: string,
    end: string,
  ): Promise<number> {
    const slotId = await insertSlot(server.app.db, { branchId, start, end, localDate: start.slice(0, 10) });
    await bookAndPayOverHttp(newClient(server.app), member.token, slotId);
    const { id } = await server.app.db
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', slotId)
      .where('status', '=', 'confirmed')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** The booking's status, who cancelled it, its refunds in the ledger (who, why) and the notices it sent. */
  async function endOf(bookingId: number) {
    const booking = await server.app.db
      .selectFrom('bookings')
      .select(['status', 'canceled_by'])
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    const refunds = await server.app.db
      .selectFrom('ledger_entries as entry')
      .innerJoin('ledger_entry_bookings as share', 'share.entry_id', 'entry.id')
      .select([
        'entry.purpose',
        'share.amount_cents',
        'entry.actor_type',
        'entry.actor_id',
        'entry.actor_name',
        'entry.reason',
      ])
      .where('share.booking_id', '=', bookingId)
      .where('entry.kind', '=', 'refund')
      .execute();
    const notices = await server.app.db
      .selectFrom('outbox')
      .select(['kind', 'channel'])
      .where('dedupe_key', 'in', [`booking_canceled:${bookingId}`, `booking_canceled:${bookingId}:sms`])
      .execute();
    return { ...booking, refunds, notices: notices.map((notice) => `${notice.kind} ${notice.channel}`) };
  }

  async function memberId(email: string): Promise<string> {
    const { id } = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email.toLowerCase())
      .executeTakeFirstOrThrow();
    return id;
  }

  it('cancels by the one cancellation whoever asks: the member by the policy, an operator by their choice, only the operator audited; an ended booking refused to both alike', async () => {
    const branchId = await createBranch(server.app.db, { slug: `cancel-${target}` });
    const member = await verifiedAccount(newClient(server.app), server.app);
    const byMember = await paidBooking(member, branchId, '2026-03-25T10:00:00Z', '2026-03-25T11:00:00Z');
    const byOperator = await paidBooking(member, branchId, '2026-03-25T11:00:00Z', '2026-03-25T12:00:00Z');

    const memberCancel = await audited(() =>
      newClient(server.app).json(
        'POST',
        '/api/bookings/cancel-bookings',
        { booking: [{ booking_id: byMember, expected_refund_eur: 15 }] },
        member.token,
      ),
    );
    expect(memberCancel.result.statusCode).toBe(200);
    const operatorCancel = await audited(() =>
      viaConsole('POST', `/bookings/${byOperator}/cancel`, {
        refund: { mode: 'amount', amount_eur: 5 },
        reason: 'broken shower',
      }),
    );
    expect(operatorCancel.result.status).toBe(200);

    // The same steps: cancelled, refunded once from the ledger, the member told; a different actor and refund.
    expect(await endOf(byMember)).toEqual({
      status: 'canceled',
      canceled_by: null,
      refunds: [
        {
          purpose: 'cancellation',
          amount_cents: 1500,
          actor_type: 'member',
          actor_id: await memberId(member.email),
          actor_name: null,
          reason: null,
        },
      ],
      notices: ['booking_canceled email'],
    });
    expect(await endOf(byOperator)).toEqual({
      status: 'canceled',
      canceled_by: owner.email,
      refunds: [
        {
          purpose: 'operator',
          amount_cents: 500,
          actor_type: 'operator',
          actor_id: String(consoleActor.operator_id),
          actor_name: owner.email,
          reason: 'broken shower',
        },
      ],
      notices: ['booking_canceled email'],
    });
    // Members' own changes are not the operators' audit log's.
    expect(memberCancel.rows).toEqual([]);
    expect(operatorCancel.rows.map(actorOf)).toEqual([consoleActor]);
    expect(operatorCancel.rows.map(changeOf)).toEqual([
      {
        action: 'booking.cancel',
        entity_type: 'booking',
        entity_id: String(byOperator),
        reason: 'broken shower',
        before: { status: 'confirmed' },
        after: { status: 'canceled', refund_mode: 'amount', refunded_eur: 5 },
      },
    ]);

    const endedSlot = await insertSlot(server.app.db, {
      branchId,
      start: '2026-03-19T08:00:00Z',
      end: '2026-03-19T09:00:00Z',
      localDate: '2026-03-19',
    });
    const ended = await insertBooking(server.app.db, {
      slotId: endedSlot,
      status: 'confirmed',
      userId: await memberId(member.email),
    });
    const refusedToMember = await audited(() =>
      newClient(server.app).json(
        'POST',
        '/api/bookings/cancel-bookings',
        { booking: [{ booking_id: ended, expected_refund_eur: 0 }] },
        member.token,
      ),
    );
    expect({
      status: refusedToMember.result.statusCode,
      code: refusedToMember.result.json<ErrorBody>().code,
    }).toEqual({ status: 409, code: 'booking_not_cancelable' });
    const refusedToOperator = await audited(() =>
      viaConsole('POST', `/bookings/${ended}/cancel`, { refund: { mode: 'none' }, reason: 'late' }),
    );
    expect({ status: refusedToOperator.result.status, code: codeOf(refusedToOperator.result) }).toEqual({
      status: 409,
      code: 'booking_not_cancelable',
    });
    expect([...refusedToMember.rows, ...refusedToOperator.rows]).toEqual([]);
    expect((await endOf(ended)).status).toBe('confirmed');
  });

  it('closes a branch and reopens it through their use cases, each audited, refusing a bad period, an overlap and a second reopening', async () => {
    const branchId = await createBranch(server.app.db, { slug: `closure-${target}` });
    const member = await verifiedAccount(newClient(server.app), server.app);
    const hit = await paidBooking(member, branchId, '2026-03-26T18:00:00Z', '2026-03-26T19:00:00Z');
    const period = {
      branch_id: branchId,
      starts_at: '2026-03-26T17:30:00Z',
      ends_at: '2026-03-26T20:30:00Z',
      reason: 'leak',
    };
    const closed = await audited(() => viaConsole('POST', '/closures', period));
    expect(closed.result.status).toBe(201);
    const closureId = (closed.result.body as Schemas['Closure']).id;
    expect(await endOf(hit)).toEqual({
      status: 'canceled',
      canceled_by: `closure:${closureId}`,
      refunds: [
        {
          purpose: 'closure',
          amount_cents: 1500,
          actor_type: 'system',
          actor_id: `closure:${closureId}`,
          actor_name: owner.email,
          reason: 'leak',
        },
      ],
      notices: ['booking_canceled email'],
    });
    expect(closed.rows.map(actorOf)).toEqual([consoleActor]);
    expect(closed.rows.map(changeOf)).toEqual([
      {
        action: 'closure.create',
        entity_type: 'closure',
        entity_id: String(closureId),
        reason: 'leak',
        before: null,
        after: {
          branch_id: branchId,
          starts_at: '2026-03-26T17:30:00.000Z',
          ends_at: '2026-03-26T20:30:00.000Z',
          canceled_booking_ids: [hit],
          refunded_eur: 15,
        },
      },
    ]);

    const refusals = await audited(async () => [
      await viaConsole('POST', '/closures', period),
      await viaConsole('POST', '/closures', { ...period, ends_at: '2026-03-26T17:00:00Z' }),
      await viaConsole('POST', '/closures', { ...period, branch_id: 999999 }),
    ]);
    expect(refusals.result.map((answer) => `${answer.status} ${codeOf(answer)}`)).toEqual([
      '409 closure_overlaps',
      '400 invalid_period',
      '404 branch_not_found',
    ]);
    expect(refusals.rows).toEqual([]);

    const reopened = await audited(() => viaConsole('POST', `/closures/${closureId}/reopen`));
    expect(reopened.result.status).toBe(200);
    expect(reopened.rows.map(changeOf)).toEqual([
      {
        action: 'closure.reopen',
        entity_type: 'closure',
        entity_id: String(closureId),
        reason: null,
        before: { reopened_at: null },
        after: { reopened_at: expect.any(String) as string },
      },
    ]);
    const again = await audited(() => viaConsole('POST', `/closures/${closureId}/reopen`));
    expect({ status: again.result.status, code: codeOf(again.result) }).toEqual({
      status: 409,
      code: 'closure_reopened',
    });
    expect(again.rows).toEqual([]);
  });

  it('a block cancels the future bookings of the accounts it blocks by the same cancellation, as the operator who blocked', async () => {
    const branchId = await createBranch(server.app.db, { slug: `block-${target}` });
    const member = await verifiedAccount(newClient(server.app), server.app);
    const future = await paidBooking(member, branchId, '2026-03-27T10:00:00Z', '2026-03-27T11:00:00Z');
    const email = member.email.toLowerCase();
    const blocked = await audited(() =>
      viaConsole('POST', '/blocked-contacts', {
        kind: 'email',
        value: email,
        reason: 'chargebacks',
        cancel_future_bookings: true,
        refund_mode: 'full',
      }),
    );
    expect(blocked.result.status).toBe(201);
    expect(await endOf(future)).toEqual({
      status: 'canceled',
      canceled_by: owner.email,
      refunds: [
        {
          purpose: 'operator',
          amount_cents: 1500,
          actor_type: 'operator',
          actor_id: String(consoleActor.operator_id),
          actor_name: owner.email,
          reason: 'chargebacks',
        },
      ],
      notices: ['booking_canceled email'],
    });
    expect(blocked.rows.map(changeOf)).toEqual([
      {
        action: 'contact.block',
        entity_type: 'blocked_contact',
        entity_id: `email:${email}`,
        reason: 'chargebacks',
        before: null,
        after: { kind: 'email', value: email, canceled_booking_ids: [future] },
      },
    ]);
  });
});
