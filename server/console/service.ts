import { Temporal } from 'temporal-polyfill';
import { recordAudit, type Actor } from '../kernel/audit.ts';
import {
  blockContact,
  blockMember,
  normaliseContact,
  unblockContact,
  unblockMember,
  accountsRepository as authRepository,
  type AuthService,
  type BlockDependencies,
} from '../accounts/index.ts';
import { formatLocalTime } from '../catalog/index.ts';
import {
  type AccessCodeNotifier,
  cancelFutureBookingsOfMembers,
  type CancellationDependencies,
  closeBranch,
  closurePeriod,
  moneyOfBookings,
  movesRepository,
  moveBookingAsOperator,
  moveRefusal,
  policyRefundCents,
  reopenClosure,
  bookingsRepository as bookingRepository,
  type BookingService,
} from '../booking/index.ts';
import { centsToEuros, eurosToCents } from '../kernel/money.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { runTransaction, type TransactionRetryLog } from '../kernel/transactions.ts';
import type { BookingStatus, LockDoorState, OperatorRole } from '../db/schema.ts';
import { AppError, PERIOD_TOO_LONG } from '../kernel/errors.ts';
import type { OperationQuery } from '../http/operations.ts';
import { doorStatesOfBookings } from '../doors/index.ts';
import type { components } from '../../openapi/schema.gen.ts';
import * as repository from './repository.ts';
import { bookingCursor, readBookingCursors } from './booking-cursor.ts';
import { createBroadcastReads, sendBroadcast } from './broadcasts.ts';
import { addMemberNote, listMemberNotes } from './member-notes.ts';
import { readStaffRefundCeiling, type ApprovalNoticeDependencies } from './refund-approvals.ts';
import * as approvals from './refund-approvals-repository.ts';
import { approveRefund, refuseRefund } from './use-cases/decide-refund-approval.ts';
import { requestCancellation } from './use-cases/request-cancellation.ts';
import { setStaffRefundCeiling } from './use-cases/set-refund-ceiling.ts';
import {
  ALL_BRANCHES,
  assertMayActOnBranch,
  branchFilter,
  mayActOnBranch,
  type BranchScope,
} from '../operators/index.ts';

type Schemas = components['schemas'];
export type RefundMode = 'policy' | 'full' | 'none' | 'amount';
export type RefundChoice = { mode: RefundMode; amount_eur?: number };

export type ConsoleDependencies = CancellationDependencies &
  ApprovalNoticeDependencies & {
    db: Db;
    clock: Clock;
    bookings: BookingService;
    resend: AccessCodeNotifier;
    auth: AuthService;
    /** Where a transaction run again after a deadlock is reported (runTransaction); not reported when absent. */
    log?: TransactionRetryLog | null;
  };

function doorCodeState(
  row: repository.AdminBookingRow,
  door: { state: LockDoorState | null } | undefined,
): Schemas['DoorCodeState'] {
  if (row.lock_code_id === null) return 'none';
  const state = door?.state ?? null;
  if (state === 'failed') return 'failed';
  if (state === 'revoking' || state === 'revoked') return 'revoked';
  if (state === 'set') return row.access_code_sent_at ? 'sent' : 'programmed';
  return 'pending';
}

