import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/cli.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import {
  newClient,
  paidBookingAt,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// Staff limited to some branches (issue 32, item 2): every console operation that takes or returns a branch
// keeps a limited staff member to their branches (lists narrowed, another branch's rows refused with 403
// `branch_forbidden` and nothing changed), owners set the branches in the console and the CLI through one audited
// use case, and a member's data export is for owners only.

type Operation = {
  operationId: string;
  path: string;
  parameters?: { $ref?: string }[];
  description?: string;
};
const contract = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

let counter = 0;
const unique = (role: string) => `${role}-${Date.now()}-${(counter += 1)}@gym.example`;

describe.each(DATABASE_TARGETS)('staff limited to some branches on %s', (target) => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let limited: Awaited<ReturnType<typeof loggedInOperator>>;
  let unlimited: Awaited<ReturnType<typeof loggedInOperator>>;
  let member: Awaited<ReturnType<typeof verifiedAccount>> & { id: string };
  let mine: number;
  let theirs: number;
  let myBooking: number;
  let theirBooking: number;
  let theirClosure: number;

  const paidBooking = (branchId: number, start: string, end: string) =>
    paidBookingAt(server.app, member, { branchId, start, end });

  /** Each act's status and code, by name. */
  async function answersOf(acts: [string, () => ReturnType<typeof send>][]): Promise<string[]> {
    const answers: string[] = [];
    for (const [name, act] of acts) {
      const response = await act();
      answers.push(`${name}: ${response.statusCode} ${response.json<ErrorBody>().code}`);
    }
    return answers;
  }

  const get = (path: string, token = limited.token) => limited.client.get(`/api${path}`, token);
  const send = (
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    token = limited.token,
  ) => limited.client.json(method, `/api${path}`, body, token);
  const setBranches = (operatorId: number, branchIds: number[] | null, token = owner.token) =>
    send('PUT', `/admin/operators/${operatorId}/branches`, { branch_ids: branchIds }, token);
  const operatorId = async (email: string) =>
    (
      await server.app.db
        .selectFrom('operators')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    server = await startAccountApp(target);
    owner = await loggedInOperator(server.app, server.clock, unique('owner'), 'owner');
    server.clock.advance({ seconds: 30 });
    limited = await loggedInOperator(server.app, server.clock, unique('limited'), 'staff');
    server.clock.advance({ seconds: 30 });
    unlimited = await loggedInOperator(server.app, server.clock, unique('unlimited'), 'staff');
    const account = await verifiedAccount(newClient(server.app), server.app);
    const { id: memberId } = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', account.email.toLowerCase())
      .executeTakeFirstOrThrow();
    member = { ...account, id: memberId };
    mine = await createBranch(server.app.db, { name: 'Mine' });
    theirs = await createBranch(server.app.db, { name: 'Theirs' });
    myBooking = await paidBooking(mine, '2026-03-25T10:00:00Z', '2026-03-25T11:00:00Z');
    theirBooking = await paidBooking(theirs, '2026-03-25T12:00:00Z', '2026-03-25T13:00:00Z');
    const closure = await send(
      'POST',
      '/admin/closures',
      {
        branch_id: theirs,
        starts_at: '2026-04-02T08:00:00Z',
        ends_at: '2026-04-02T09:00:00Z',
        reason: 'paint',
      },
      owner.token,
    );
    expect(closure.statusCode).toBe(201);
    theirClosure = closure.json<Schemas['Closure']>().id;
    const limitedTo = await setBranches(await operatorId(limited.email), [mine]);
    expect(limitedTo.statusCode).toBe(200);
    expect(limitedTo.json<Schemas['Operator']>().branch_ids).toEqual([mine]);
  });
  afterAll(async () => server?.close());

  it('lets an owner limit a staff member and give every branch back, audited, never limiting an owner', async () => {
    const id = await operatorId(unlimited.email);
    const narrowed = await setBranches(id, [theirs, mine, mine]);
    expect(narrowed.json<Schemas['Operator']>().branch_ids).toEqual([mine, theirs].sort((a, b) => a - b));
    const widened = await setBranches(id, null);
    expect(widened.json<Schemas['Operator']>().branch_ids).toBeNull();
    const audit = await server.app.db
      .selectFrom('audit_log')
      .select(['action', 'after', 'operator_email'])
      .where('action', '=', 'operator.set_branches')
      .where('entity_id', '=', String(id))
      .orderBy('id')
      .execute();
    expect(audit.map((row) => [row.operator_email, row.after])).toEqual([
      [owner.email, { branch_ids: [mine, theirs].sort((a, b) => a - b) }],
      [owner.email, { branch_ids: null }],
    ]);

    const ownerId = await operatorId(owner.email);
    const onOwner = await setBranches(ownerId, [mine]);
    expect([onOwner.statusCode, onOwner.json<ErrorBody>().code]).toEqual([409, 'owner_has_all_branches']);
    const unknownBranch = await setBranches(id, [999_999]);
    expect([unknownBranch.statusCode, unknownBranch.json<ErrorBody>().code]).toEqual([
      404,
      'branch_not_found',
    ]);
    const empty = await setBranches(id, []);
    expect(empty.statusCode).toBe(422);
    const byStaff = await setBranches(id, [mine], unlimited.token);
    expect([byStaff.statusCode, byStaff.json<ErrorBody>().code]).toEqual([403, 'operator_forbidden']);

    const operators = (await get('/admin/operators', owner.token)).json<Schemas['Operator'][]>();
    expect(operators.find((operator) => operator.email === limited.email)?.branch_ids).toEqual([mine]);
    expect(operators.find((operator) => operator.email === owner.email)?.branch_ids).toBeNull();
    expect((await get('/admin/me')).json<Schemas['Operator']>().branch_ids).toEqual([mine]);
  });

  it('limits through the CLI with the same use case', async () => {
    const io = { out: [] as string[], err: [] as string[] };
    const run = (args: string[]) =>
      runAdmin(['operator', 'branches', unlimited.email, ...args], {
        db: server.app.db,
        clock: server.clock,
        horizonDays: 2,
        io: { out: (line) => io.out.push(line), err: (line) => io.err.push(line) },
      });
    expect(await run(['--branch', String(theirs)])).toBe(0);
    expect(io.out.at(-1)).toBe(`${unlimited.email} now has branches ${theirs}`);
    expect(
      (await get('/admin/branches', unlimited.token)).json<Schemas['AdminBranch'][]>().map((b) => b.id),
    ).toEqual([theirs]);
    expect(await run(['--all'])).toBe(0);
    expect(io.out.at(-1)).toBe(`${unlimited.email} now has every branch`);
    expect(await run(['--all', '--branch', String(mine)])).not.toBe(0);
    const audit = await server.app.db
      .selectFrom('audit_log')
      .select('operator_email')
      .where('action', '=', 'operator.set_branches')
      .where('entity_id', '=', String(await operatorId(unlimited.email)))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.operator_email).toMatch(/^cli:/);
  });

  it('lists only their branches, bookings, closures and day, and refuses another branch asked for', async () => {
    const branches = (await get('/admin/branches')).json<Schemas['AdminBranch'][]>();
    expect(branches.map((branch) => branch.id)).toEqual([mine]);
    const bookings = (await get('/admin/bookings')).json<Schemas['AdminBookingPage']>();
    expect(bookings.items.map((booking) => booking.branch.id)).toEqual([mine]);
    expect(bookings.total).toBe(1);
    const closures = (await get('/admin/closures')).json<Schemas['Closure'][]>();
    expect(closures.map((closure) => closure.branch.id)).toEqual([]);
    const today = (await get('/admin/today?date=2026-03-25')).json<Schemas['AdminToday']>();
    expect(today.branches.map((day) => day.branch.id)).toEqual([mine]);
    expect(today.branches[0]?.bookings.map((booking) => booking.id)).toEqual([myBooking]);

    for (const path of [
      `/admin/bookings?branch_id=${theirs}`,
      `/admin/closures?branch_id=${theirs}`,
      `/admin/today?branch_id=${theirs}`,
      `/admin/branches/${theirs}`,
      `/admin/bookings/${theirBooking}`,
      `/admin/bookings/${theirBooking}/move-options`,
      `/admin/branches/${theirs}/doors`,
    ]) {
      const refused = await get(path);
      expect([path, refused.statusCode, refused.json<ErrorBody>().code]).toEqual([
        path,
        403,
        'branch_forbidden',
      ]);
      expect(refused.json<ErrorBody>().detail).toBe(
        'Esta filial não está entre as suas. Peça a um proprietário para lha atribuir.',
      );
    }
    expect((await get(`/admin/bookings/${myBooking}`)).statusCode).toBe(200);
    expect((await get(`/admin/branches/${mine}`)).statusCode).toBe(200);
    // Staff nobody limited keep every branch.
    const all = (await get('/admin/branches', unlimited.token)).json<Schemas['AdminBranch'][]>();
    expect(all.map((branch) => branch.id)).toEqual(expect.arrayContaining([mine, theirs]));
  });

  it('refuses acting on another branch’s booking, branch or closure, with nothing changed', async () => {
    const acts: [string, () => ReturnType<typeof send>][] = [
      [
        'cancel',
        () =>
          send('POST', `/admin/bookings/${theirBooking}/cancel`, { refund: { mode: 'policy' }, reason: 'x' }),
      ],
      ['resend', () => send('POST', `/admin/bookings/${theirBooking}/resend-code`)],
      ['move', () => send('POST', `/admin/bookings/${theirBooking}/move`, { time_slot_id: 1, reason: 'x' })],
      ['update branch', () => send('PATCH', `/admin/branches/${theirs}`, { name: 'Renamed' })],
      ['preview branch', () => send('POST', `/admin/branches/${theirs}/preview`, { name: 'Renamed' })],
      [
        'preview closure',
        () =>
          send('POST', '/admin/closures/preview', {
            branch_id: theirs,
            starts_at: '2026-04-03T08:00:00Z',
            ends_at: '2026-04-03T09:00:00Z',
            reason: 'x',
          }),
      ],
      [
        'close',
        () =>
          send('POST', '/admin/closures', {
            branch_id: theirs,
            starts_at: '2026-04-03T08:00:00Z',
            ends_at: '2026-04-03T09:00:00Z',
            reason: 'x',
          }),
      ],
      ['reopen', () => send('POST', `/admin/closures/${theirClosure}/reopen`)],
      [
        'open the door',
        () =>
          send('POST', `/admin/branches/${theirs}/doors/front/unlock`, {
            reason: 'member outside',
            request_id: '00000000-0000-4000-8000-0000000000aa',
          }),
      ],
      [
        'preview a broadcast',
        () =>
          send('POST', '/admin/broadcasts/preview', {
            branch_id: theirs,
            starts_at: '2026-03-25T00:00:00Z',
            ends_at: '2026-03-26T00:00:00Z',
          }),
      ],
      [
        'broadcast',
        () =>
          send('POST', '/admin/broadcasts', {
            idempotency_key: '00000000-0000-4000-8000-0000000000ab',
            branch_id: theirs,
            starts_at: '2026-03-25T00:00:00Z',
            ends_at: '2026-03-26T00:00:00Z',
            channels: ['email'],
            texts: { pt: { subject: 'Ar condicionado', body: 'Avariado hoje.' } },
          }),
      ],
    ];
    expect(await answersOf(acts)).toEqual(acts.map(([name]) => `${name}: 403 branch_forbidden`));
    const booking = await server.app.db
      .selectFrom('bookings')
      .select('status')
      .where('id', '=', theirBooking)
      .executeTakeFirstOrThrow();
    expect(booking.status).toBe('confirmed');
    const branch = await server.app.db
      .selectFrom('branches')
      .select('name')
      .where('id', '=', theirs)
      .executeTakeFirstOrThrow();
    expect(branch.name).toBe('Theirs');
    const closures = await server.app.db
      .selectFrom('branch_closures')
      .select(['id', 'reopened_at'])
      .where('branch_id', '=', theirs)
      .execute();
    expect(closures).toEqual([{ id: theirClosure, reopened_at: null }]);
    expect(await server.app.db.selectFrom('door_unlocks').select('id').execute()).toEqual([]);
    expect(await server.app.db.selectFrom('broadcasts').select('id').execute()).toEqual([]);
    // Their own branch works as before.
    const renamed = await send('PATCH', `/admin/branches/${mine}`, { name: 'Mine, renamed' });
    expect(renamed.statusCode).toBe(200);
  });

  it('shows a member’s bookings and payments at their branches only, and keeps blocks and erasure from them', async () => {
    const detail = (await get(`/admin/members/${member.id}`)).json<Schemas['MemberDetail']>();
    expect(detail.bookings.map((booking) => booking.id)).toEqual([myBooking]);
    expect(detail.payments.length).toBeGreaterThan(0);
    expect(detail.payments.every((payment) => payment.branch.id === mine)).toBe(true);
    const ownerView = (await get(`/admin/members/${member.id}`, owner.token)).json<Schemas['MemberDetail']>();
    expect(ownerView.bookings.map((booking) => booking.id).sort()).toEqual([myBooking, theirBooking].sort());

    const acts: [string, () => ReturnType<typeof send>][] = [
      [
        'block member',
        () =>
          send('POST', `/admin/members/${member.id}/block`, { cancel_future_bookings: true, reason: 'x' }),
      ],
      ['unblock member', () => send('POST', `/admin/members/${member.id}/unblock`, { reason: 'x' })],
      [
        'block contact',
        () =>
          send('POST', '/admin/blocked-contacts', {
            kind: 'email',
            value: member.email,
            cancel_future_bookings: true,
            reason: 'x',
          }),
      ],
      [
        'preview block',
        () => send('POST', '/admin/blocked-contacts/preview', { kind: 'email', value: member.email }),
      ],
      ['unblock contact', () => send('DELETE', '/admin/blocked-contacts/1')],
      [
        'erase',
        () => send('POST', `/admin/members/${member.id}/erase`, { confirm_email: member.email, reason: 'x' }),
      ],
    ];
    expect(await answersOf(acts)).toEqual(acts.map(([name]) => `${name}: 403 branch_forbidden`));
    const statuses = await server.app.db
      .selectFrom('bookings')
      .select('status')
      .where('id', 'in', [myBooking, theirBooking])
      .execute();
    expect(statuses.map((row) => row.status)).toEqual(['confirmed', 'confirmed']);
    expect(await server.app.db.selectFrom('blocked_contacts').selectAll().execute()).toEqual([]);
  });

  it('shows a limited staff member their own audit entries only', async () => {
    const page = (await get('/admin/audit')).json<Schemas['AuditPage']>();
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((row) => row.operator_email === limited.email)).toBe(true);
    const ownerPage = (await get('/admin/audit', owner.token)).json<Schemas['AuditPage']>();
    expect(ownerPage.items.some((row) => row.operator_email === owner.email)).toBe(true);
  });

  it('lets only owners export a member’s personal data', async () => {
    for (const token of [limited.token, unlimited.token]) {
      const refused = await get(`/admin/members/${member.id}/export`, token);
      expect([refused.statusCode, refused.json<ErrorBody>().code]).toEqual([403, 'operator_forbidden']);
    }
    const exported = await get(`/admin/members/${member.id}/export`, owner.token);
    expect(exported.statusCode).toBe(200);
    expect(exported.json<Schemas['MemberExport']>().account.email).toBe(member.email.toLowerCase());
  });

  it('lists the broadcasts of their branches, narrowed before the last hundred are taken', async () => {
    const at = new Date('2026-03-20T10:00:00Z');
    const broadcast = (branchId: number, minutes: number) => ({
      idempotency_key: crypto.randomUUID(),
      branch_id: branchId,
      starts_at: new Date('2026-03-25T00:00:00Z'),
      ends_at: new Date('2026-03-26T00:00:00Z'),
      by_email: true,
      by_sms: false,
      texts: JSON.stringify({ pt: { subject: `Aviso ${branchId}`, body: 'Texto.' } }),
      recipients: 0,
      created_at: new Date(at.getTime() + minutes * 60_000),
      created_by_email: owner.email,
    });
    const [ours] = await server.app.db
      .insertInto('broadcasts')
      .values(broadcast(mine, 0))
      .returning('id')
      .execute();
    await server.app.db
      .insertInto('broadcasts')
      .values(Array.from({ length: 100 }, (_, index) => broadcast(theirs, index + 1)))
      .execute();
    const listed = (token: string) =>
      get('/admin/broadcasts', token).then((response) => response.json<Schemas['Broadcast'][]>());
    expect((await listed(limited.token)).map((item) => [item.id, item.branch.id])).toEqual([
      [ours!.id, mine],
    ]);
    const everyBranch = await listed(unlimited.token);
    expect(everyBranch).toHaveLength(100);
    expect(everyBranch.every((item) => item.branch.id === theirs)).toBe(true);
  });

  it('has decided every staff operation that takes or returns a branch', () => {
    // A new console operation naming a branch, a booking or a closure must be added here and decided above.
    const inTheirBody = ['createBroadcast', 'createClosure', 'previewBroadcast', 'previewClosure'];
    const decided = [
      'adminCancelBooking',
      'adminMoveBooking',
      'adminResendAccessCode',
      'createBroadcast',
      'createClosure',
      'getAdminBooking',
      'getAdminBranch',
      'getAdminToday',
      'getBranchDoors',
      'listAdminMoveOptions',
      'listClosures',
      'previewBranchUpdate',
      'previewBroadcast',
      'previewClosure',
      'reopenClosure',
      'searchAdminBookings',
      'unlockBranchDoor',
      'updateAdminBranch',
    ];
    const naming = Object.entries(contract.paths).flatMap(([path, item]) =>
      Object.values(item)
        .filter((operation) => operation.operationId && !operation.description?.includes('Owners only.'))
        .filter(
          (operation) =>
            (/\{(branch_id|booking_id|closure_id)\}/.test(path) && path.startsWith('/admin')) ||
            (operation.parameters ?? []).some((parameter) => parameter.$ref?.endsWith('/AdminBranchFilter')),
        )
        .map((operation) => operation.operationId),
    );
    expect([...new Set([...naming, ...inTheirBody])].sort()).toEqual(decided);
  });
});
