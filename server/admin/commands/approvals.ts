import { z } from 'zod';
import { formatLocalTime } from '../../catalog/index.ts';
import {
  listRefundApprovals,
  readStaffRefundCeiling,
  refuseRefund,
  setStaffRefundCeiling,
} from '../../console/index.ts';
import { instantFromDate } from '../../kernel/clock.ts';
import type { ErrorCode } from '../../kernel/errors.ts';
import { inWords, runChange } from '../change.ts';
import {
  actorOf,
  type AdminContext,
  defineCommand,
  euros,
  idArgument,
  jsonOption,
  money,
  table,
  text,
} from '../command.ts';

// Refunds above the staff ceiling (issue 32, item 2) from the back office: the requests staff made in the console,
// an owner's decision on one, and the ceiling itself, through the same use cases as the console's Approvals page.
// The CLI decides as an owner does (its runs are audited as `cli:<OS user>`).

/** The refusals an operator meets here, in their words. */
const WORDS: Partial<Record<ErrorCode, string>> = {
  refund_approval_not_found: 'no request has this id',
  refund_approval_decided: 'this request was decided already; nothing changed',
  refund_approval_closed:
    'the booking was cancelled or ended meanwhile: the request is now closed, nothing was refunded by it',
  refund_exceeds_paid: 'the gym now holds less than the refund asked for; the request still waits',
};

/** Approving cancels through the server's services (payments, doors, messages): `npm run admin` has them. */
function consoleOf(context: AdminContext) {
  if (!context.modules)
    throw new Error('approvals approve needs the server’s services (run it through npm run admin)');
  return context.modules.console;
}

export const approvalCommands = {
  'approvals list': defineCommand({
    usage: 'approvals list [--json]',
    summary:
      'Lists the staff refunds above the ceiling waiting for an owner, then the 50 latest decided, with the ceiling.',
    schema: z.object(jsonOption),
    async run({ json }, { db, io }) {
      const [ceilingCents, lists] = await Promise.all([
        readStaffRefundCeiling(db),
        listRefundApprovals(db, { limit: 50 }),
      ]);
      if (!json) io.out(`staff refund ceiling: ${money(ceilingCents)} EUR`);
      const when = (at: Date | null, zone: string) =>
        at ? formatLocalTime(instantFromDate(at), zone) : null;
      table(
        io,
        [...lists.pending, ...lists.decided].map((row) => ({
          id: row.id,
          status: row.status,
          booking: row.booking_id,
          branch: row.branch_name,
          start: when(row.start_time, row.time_zone),
          member: row.member_email,
          refund: row.refund_mode,
          refund_eur: money(row.refund_cents),
          requested_by: row.requested_by_email,
          requested_at: when(row.requested_at, row.time_zone),
          reason: row.reason,
          decided_by: row.decided_by_email,
          decided_at: when(row.decided_at, row.time_zone),
          refusal: row.decision_reason,
          refunded_eur: row.refunded_cents === null ? null : money(row.refunded_cents),
        })),
        json,
      );
    },
  }),

  'approvals approve': defineCommand({
    usage: 'approvals approve <id>',
    summary:
      'Approves a staff refund above the ceiling: the booking is cancelled and refunded as asked, the member told. Audited.',
    schema: z.object({ args: z.tuple([idArgument('the request id')]) }),
    async run({ args: [id] }, context) {
      const approval = await inWords(() => consoleOf(context).approveRefund(actorOf(context), id), WORDS);
      context.io.out(
        `approved request ${id}: booking ${approval.booking.id} cancelled, ${(approval.refunded_eur ?? 0).toFixed(2)} EUR refunded`,
      );
    },
  }),

  'approvals refuse': defineCommand({
    usage: 'approvals refuse <id> --reason <text>',
    summary:
      'Refuses a staff refund above the ceiling: nothing changes for the booking; the staff member reads the reason. Audited.',
    schema: z.object({ args: z.tuple([idArgument('the request id')]), reason: text() }),
    async run({ args: [id], reason }, context) {
      await runChange(
        context,
        (trx, actor) => refuseRefund(trx, context, { actor, approvalId: id, reason }),
        WORDS,
      );
      context.io.out(`refused request ${id}`);
    },
  }),

  'approvals ceiling': defineCommand({
    usage: 'approvals ceiling [<euros>]',
    summary:
      'Shows the staff refund ceiling, or sets it (a staff refund above it waits for an owner; owners have none). Audited.',
    schema: z.object({ args: z.tuple([euros().optional()]) }),
    async run({ args: [cents] }, context) {
      if (cents === undefined) {
        context.io.out(`staff refund ceiling: ${money(await readStaffRefundCeiling(context.db))} EUR`);
        return;
      }
      const stored = await runChange(context, (trx, actor) =>
        setStaffRefundCeiling(trx, context, { actor, ceilingCents: cents }),
      );
      context.io.out(`staff refund ceiling set to ${money(stored)} EUR`);
    },
  }),
};