export function createConsoleService(deps: ConsoleDependencies) {
  const { db, clock } = deps;
  const now = () => clock.now();

  function statusOf(row: { status: BookingStatus; hold_expires_at: Date | null }, at: Date): BookingStatus {
    if (row.status === 'pending' && (row.hold_expires_at === null || row.hold_expires_at <= at))
      return 'expired';
    return row.status;
  }

  /**
   * The live bookings (confirmed, or pending on a hold) of a branch's period or of members from a day on, read as
   * the console lists them: what a closure or a contact's move would touch.
   */
  async function liveBookings(
    filter: Parameters<typeof bookingRepository.lockLiveBookingsInPeriod>[1],
  ): Promise<repository.AdminBookingRow[]> {
    const ids = await db
      .transaction()
      .execute((trx) => bookingRepository.lockLiveBookingsInPeriod(trx, filter));
    const { rows } = await repository.searchBookings(
      db,
      { bookingIds: ids, now: filter.now },
      { limit: 1000 },
    );
    return rows;
  }

  async function views(rows: readonly repository.AdminBookingRow[]): Promise<Schemas['AdminBooking'][]> {
    const [doors, moneyById] = await Promise.all([
      doorStatesOfBookings(
        db,
        rows.map((row) => row.id),
      ),
      moneyOfBookings(db, rows),
    ]);
    const at = dateFromInstant(now());
    return rows.map((row) => {
      const local = (date: Date) => formatLocalTime(instantFromDate(date), row.time_zone);
      const status = statusOf(row, at);
      const money = moneyById.get(row.id)!;
      return {
        id: row.id,
        status,
        series:
          row.series_id === null
            ? null
            : { id: row.series_id, week: row.series_week ?? 1, weeks: row.series_weeks ?? 1 },
        branch: { id: row.branch_id, name: row.branch_name, time_zone: row.time_zone },
        start_time: local(row.start_time),
        end_time: local(row.end_time),
        created_at: local(row.created_at),
        member:
          row.member_id === null
            ? null
            : {
                id: row.member_id,
                email: row.email,
                phone_number: row.phone_number,
                first_name: row.first_name ?? '',
                last_name: row.last_name ?? '',
                locale: row.locale ?? 'pt',
                deleted: row.deleted_at !== null,
                blocked: row.blocked,
              },
        final_price_eur: centsToEuros(money.priceCents),
        paid: money.paid,
        paid_eur: centsToEuros(money.paidCents),
        refunded_eur: centsToEuros(money.refundedCents),
        coupon_code: row.coupon_code,
        door_code_state: doorCodeState(row, doors.get(row.id)),
        code_sent_at: row.access_code_sent_at ? local(row.access_code_sent_at) : null,
        checked_in_at: row.checked_in_at ? local(row.checked_in_at) : null,
        no_show: row.no_show_at !== null,
        overstay: row.overstay_at !== null,
        canceled_at: row.canceled_at ? local(row.canceled_at) : null,
      };
    });
  }

  /** Who cancelled: an operator's e-mail (or the CLI's name); older rows kept `operator:<id>`, resolved here. */
  async function canceledByName(canceledBy: string | null): Promise<string | null> {
    const id = /^operator:(\d+)$/.exec(canceledBy ?? '')?.[1];
    if (!id) return canceledBy;
    const operator = await db
      .selectFrom('operators')
      .select('email')
      .where('id', '=', Number(id))
      .executeTakeFirst();
    return operator?.email ?? canceledBy;
  }

  /** A request for an owner's approval as the console shows it: its booking's times in the branch's zone. */
  function approvalView(row: approvals.RefundApprovalListRow, at: Date): Schemas['RefundApproval'] {
    const local = (date: Date) => formatLocalTime(instantFromDate(date), row.time_zone);
    return {
      id: row.id,
      status: row.status,
      booking: {
        id: row.booking_id,
        status: statusOf({ status: row.booking_status, hold_expires_at: row.hold_expires_at }, at),
        branch: { id: row.branch_id, name: row.branch_name, time_zone: row.time_zone },
        start_time: local(row.start_time),
        end_time: local(row.end_time),
        member_email: row.member_email,
      },
      refund_mode: row.refund_mode,
      refund_eur: centsToEuros(row.refund_cents),
      reason: row.reason,
      requested_at: local(row.requested_at),
      requested_by: row.requested_by_email,
      decided_at: row.decided_at ? local(row.decided_at) : null,
      decided_by: row.decided_by_email,
      decision_reason: row.decision_reason,
      refunded_eur: row.refunded_cents === null ? null : centsToEuros(row.refunded_cents),
    };
  }

  async function requireApprovalView(approvalId: number): Promise<Schemas['RefundApproval']> {
    const row = await approvals.findRefundApproval(db, approvalId);
    if (!row) throw new AppError('refund_approval_not_found');
    return approvalView(row, dateFromInstant(now()));
  }

  /** The booking, when it exists (404) and is at one of the caller's branches (403 `branch_forbidden`). */
  async function requireBooking(bookingId: number, scope: BranchScope): Promise<repository.AdminBookingRow> {
    const row = await repository.findAdminBooking(db, bookingId);
    if (!row) throw new AppError('booking_not_found');
    assertMayActOnBranch({ branches: scope }, row.branch_id);
    return row;
  }

  function movementView(row: repository.MoneyMovementRow): Schemas['MoneyMovement'] {
    return {
      id: row.id,
      kind: row.kind,
      purpose: row.purpose,
      booking_ids: row.shares.map((share) => share.booking_id),
      shares: row.shares.map((share) => ({
        booking_id: share.booking_id,
        amount_eur: centsToEuros(share.amount_cents),
      })),
      branch: { id: row.branch_id, name: row.branch_name, time_zone: row.time_zone },
      member_id: row.member_id,
      amount_eur: centsToEuros(Number(row.amount_cents)),
      at: formatLocalTime(instantFromDate(row.at), row.time_zone),
      provider_reference: row.provider_reference,
      reason: row.reason,
    };
  }

  /** A member, with their bookings and payments at the caller's branches only. */
  async function memberDetail(memberId: string, scope: BranchScope): Promise<Schemas['MemberDetail']> {
    const member = await repository.findMember(db, memberId);
    if (!member) throw new AppError('member_not_found');
    const [blocks, bookings, payments] = await Promise.all([
      authRepository.blocksOf(db, { email: member.email, phone: member.phone_number }),
      repository.searchBookings(
        db,
        { memberId, branchIds: branchFilter(scope), now: dateFromInstant(now()) },
        { limit: 500 },
      ),
      repository.moneyMovements(db, { memberId }),
    ]);
    return {
      member: memberView(member),
      blocks: blocks.map(blockView),
      bookings: await views(bookings.rows),
      payments: payments.filter((row) => mayActOnBranch(scope, row.branch_id)).map(movementView),
    };
  }

  /** What a block needs of the bookings: cancelling the blocked members' bookings that have not started. */
  const blockDependencies: BlockDependencies = {
    clock,
    cancelFutureBookings: (trx, request) => cancelFutureBookingsOfMembers(trx, deps, request),
  };
  // Run again, audit row and all, after a deadlock. The refunds an operator's change may make are keyed per
  // booking (the cancellations' as the member's own), so a try that rolled back is not paid twice.
  const change = <T>(name: string, work: (trx: Db) => Promise<T>) =>
    runTransaction(db, { name, log: deps.log }, work);

  const broadcasts = createBroadcastReads(db);

  return {
    views,
    movementView,

    // --- Talking to members (issue 32) ------------------------------------------------------------------------

    listBroadcasts: (scope: BranchScope) => broadcasts.list(branchFilter(scope)),
    previewBroadcast: (actor: Actor, input: Schemas['BroadcastAudience']) => broadcasts.preview(actor, input),
    getBroadcast: (actor: Actor, broadcastId: number) => broadcasts.detail(actor, broadcastId),

    async createBroadcast(
      actor: Actor,
      input: Schemas['BroadcastRequest'],
    ): Promise<Schemas['BroadcastDetail']> {
      const id = await change('createBroadcast', (trx) =>
        sendBroadcast(trx, deps, {
          actor,
          idempotencyKey: input.idempotency_key,
          branchId: input.branch_id,
          startsAt: input.starts_at,
          endsAt: input.ends_at,
          channels: input.channels,
          texts: input.texts,
        }),
      );
      return broadcasts.detail(actor, id);
    },

    listMemberNotes: (memberId: string) => listMemberNotes(db, memberId),
    addMemberNote: (actor: Actor, memberId: string, body: string) =>
      change('addMemberNote', (trx) => addMemberNote(trx, deps, { actor, memberId, body })),

    async searchBookings(
      query: OperationQuery<'searchAdminBookings'>,
      scope: BranchScope,
    ): Promise<Schemas['AdminBookingPage']> {
      checkPeriod(query.from, query.to);
      const places = readBookingCursors(query);
      const search: repository.BookingSearch = {
        q: query.q,
        branchIds: branchFilter(scope, query.branch_id),
        from: query.from,
        to: query.to,
        status: query.status,
        seriesId: query.series_id,
        now: dateFromInstant(now()),
      };
      const pageSize = query.page_size ?? 50;
      const [window, counted] = await Promise.all([
        repository.searchBookings(db, search, { limit: pageSize, ...places }),
        repository.countBookings(db, search, BOOKINGS_COUNTED_UP_TO),
      ]);
      const { rows, more } = window;
      // This page's newest and oldest places in the list (on an empty page past either end, the cursor's own).
      const asked = places.after ?? places.before;
      const placeOf = (row: (typeof rows)[number] | undefined) =>
        row ? { startTime: row.position, id: row.id } : asked;
      const newest = placeOf(rows[0]);
      const oldest = placeOf(rows.at(-1));
      // The way the page was read, `more` says whether the list goes on; the other way is asked of the index
      // (nothing is newer than the first page).
      const older = places.before
        ? oldest !== undefined && (await repository.hasBookingsBeyond(db, search, oldest, '<'))
        : more;
      const newer = places.before
        ? more
        : places.after !== undefined &&
          newest !== undefined &&
          (await repository.hasBookingsBeyond(db, search, newest, '>'));
      return {
        items: await views(rows),
        total: Math.min(counted, BOOKINGS_COUNTED_UP_TO),
        total_capped: counted > BOOKINGS_COUNTED_UP_TO,
        page_size: pageSize,
        next: older && oldest ? bookingCursor(oldest) : null,
        previous: newer && newest ? bookingCursor(newest) : null,
      };
    },

    /**
     * Where the console could move a booking on a local day (its own by default): each slot with its price, and
     * why the operator's move would refuse it - the booking's own slot, started, closed, taken, or a price other
     * than the booking's (adminMoveBooking moves at the same price).
     */
    async moveOptions(
      bookingId: number,
      date: string | undefined,
      scope: BranchScope,
    ): Promise<Schemas['AdminMoveOption'][]> {
      const row = await requireBooking(bookingId, scope);
      const local = (at: Date) => formatLocalTime(instantFromDate(at), row.time_zone);
      const day = date ?? local(row.start_time).slice(0, 10);
      const at = dateFromInstant(now());
      const slots = await repository.slotsOfDayForMove(db, row.branch_id, day, at);
      return slots.map((slot) => ({
        id: slot.id,
        start_time: local(slot.start_time),
        end_time: local(slot.end_time),
        price_eur: centsToEuros(slot.price_cents),
        unavailable: moveRefusal(row, slot, at, 'operator'),
      }));
    },

    async bookingDetail(bookingId: number, scope: BranchScope): Promise<Schemas['AdminBookingDetail']> {
      const row = await requireBooking(bookingId, scope);
      const [booking] = await views([row]);
      const local = (date: Date) => formatLocalTime(instantFromDate(date), row.time_zone);
      const [payments, messages, codeEvents, moves, consoleMoves, approval, ceilingCents] = await Promise.all(
        [
          repository.moneyMovements(db, { bookingIds: [bookingId] }),
          repository.messagesOfBooking(db, bookingId),
          db
            .selectFrom('lock_code_doors')
            .innerJoin('lock_codes', 'lock_codes.id', 'lock_code_doors.lock_code_id')
            .select([
              'lock_code_doors.state',
              'lock_code_doors.updated_at',
              'lock_code_doors.error',
              'lock_codes.programmed_at',
            ])
            .where('lock_code_doors.lock_code_id', '=', row.lock_code_id ?? 0)
            .execute(),
          movesRepository.listCompletedMoves(db, bookingId),
          db
            .selectFrom('audit_log')
            .select(['at', 'operator_email', 'reason'])
            .where('entity_type', '=', 'booking')
            .where('entity_id', '=', String(bookingId))
            .where('action', '=', 'booking.move')
            .execute(),
          approvals.latestOfBooking(db, bookingId),
          readStaffRefundCeiling(db),
        ],
      );
      // Facts of one instant (one transaction: a move and its payment or refund, a cancellation and its refunds)
      // in the order they happen.
      const RANK: Record<Schemas['BookingEvent']['kind'], number> = {
        created: 0,
        paid: 1,
        moved: 2,
        code_programmed: 3,
        code_failed: 3,
        code_sent: 4,
        entered: 5,
        overstay: 6,
        canceled: 7,
        refunded: 8,
        expired: 9,
      };
      const facts: { at: Date; rank: number; event: Schemas['BookingEvent'] }[] = [];
      const fact = (
        at: Date,
        kind: Schemas['BookingEvent']['kind'],
        more: Partial<Omit<Schemas['BookingEvent'], 'at' | 'kind'>> = {},
      ) => {
        facts.push({
          at,
          // A move's own refund comes with the move, before any cancellation.
          rank: kind === 'refunded' && more.purpose?.startsWith('move_') ? RANK.moved + 0.5 : RANK[kind],
          event: {
            at: local(at),
            kind,
            amount_cents: null,
            currency: null,
            purpose: null,
            actor: null,
            reason: null,
            error: null,
            ...more,
          },
        });
      };
      fact(row.created_at, 'created');
      // Each payment and refund of the ledger: this booking's share of it, what for, who and why.
      for (const movement of [...payments].reverse()) {
        const share = movement.shares.find((part) => part.booking_id === bookingId);
        fact(movement.at, movement.kind === 'payment' ? 'paid' : 'refunded', {
          amount_cents: share?.amount_cents ?? 0,
          currency: 'EUR',
          purpose: movement.purpose,
          actor:
            movement.actor_type === 'operator' || movement.actor_type === 'cli'
              ? movement.actor_name
              : movement.actor_type === 'system'
                ? movement.actor_id
                : null,
          reason: movement.reason,
        });
      }
      for (const door of codeEvents) {
        if (door.state === 'set') fact(door.updated_at, 'code_programmed');
        if (door.state === 'failed') fact(door.updated_at, 'code_failed', { error: door.error });
      }
      if (row.access_code_sent_at) fact(row.access_code_sent_at, 'code_sent');
      if (row.checked_in_at) fact(row.checked_in_at, 'entered');
      if (row.overstay_at) fact(row.overstay_at, 'overstay');
      // Every move, the member's and the console's (whose operator and reason the audit log keeps).
      for (const move of moves) {
        const byOperator = consoleMoves.find((entry) => entry.at.getTime() === move.at.getTime());
        fact(move.at, 'moved', {
          actor: byOperator?.operator_email ?? null,
          reason: byOperator?.reason ?? null,
        });
      }
      if (row.canceled_at)
        fact(row.canceled_at, 'canceled', { actor: await canceledByName(row.canceled_by) });
      if (booking!.status === 'expired' && row.hold_expires_at) fact(row.hold_expires_at, 'expired');
      const history = facts
        .map((entry, index) => ({ ...entry, index }))
        .sort((a, b) => a.at.getTime() - b.at.getTime() || a.rank - b.rank || a.index - b.index)
        .map((entry) => entry.event);
      const at = now();
      const cancelable = row.status === 'confirmed' && row.start_time.getTime() > at.epochMilliseconds;
      const held = (await moneyOfBookings(db, [row])).get(row.id)!.heldCents;
      return {
        booking: booking!,
        refundable_eur: cancelable ? centsToEuros(policyRefundCents(row, held, at)) : 0,
        staff_refund_ceiling_eur: centsToEuros(ceilingCents),
        refund_approval: approval ? approvalView(approval, dateFromInstant(at)) : null,
        history,
        payments: payments.map(movementView),
        messages: messages.map((message) => ({
          id: message.id,
          kind: message.kind,
          channel: message.channel,
          to: message.recipient,
          subject: message.subject,
          status: message.status,
          created_at: local(message.created_at),
          sent_at: message.sent_at ? local(message.sent_at) : null,
        })),
      };
    },

    /**
     * An operator's cancellation: a confirmed (or held) booking that has not ended, refunded by the policy, in
     * full, not at all, or by an amount up to what was paid. The booking row is locked, so a member cancelling
     * at the same moment either finds it cancelled (and refunds nothing) or makes this one a 409. A staff
     * member's refund above the staff ceiling is a request for the owners instead (`approval`).
     */
    async cancelBooking(
      actor: Actor,
      bookingId: number,
      input: { refund: RefundChoice; reason: string },
      caller: { role: OperatorRole; branches: BranchScope },
    ): Promise<
      | { kind: 'canceled'; detail: Schemas['AdminBookingDetail'] }
      | { kind: 'approval'; approval: Schemas['RefundApproval'] }
    > {
      await requireBooking(bookingId, caller.branches);
      const { mode, amount_eur: amount } = input.refund;
      const outcome = await change('cancelBooking', (trx) =>
        requestCancellation(trx, deps, {
          actor,
          bookingId,
          refund:
            mode === 'amount'
              ? { mode, amountCents: amount === undefined ? null : eurosToCents(amount) }
              : { mode },
          reason: input.reason,
          ceilingApplies: caller.role !== 'owner',
        }),
      );
      return outcome.kind === 'approval'
        ? { kind: 'approval', approval: await requireApprovalView(outcome.approvalId) }
        : { kind: 'canceled', detail: await this.bookingDetail(bookingId, caller.branches) };
    },

    // --- Refunds above the staff ceiling (issue 32, item 2) --------------------------------------------------

    /** The ceiling, and the requests: every one for an owner, their own for a staff member. */
    async listRefundApprovals(caller: {
      operatorId: number;
      role: OperatorRole;
    }): Promise<Schemas['RefundApprovalList']> {
      const [ceilingCents, lists] = await Promise.all([
        readStaffRefundCeiling(db),
        approvals.listRefundApprovals(db, {
          requestedBy: caller.role === 'owner' ? undefined : caller.operatorId,
          limit: 50,
        }),
      ]);
      const at = dateFromInstant(now());
      return {
        staff_refund_ceiling_eur: centsToEuros(ceilingCents),
        pending: lists.pending.map((row) => approvalView(row, at)),
        decided: lists.decided.map((row) => approvalView(row, at)),
      };
    },

    /**
     * An owner approves: the booking cancelled and refunded as asked, or, when it was cancelled or ended meanwhile,
     * the request closed (kept) and 409 `refund_approval_closed`.
     */
    async approveRefund(actor: Actor, approvalId: number): Promise<Schemas['RefundApproval']> {
      const decision = await change('approveRefund', (trx) =>
        approveRefund(trx, deps, { actor, approvalId }),
      );
      if (decision.status === 'closed') throw new AppError('refund_approval_closed');
      return requireApprovalView(approvalId);
    },

    async refuseRefund(actor: Actor, approvalId: number, reason: string): Promise<Schemas['RefundApproval']> {
      await change('refuseRefund', (trx) => refuseRefund(trx, deps, { actor, approvalId, reason }));
      return requireApprovalView(approvalId);
    },

    async setStaffRefundCeiling(actor: Actor, euros: number): Promise<Schemas['StaffRefundCeiling']> {
      const cents = eurosToCents(euros);
      // Euros with cents: 10.005 is no ceiling anyone can refund to.
      const ceilingCents = Math.abs(cents / 100 - euros) > 1e-9 ? Number.NaN : cents;
      const stored = await change('setStaffRefundCeiling', (trx) =>
        setStaffRefundCeiling(trx, deps, { actor, ceilingCents }),
      );
      return { staff_refund_ceiling_eur: centsToEuros(stored) };
    },

    async resendCode(actor: Actor, bookingId: number, scope: BranchScope): Promise<void> {
      const row = await requireBooking(bookingId, scope);
      if (row.member_id === null) throw new AppError('code_not_available');
      const outcome = await deps.resend.resend(bookingId, row.member_id);
      if (outcome === 'not_found') throw new AppError('booking_not_found');
      if (outcome !== 'sent') throw new AppError('code_not_available');
      await recordAudit(
        db,
        actor,
        { action: 'booking.resend_code', entityType: 'booking', entityId: bookingId },
        dateFromInstant(now()),
      );
    },

    /** The move's use case, as an operator (same branch, same price, until the start); audited with the reason. */
    async moveBooking(
      actor: Actor,
      bookingId: number,
      input: { time_slot_id: number; reason: string },
      scope: BranchScope,
    ) {
      await requireBooking(bookingId, scope);
      await change('moveBooking', (trx) =>
        moveBookingAsOperator(trx, deps, {
          actor,
          bookingId,
          slotId: input.time_slot_id,
          reason: input.reason,
        }),
      );
      return this.bookingDetail(bookingId, scope);
    },

    // --- Closures -------------------------------------------------------------------------------------------

    async listClosures(branchId: number | undefined, scope: BranchScope): Promise<Schemas['Closure'][]> {
      let query = repository.closureColumns(db);
      const branchIds = branchFilter(scope, branchId);
      if (branchIds !== undefined) query = query.where('closure.branch_id', 'in', [...branchIds]);
      return (await query.orderBy('closure.starts_at', 'desc').execute()).map(closureView);
    },

    async previewClosure(input: {
      branch_id: number;
      starts_at: string;
      ends_at: string;
    }): Promise<Schemas['ClosurePreview']> {
      const period = closurePeriod(input);
      if (!(await bookingRepository.branchExists(db, input.branch_id)))
        throw new AppError('branch_not_found');
      const at = dateFromInstant(now());
      const rows = await liveBookings({
        branchId: input.branch_id,
        from: period.from,
        until: period.until,
        now: at,
      });
      const money = await moneyOfBookings(db, rows);
      return {
        slots: await bookingRepository.countSlotsInPeriod(db, input.branch_id, period.from, period.until),
        bookings: await views(rows),
        // A closure refunds in full what the gym holds of each confirmed booking.
        refund_total_eur: centsToEuros(
          rows.reduce(
            (sum, row) => sum + (row.status === 'confirmed' ? (money.get(row.id)?.heldCents ?? 0) : 0),
            0,
          ),
        ),
      };
    },

    /** Closes a branch for a period: its live bookings cancelled with a full refund, each member told. */
    async createClosure(
      actor: Actor,
      input: { branch_id: number; starts_at: string; ends_at: string; reason: string },
    ) {
      const closureId = await change('createClosure', (trx) =>
        closeBranch(trx, deps, {
          actor,
          branchId: input.branch_id,
          startsAt: input.starts_at,
          endsAt: input.ends_at,
          reason: input.reason,
        }),
      );
      return closureView(
        await repository.closureColumns(db).where('closure.id', '=', closureId).executeTakeFirstOrThrow(),
      );
    },

    async reopenClosure(actor: Actor, closureId: number, scope: BranchScope): Promise<Schemas['Closure']> {
      const closure = await db
        .selectFrom('branch_closures')
        .select('branch_id')
        .where('id', '=', closureId)
        .executeTakeFirst();
      if (closure) assertMayActOnBranch({ branches: scope }, closure.branch_id);
      await change('reopenClosure', (trx) => reopenClosure(trx, { clock }, { actor, closureId }));
      return closureView(
        await repository.closureColumns(db).where('closure.id', '=', closureId).executeTakeFirstOrThrow(),
      );
    },

    // --- Members and blocks ---------------------------------------------------------------------------------

    async searchMembers(query: OperationQuery<'searchMembers'>): Promise<Schemas['MemberPage']> {
      const page = paging(query);
      const { rows, total } = await repository.searchMembers(db, {
        q: query.q,
        offset: page.offset,
        limit: page.limit,
      });
      return page.answer(rows.map(memberView), total);
    },

    memberDetail,

    async blockMember(
      actor: Actor,
      memberId: string,
      input: { reason: string; cancel_future_bookings: boolean; refund_mode?: 'policy' | 'full' | 'none' },
    ): Promise<Schemas['MemberDetail']> {
      await change('blockMember', (trx) =>
        blockMember(trx, blockDependencies, {
          actor,
          memberId,
          reason: input.reason,
          futureBookings: input.cancel_future_bookings ? { refundMode: input.refund_mode ?? 'policy' } : null,
        }),
      );
      // Blocking reaches every branch: only an operator with every branch gets here (the handler checks).
      return memberDetail(memberId, ALL_BRANCHES);
    },

    async unblockMember(actor: Actor, memberId: string, reason: string): Promise<Schemas['MemberDetail']> {
      await change('unblockMember', (trx) => unblockMember(trx, { clock }, { actor, memberId, reason }));
      // Blocking reaches every branch: only an operator with every branch gets here (the handler checks).
      return memberDetail(memberId, ALL_BRANCHES);
    },

    async listBlockedContacts(): Promise<Schemas['BlockedContact'][]> {
      const rows = await db
        .selectFrom('blocked_contacts')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(blockView);
    },

    async previewBlock(target: { kind: 'email' | 'phone'; value: string }): Promise<Schemas['BlockPreview']> {
      const contact = normaliseContact(target.kind, target.value);
      const members = await repository.membersWithContact(db, contact.kind, contact.value);
      const at = dateFromInstant(now());
      const rows = await liveBookings({
        userIds: members.map((member) => member.id),
        from: at,
        until: null,
        now: at,
      });
      const future = rows.filter((row) => row.start_time > at);
      const nowInstant = now();
      const money = await moneyOfBookings(db, future);
      return {
        members: members.map((member) => ({
          id: member.id,
          email: member.email,
          phone_number: member.phone_number,
          first_name: member.first_name,
          last_name: member.last_name,
          locale: member.locale,
          deleted: member.deleted_at !== null,
          blocked: member.blocked,
        })),
        future_bookings: await views(future),
        refund_total_eur: centsToEuros(
          future
            .filter((row) => row.status === 'confirmed')
            .reduce(
              (sum, row) => sum + policyRefundCents(row, money.get(row.id)?.heldCents ?? 0, nowInstant),
              0,
            ),
        ),
      };
    },

    /** The use case of `block add`; optionally cancels the future bookings of the accounts using the contact. */
    async blockContact(
      actor: Actor,
      input: {
        kind: 'email' | 'phone';
        value: string;
        reason: string;
        cancel_future_bookings: boolean;
        refund_mode?: 'policy' | 'full' | 'none';
      },
    ): Promise<Schemas['BlockedContact']> {
      const { contact } = await change('blockContact', (trx) =>
        blockContact(trx, blockDependencies, {
          actor,
          kind: input.kind,
          value: input.value,
          reason: input.reason,
          futureBookings: input.cancel_future_bookings ? { refundMode: input.refund_mode ?? 'policy' } : null,
        }),
      );
      return blockView((await authRepository.findBlockedContact(db, contact))!);
    },

    async unblockContact(actor: Actor, blockedId: number): Promise<void> {
      await change('unblockContact', (trx) =>
        unblockContact(trx, { clock }, { actor, blocked: { id: blockedId } }),
      );
    },

    /** Everything held about a member, for a GDPR access request. */
    async exportMember(actor: Actor, memberId: string): Promise<Schemas['MemberExport']> {
      const account = await db.selectFrom('users').selectAll().where('id', '=', memberId).executeTakeFirst();
      if (!account) throw new AppError('member_not_found');
      const { password_hash: _hash, token_version: _version, ...kept } = account;
      const [bookings, money, messages, blocks, notes] = await Promise.all([
        db.selectFrom('bookings').selectAll().where('user_id', '=', memberId).orderBy('id').execute(),
        // The member's money is the ledger's rows, oldest first.
        repository.moneyMovements(db, { memberId }).then((rows) => rows.reverse()),
        db
          .selectFrom('outbox')
          .select(['id', 'channel', 'recipient', 'kind', 'subject', 'status', 'created_at', 'sent_at'])
          .where('recipient', 'in', [account.email ?? '', account.phone_number ?? ''])
          .orderBy('id')
          .execute(),
        authRepository.blocksOf(db, { email: account.email, phone: account.phone_number }),
        db
          .selectFrom('member_notes')
          .select(['id', 'body', 'created_at', 'created_by_email'])
          .where('user_id', '=', memberId)
          .orderBy('id')
          .execute(),
      ]);
      const at = dateFromInstant(now());
      await recordAudit(db, actor, { action: 'member.export', entityType: 'member', entityId: memberId }, at);
      const plain = <T>(value: T) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
      return {
        exported_at: at.toISOString(),
        account: plain(kept),
        // Door codes are not personal data of the member's making and would open a door: left out.
        bookings: bookings.map(({ refund_ratios: _ratios, ...booking }) => plain(booking)),
        payments: money.filter((row) => row.kind === 'payment').map(plain),
        refunds: money.filter((row) => row.kind === 'refund').map(plain),
        messages: messages.map(plain),
        blocks: blocks.map(plain),
        // Operators' notes are personal data about the member: an access request shows them too.
        notes: notes.map((note) => ({
          body: note.body,
          created_at: note.created_at.toISOString(),
          created_by: note.created_by_email,
        })),
      };
    },

    /** GDPR erasure through the account-deletion path (upcoming bookings cancelled and refunded by the policy). */
    async eraseMember(
      actor: Actor,
      memberId: string,
      input: { reason: string; confirm_email: string },
      locale: 'pt' | 'en' | 'fr' | 'de' | 'sk',
    ) {
      const user = await authRepository.findLiveUserById(db, memberId);
      if (!user) throw new AppError('member_not_found');
      if ((user.email ?? '').toLowerCase() !== input.confirm_email.trim().toLowerCase())
        throw new AppError('confirmation_mismatch');
      await deps.auth.deleteAccount(
        user,
        { ip: 'console', locale },
        async (trx, at) => {
          await recordAudit(
            trx,
            actor,
            { action: 'member.erase', entityType: 'member', entityId: memberId, reason: input.reason },
            at,
          );
        },
        { actor, reason: input.reason },
      );
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;

/**
 * The bookings list counts the bookings a search finds up to this many, and past it says only "more than" this
 * (docs/decisions.md, issue 33): a true number, read from at most this many rows plus one.
 */
export const BOOKINGS_COUNTED_UP_TO = 1000;

/** A listing's page: `page` counts from 1; 50 rows unless `page_size` says. */
type PageQuery = { page?: number; page_size?: number };

/** The page a listing asks for, as rows to skip and take. */
export function paging(query: PageQuery) {
  const page = query.page ?? 1;
  const pageSize = query.page_size ?? 50;
  return {
    offset: (page - 1) * pageSize,
    limit: pageSize,
    /** The listing's answer: the page's items, how many there are in all, and which page this is. */
    answer: <Item>(items: Item[], total: number) => ({ items, total, page, page_size: pageSize }),
  };
}

/** `from` and `to` are real dates, `from` not after `to`, and at most `maxDays` apart when given. */
export function checkPeriod(from: string | undefined, to: string | undefined, maxDays?: number): void {
  const parse = (value: string | undefined) => {
    if (value === undefined) return undefined;
    try {
      return Temporal.PlainDate.from(value, { overflow: 'reject' });
    } catch {
      throw new AppError('invalid_date');
    }
  };
  const start = parse(from);
  const end = parse(to);
  if (start && end) {
    if (Temporal.PlainDate.compare(start, end) > 0) throw new AppError('invalid_period');
    if (maxDays !== undefined && start.until(end).days > maxDays) {
      throw new AppError('invalid_period', { days: maxDays }, {}, { detail: PERIOD_TOO_LONG });
    }
  }
}

function closureView(row: repository.ClosureRow): Schemas['Closure'] {
  const local = (date: Date) => formatLocalTime(instantFromDate(date), row.time_zone);
  return {
    id: row.id,
    branch: { id: row.branch_id, name: row.branch_name, time_zone: row.time_zone },
    starts_at: local(row.starts_at),
    ends_at: local(row.ends_at),
    reason: row.reason,
    created_at: local(row.created_at),
    created_by: row.created_by_email,
    reopened_at: row.reopened_at ? local(row.reopened_at) : null,
    canceled_booking_ids: row.canceled_booking_ids,
  };
}

function memberView(row: repository.MemberRow): Schemas['Member'] {
  return {
    id: row.id,
    email: row.email,
    phone_number: row.phone_number,
    first_name: row.first_name,
    last_name: row.last_name,
    locale: row.locale,
    email_verified: row.email_verified_at !== null,
    phone_verified: row.phone_verified_at !== null,
    created_at: row.created_at.toISOString(),
    deleted: row.deleted_at !== null,
    blocked: row.blocked,
    bookings_count: Number(row.bookings_count),
  };
}

function blockView(row: {
  id: number;
  kind: 'email' | 'phone';
  value: string;
  reason: string | null;
  created_at: Date;
}): Schemas['BlockedContact'] {
  return {
    id: row.id,
    kind: row.kind,
    value: row.value,
    reason: row.reason,
    created_at: row.created_at.toISOString(),
  };
}
