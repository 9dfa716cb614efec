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
import { refundSharesOf } from './support/ledger.ts';
import { loggedInOperator } from './support/operators.ts';

// Refunds above the staff ceiling (issue 32, item 2), over HTTP on both storage targets: the ceiling owners set
// (console and CLI, one audited use case), a staff cancellation at or under it made at once, one above it changing
// nothing but a pending request the owners are told of, and an owner's decision: approved (the one cancellation,
// one refund, the member told then and once), refused (nothing changes, the requester reads why), or closed when
// the booking was cancelled meanwhile. A limited staff member is kept to their branches as before.

let counter = 0;
const unique = (role: string) => `${role}-${Date.now()}-${(counter += 1)}@gym.example`;

describe.each(DATABASE_TARGETS)('refunds above the staff ceiling on %s', (target) => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let secondOwner: Awaited<ReturnType<typeof loggedInOperator>>;
  let staff: Awaited<ReturnType<typeof loggedInOperator>>;
  let otherStaff: Awaited<ReturnType<typeof loggedInOperator>>;
  let member: Awaited<ReturnType<typeof verifiedAccount>>;
  let branchId: number;
  let hour = 0;

  /**
   * A paid booking (15 €) far enough ahead that the policy refunds all of it, two hours after the previous one (a
   * door code of its own: contiguous bookings share one).
   */
  const paidBooking = () => {
    hour += 2;
    const start = new Date(Date.UTC(2026, 2, 25, hour));
    const end = new Date(start.getTime() + 3_600_000);
    return paidBookingAt(server.app, member, {
      branchId,
      start: start.toISOString(),
      end: end.toISOString(),
    });
  };

  const post = (path: string, body: unknown, who: { token: string; client: typeof owner.client }) =>
    who.client.json('POST', `/api/admin${path}`, body, who.token);
  const cancel = (
    bookingId: number,
    who: typeof owner,
    refund: Schemas['RefundChoice'] = { mode: 'full' },
    reason = 'broken shower',
  ) => post(`/bookings/${bookingId}/cancel`, { refund, reason }, who);
  const detailOf = async (bookingId: number, who = owner) =>
    (await who.client.get(`/api/admin/bookings/${bookingId}`, who.token)).json<
      Schemas['AdminBookingDetail']
    >();
  const listAs = async (who: typeof owner) =>
    (await who.client.get('/api/admin/refund-approvals', who.token)).json<Schemas['RefundApprovalList']>();
  const setCeiling = (euros: number, who = owner) =>
    who.client.json('PUT', '/api/admin/refund-ceiling', { staff_refund_ceiling_eur: euros }, who.token);
  const refundsOf = (bookingId: number) => refundSharesOf(server.app.db, bookingId);
  const statusOf = async (bookingId: number) =>
    (
      await server.app.db
        .selectFrom('bookings')
        .select('status')
        .where('id', '=', bookingId)
        .executeTakeFirstOrThrow()
    ).status;
  /** When the booking's door code was revoked (null while it opens the door). */
  const codeRevokedAt = async (bookingId: number) =>
    (
      await server.app.db
        .selectFrom('bookings')
        .innerJoin('lock_codes', 'lock_codes.id', 'bookings.lock_code_id')
        .select('lock_codes.revoked_at')
        .where('bookings.id', '=', bookingId)
        .executeTakeFirstOrThrow()
    ).revoked_at;
  const cancellationMessages = async (bookingId: number) =>
    (await detailOf(bookingId)).messages.filter((message) => message.kind === 'booking_canceled');
  const auditOf = (action: string) =>
    server.app.db
      .selectFrom('audit_log')
      .select(['operator_email', 'entity_id', 'reason', 'before', 'after'])
      .where('action', '=', action)
      .orderBy('id')
      .execute();
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, {
      db: server.app.db,
      clock: server.clock,
      horizonDays: 2,
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
      modules: server.app.modules,
    });
    return { code, out, err };
  };
  /** A request made by `staff`: the 202's body. */
  const requested = async (bookingId: number, refund: Schemas['RefundChoice'] = { mode: 'full' }) => {
    const answer = await cancel(bookingId, staff, refund);
    expect(answer.statusCode, answer.body).toBe(202);
    return answer.json<Schemas['RefundApproval']>();
  };

  beforeAll(async () => {
    server = await startAccountApp(target);
    owner = await loggedInOperator(server.app, server.clock, unique('owner'), 'owner');
    server.clock.advance({ seconds: 30 });
    secondOwner = await loggedInOperator(server.app, server.clock, unique('owner'), 'owner');
    server.clock.advance({ seconds: 30 });
    staff = await loggedInOperator(server.app, server.clock, unique('staff'), 'staff');
    server.clock.advance({ seconds: 30 });
    otherStaff = await loggedInOperator(server.app, server.clock, unique('staff'), 'staff');
    member = await verifiedAccount(newClient(server.app), server.app);
    branchId = await createBranch(server.app.db);
  });
  afterAll(async () => server?.close());

  it('has a 30 € ceiling until an owner sets one, in the console or the CLI, through one audited use case', async () => {
    expect((await listAs(staff)).staff_refund_ceiling_eur).toBe(30);
    const bookingId = await paidBooking();
    expect((await detailOf(bookingId, staff)).staff_refund_ceiling_eur).toBe(30);

    const byStaff = await setCeiling(1, staff);
    expect([byStaff.statusCode, byStaff.json<ErrorBody>().code]).toEqual([403, 'operator_forbidden']);
    const fraction = await setCeiling(10.005);
    expect([fraction.statusCode, fraction.json<ErrorBody>().code]).toEqual([422, 'validation_failed']);
    const set = await setCeiling(12.5);
    expect(set.json<Schemas['StaffRefundCeiling']>()).toEqual({ staff_refund_ceiling_eur: 12.5 });
    expect((await listAs(staff)).staff_refund_ceiling_eur).toBe(12.5);

    expect(await cli('approvals', 'ceiling')).toMatchObject({
      code: 0,
      out: ['staff refund ceiling: 12.50 EUR'],
    });
    expect(await cli('approvals', 'ceiling', '10')).toMatchObject({
      code: 0,
      out: ['staff refund ceiling set to 10.00 EUR'],
    });
    expect((await listAs(owner)).staff_refund_ceiling_eur).toBe(10);
    const audit = await auditOf('refund_ceiling.set');
    expect(
      audit.map((row) => [row.operator_email?.startsWith('cli:') ? 'cli' : row.operator_email, row.after]),
    ).toEqual([
      [owner.email, { staff_refund_ceiling_eur: 12.5 }],
      ['cli', { staff_refund_ceiling_eur: 10 }],
    ]);
    expect(audit[1]!.before).toEqual({ staff_refund_ceiling_eur: 12.5 });
  });

  it('cancels at once a staff refund at or under the ceiling, and any refund of an owner', async () => {
    expect((await setCeiling(15)).statusCode).toBe(200);
    const underCeiling = await paidBooking();
    const done = await cancel(underCeiling, staff, { mode: 'full' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<Schemas['AdminBookingDetail']>().booking).toMatchObject({
      status: 'canceled',
      refunded_eur: 15,
    });
    // No refund at all needs no owner, whatever the ceiling.
    expect((await setCeiling(0)).statusCode).toBe(200);
    const noRefund = await paidBooking();
    expect((await cancel(noRefund, staff, { mode: 'none' })).statusCode).toBe(200);
    expect(await statusOf(noRefund)).toBe('canceled');
    // Owners have no ceiling.
    const byOwner = await paidBooking();
    const ownerCancel = await cancel(byOwner, owner, { mode: 'full' });
    expect(ownerCancel.statusCode).toBe(200);
    expect(await refundsOf(byOwner)).toEqual([{ amount_cents: 1500, purpose: 'operator' }]);
    expect(await server.app.db.selectFrom('refund_approvals').select('id').execute()).toEqual([]);
  });

  it('sends a staff refund above the ceiling to the owners and changes nothing else', async () => {
    expect((await setCeiling(10)).statusCode).toBe(200);
    const bookingId = await paidBooking();
    const before = await detailOf(bookingId);
    const approval = await requested(bookingId, { mode: 'policy' });
    expect(approval).toMatchObject({
      status: 'pending',
      booking: { id: bookingId, status: 'confirmed', member_email: member.email.toLowerCase() },
      refund_mode: 'policy',
      refund_eur: 15,
      reason: 'broken shower',
      requested_by: staff.email,
      decided_at: null,
      decided_by: null,
      decision_reason: null,
      refunded_eur: null,
    });
    // Nothing happened to the booking, its door code, the member or the money.
    const after = await detailOf(bookingId);
    expect(after.booking).toEqual(before.booking);
    expect(after.payments).toEqual(before.payments);
    expect(after.messages).toEqual(before.messages);
    expect(await refundsOf(bookingId)).toEqual([]);
    expect(await codeRevokedAt(bookingId)).toBeNull();
    expect(after.refund_approval).toEqual(approval);
    // Each owner is told once, by e-mail through the outbox; the requester is not.
    const mails = await server.app.db
      .selectFrom('outbox')
      .select(['recipient', 'subject', 'text_body'])
      .where('kind', '=', 'refund_approval')
      .where('dedupe_key', 'like', `refund_approval:${approval.id}:%`)
      .orderBy('recipient')
      .execute();
    expect(mails.map((mail) => mail.recipient)).toEqual([owner.email, secondOwner.email].sort());
    expect(mails[0]!.subject).toContain(`#${bookingId}`);
    expect(mails[0]!.text_body).toContain(staff.email);
    expect(mails[0]!.text_body).toContain('broken shower');
    expect(mails[0]!.text_body).toContain('https://gym.example/');
    const [audit] = (await auditOf('refund_approval.request')).filter(
      (row) => row.entity_id === String(approval.id),
    );
    expect(audit).toMatchObject({
      operator_email: staff.email,
      reason: 'broken shower',
      after: { status: 'pending', booking_id: bookingId, refund_eur: 15, ceiling_eur: 10 },
    });

    // One request per booking waits: another answers 409 and changes nothing.
    const again = await cancel(bookingId, staff, { mode: 'amount', amount_eur: 12 });
    expect([again.statusCode, again.json<ErrorBody>().code]).toEqual([409, 'refund_approval_pending']);
    const byOther = await cancel(bookingId, otherStaff, { mode: 'full' });
    expect(byOther.json<ErrorBody>().code).toBe('refund_approval_pending');
    // Staff see their own requests; owners see all.
    expect((await listAs(staff)).pending.map((item) => item.id)).toContain(approval.id);
    expect((await listAs(otherStaff)).pending.map((item) => item.id)).not.toContain(approval.id);
    expect((await listAs(owner)).pending.map((item) => item.id)).toContain(approval.id);
    // Only owners decide.
    for (const act of ['approve', 'refuse']) {
      const refused = await post(`/refund-approvals/${approval.id}/${act}`, { reason: 'x' }, staff);
      expect([refused.statusCode, refused.json<ErrorBody>().code]).toEqual([403, 'operator_forbidden']);
    }
    expect(await statusOf(bookingId)).toBe('confirmed');
  });

  it('cancels and refunds once when an owner approves, telling the member then and once; a replay changes nothing', async () => {
    const bookingId = await paidBooking();
    const approval = await requested(bookingId);
    expect(await cancellationMessages(bookingId)).toEqual([]);
    expect(await codeRevokedAt(bookingId)).toBeNull();

    const approved = await post(`/refund-approvals/${approval.id}/approve`, undefined, owner);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<Schemas['RefundApproval']>()).toMatchObject({
      status: 'approved',
      booking: { id: bookingId, status: 'canceled' },
      decided_by: owner.email,
      refunded_eur: 15,
    });
    const detail = await detailOf(bookingId);
    expect(detail.booking).toMatchObject({
      status: 'canceled',
      refunded_eur: 15,
    });
    expect(await codeRevokedAt(bookingId)).not.toBeNull();
    expect(await refundsOf(bookingId)).toEqual([{ amount_cents: 1500, purpose: 'operator' }]);
    const told = await cancellationMessages(bookingId);
    expect(told.map((message) => message.channel)).toEqual(['email']);
    const [mail] = await server.app.db
      .selectFrom('outbox')
      .select('text_body')
      .where('kind', '=', 'booking_canceled')
      .where('recipient', '=', member.email.toLowerCase())
      .orderBy('id', 'desc')
      .execute();
    // The staff member's reason is the one the member reads.
    expect(mail?.text_body).toContain('broken shower');
    // The cancellation is the owner's, audited as any; the decision has its own row.
    const [cancelAudit] = (await auditOf('booking.cancel')).filter(
      (row) => row.entity_id === String(bookingId),
    );
    expect(cancelAudit).toMatchObject({ operator_email: owner.email, reason: 'broken shower' });
    const [approveAudit] = (await auditOf('refund_approval.approve')).filter(
      (row) => row.entity_id === String(approval.id),
    );
    expect(approveAudit).toMatchObject({
      operator_email: owner.email,
      after: { status: 'approved', booking_id: bookingId, refunded_eur: 15 },
    });

    for (const who of [owner, secondOwner]) {
      const replay = await post(`/refund-approvals/${approval.id}/approve`, undefined, who);
      expect([replay.statusCode, replay.json<ErrorBody>().code]).toEqual([409, 'refund_approval_decided']);
    }
    const refusedLate = await post(`/refund-approvals/${approval.id}/refuse`, { reason: 'too late' }, owner);
    expect(refusedLate.json<ErrorBody>().code).toBe('refund_approval_decided');
    expect(await refundsOf(bookingId)).toHaveLength(1);
    expect(await cancellationMessages(bookingId)).toHaveLength(1);
    expect((await listAs(staff)).decided.find((item) => item.id === approval.id)).toMatchObject({
      status: 'approved',
      refunded_eur: 15,
    });
  });

  it('changes nothing when an owner refuses, and shows the requester why', async () => {
    const bookingId = await paidBooking();
    const before = await detailOf(bookingId);
    const approval = await requested(bookingId, { mode: 'amount', amount_eur: 14 });
    expect(approval.refund_eur).toBe(14);
    const blank = await post(`/refund-approvals/${approval.id}/refuse`, { reason: '   ' }, owner);
    expect([blank.statusCode, blank.json<ErrorBody>().code]).toEqual([422, 'validation_failed']);
    const refused = await post(
      `/refund-approvals/${approval.id}/refuse`,
      { reason: 'the shower works: checked' },
      secondOwner,
    );
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json<Schemas['RefundApproval']>()).toMatchObject({
      status: 'refused',
      decided_by: secondOwner.email,
      decision_reason: 'the shower works: checked',
      refunded_eur: null,
    });
    const after = await detailOf(bookingId);
    expect(after.booking).toEqual(before.booking);
    expect(after.messages).toEqual(before.messages);
    expect(await refundsOf(bookingId)).toEqual([]);
    // The requester reads the refusal on their list and on the booking.
    const mine = (await listAs(staff)).decided.find((item) => item.id === approval.id);
    expect(mine).toMatchObject({ status: 'refused', decision_reason: 'the shower works: checked' });
    expect((await detailOf(bookingId, staff)).refund_approval).toMatchObject({ status: 'refused' });
    const approveLate = await post(`/refund-approvals/${approval.id}/approve`, undefined, owner);
    expect(approveLate.json<ErrorBody>().code).toBe('refund_approval_decided');
    expect(await statusOf(bookingId)).toBe('confirmed');
    // Refused, the booking may be asked for again.
    expect((await cancel(bookingId, staff, { mode: 'amount', amount_eur: 11 })).statusCode).toBe(202);
  });

  it('closes a request whose booking the member cancelled meanwhile: 409, nothing refunded twice', async () => {
    const bookingId = await paidBooking();
    const approval = await requested(bookingId);
    const byMember = await newClient(server.app).json(
      'POST',
      '/api/bookings/cancel-bookings',
      { booking: [{ booking_id: bookingId, expected_refund_eur: 15 }] },
      member.token,
    );
    expect(byMember.statusCode, byMember.body).toBe(200);
    const approve = await post(`/refund-approvals/${approval.id}/approve`, undefined, owner);
    expect([approve.statusCode, approve.json<ErrorBody>().code]).toEqual([409, 'refund_approval_closed']);
    expect((await detailOf(bookingId)).refund_approval).toMatchObject({
      status: 'closed',
      decided_by: owner.email,
      refunded_eur: null,
    });
    expect(await refundsOf(bookingId)).toEqual([{ amount_cents: 1500, purpose: 'cancellation' }]);
    expect(await cancellationMessages(bookingId)).toHaveLength(1);
    const [closed] = (await auditOf('refund_approval.close')).filter(
      (row) => row.entity_id === String(approval.id),
    );
    expect(closed).toMatchObject({ operator_email: owner.email, after: { status: 'closed' } });
  });

  it('lists, approves and refuses from the CLI through the same use cases', async () => {
    const toApprove = await paidBooking();
    const toRefuse = await paidBooking();
    const first = await requested(toApprove);
    const second = await requested(toRefuse);
    const listed = await cli('approvals', 'list', '--json');
    expect(listed.code, listed.err.join('\n')).toBe(0);
    const rows = JSON.parse(listed.out.join('\n')) as { id: number; status: string; booking: number }[];
    expect(rows.filter((row) => row.status === 'pending').map((row) => row.id)).toEqual(
      expect.arrayContaining([first.id, second.id]),
    );
    const table = await cli('approvals', 'list');
    expect(table.out[0]).toBe('staff refund ceiling: 10.00 EUR');

    const approved = await cli('approvals', 'approve', String(first.id));
    expect(approved, approved.err.join('\n')).toMatchObject({
      code: 0,
      out: [`approved request ${first.id}: booking ${toApprove} cancelled, 15.00 EUR refunded`],
    });
    expect(await statusOf(toApprove)).toBe('canceled');
    expect(await cancellationMessages(toApprove)).toHaveLength(1);
    const replay = await cli('approvals', 'approve', String(first.id));
    expect(replay.code).toBe(2);
    expect(replay.err[0]).toContain('refund_approval_decided');

    expect((await cli('approvals', 'refuse', String(second.id))).code).toBe(2);
    const refused = await cli('approvals', 'refuse', String(second.id), '--reason', 'ask the member first');
    expect(refused).toMatchObject({ code: 0, out: [`refused request ${second.id}`] });
    expect(await statusOf(toRefuse)).toBe('confirmed');
    const decisions = await server.app.db
      .selectFrom('refund_approvals')
      .select(['id', 'status', 'decided_by', 'decided_by_email', 'decision_reason'])
      .where('id', 'in', [first.id, second.id])
      .orderBy('id')
      .execute();
    expect(decisions.map((row) => [row.status, row.decided_by, row.decision_reason])).toEqual([
      ['approved', null, null],
      ['refused', null, 'ask the member first'],
    ]);
    expect(decisions.every((row) => row.decided_by_email?.startsWith('cli:'))).toBe(true);
    expect((await cli('approvals', 'approve', '999999')).err[0]).toContain('refund_approval_not_found');
  });

  it('keeps a limited staff member to their branches: another branch’s booking is refused, not asked for', async () => {
    const theirs = await createBranch(server.app.db, { name: 'Theirs' });
    const theirBooking = await paidBookingAt(server.app, member, {
      branchId: theirs,
      start: '2026-03-27T10:00:00Z',
      end: '2026-03-27T11:00:00Z',
    });
    const staffId = (
      await server.app.db
        .selectFrom('operators')
        .select('id')
        .where('email', '=', otherStaff.email)
        .executeTakeFirstOrThrow()
    ).id;
    const limited = await owner.client.json(
      'PUT',
      `/api/admin/operators/${staffId}/branches`,
      { branch_ids: [branchId] },
      owner.token,
    );
    expect(limited.statusCode).toBe(200);
    const refused = await cancel(theirBooking, otherStaff, { mode: 'full' });
    expect([refused.statusCode, refused.json<ErrorBody>().code]).toEqual([403, 'branch_forbidden']);
    expect(
      await server.app.db
        .selectFrom('refund_approvals')
        .select('id')
        .where('booking_id', '=', theirBooking)
        .execute(),
    ).toEqual([]);
    expect(await statusOf(theirBooking)).toBe('confirmed');
  });

  it('refunds what the policy gave when it was asked, however long the owner took', async () => {
    // Some 48 h 28 min ahead: the policy refunds all of it now, half of it from 48 hours before.
    const bookingId = await paidBookingAt(server.app, member, {
      branchId,
      start: '2026-03-22T11:00:00Z',
      end: '2026-03-22T12:00:00Z',
    });
    const approval = await requested(bookingId, { mode: 'policy' });
    expect(approval.refund_eur).toBe(15);
    server.clock.advance({ hours: 1 });
    expect((await detailOf(bookingId)).refundable_eur).toBe(7.5);
    const approved = await post(`/refund-approvals/${approval.id}/approve`, undefined, owner);
    expect(approved.json<Schemas['RefundApproval']>().refunded_eur).toBe(15);
    expect(await refundsOf(bookingId)).toEqual([{ amount_cents: 1500, purpose: 'operator' }]);
  });
});
