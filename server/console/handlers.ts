import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Actor } from '../kernel/audit.ts';
import {
  defineHandlers,
  type OperationHandler,
  type OperationId,
  type OperationRequest,
} from '../http/operations.ts';
import { resolveLocale } from '../kernel/i18n.ts';
import { noStore } from '../http/caching.ts';
import {
  actorOf,
  assertAllBranches,
  assertMayActOnBranch,
  currentOperator,
  localisedMessage,
  requireOwner,
  type OperatorCaller,
} from '../operators/index.ts';
import type { CatalogueService } from './catalogue.ts';
import type { ReportService } from './reports.ts';
import type { ConsoleService } from './service.ts';
import type { InvoicingService } from '../invoicing/index.ts';
import type { DoorControl } from './door-control.ts';

// The console's operations: thin, each the caller's operator (and, for owners-only operations, the role check)
// then one service call. Every answer carries personal or business data: never cached.

export function consoleHandlers(services: {
  console: ConsoleService;
  catalogue: CatalogueService;
  reports: ReportService;
  invoicing: InvoicingService;
  doorControl: DoorControl;
}) {
  const { console: service, catalogue, reports, invoicing, doorControl } = services;
  /** The caller, checked for the branch of a branch-scoped operation (then owners only when asked). */
  const onBranch = (request: Parameters<typeof currentOperator>[0], branchId: number, ownersOnly = false) => {
    const caller = currentOperator(request);
    if (ownersOnly) requireOwner(caller.operator);
    assertMayActOnBranch(caller, branchId);
    return actorOf(caller.operator);
  };
  /** The caller as an audit actor; owners-only operations check the role first. */
  const actor = (request: Parameters<typeof currentOperator>[0], ownersOnly = false) => {
    const { operator } = currentOperator(request);
    if (ownersOnly) requireOwner(operator);
    return actorOf(operator);
  };
  /**
   * The usual operation: not cached, the caller checked (owners only when asked), then one service call, given
   * the caller too: the branches they see and act on (`caller.branches`) narrow lists and refuse other branches.
   */
  const answer = <Id extends OperationId>(
    ownersOnly: boolean,
    call: (
      request: OperationRequest<Id>,
      by: Actor,
      caller: OperatorCaller,
    ) => ReturnType<OperationHandler<Id>>,
  ): OperationHandler<Id> => {
    // `call` answers what the operation answers; the cast only spares TypeScript awaiting a generic result.
    const handler = async (request: OperationRequest<Id>, reply: FastifyReply): Promise<unknown> => {
      noStore(reply);
      return call(request, actor(request, ownersOnly), currentOperator(request));
    };
    return handler as OperationHandler<Id>;
  };
  const created = (reply: FastifyReply, body: unknown) =>
    reply.status(201).header('cache-control', 'no-store').send(body);
  /** A report as a CSV download named after it and its period. */
  const csv = (
    reply: FastifyReply,
    name: string,
    period: { from: string; to: string },
    body: string | Readable,
  ) =>
    reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${name}-${period.from}-${period.to}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(body);
  return defineHandlers({
    getAdminToday: answer(false, (request, _by, caller) =>
      reports.today(request.query, resolveLocale(request.headers.locale), caller.branches),
    ),
    searchAdminBookings: answer(false, (request, _by, caller) =>
      service.searchBookings(request.query, caller.branches),
    ),
    getAdminBooking: answer(false, (request, _by, caller) =>
      service.bookingDetail(request.params.booking_id, caller.branches),
    ),
    listAdminMoveOptions: answer(false, (request, _by, caller) =>
      service.moveOptions(request.params.booking_id, request.query.date, caller.branches),
    ),
    // A staff member's refund above the ceiling cancels nothing: 202 with the request the owners decide.
    adminCancelBooking: async (request, reply) => {
      noStore(reply);
      const caller = currentOperator(request);
      const outcome = await service.cancelBooking(actor(request), request.params.booking_id, request.body, {
        role: caller.operator.role,
        branches: caller.branches,
      });
      return outcome.kind === 'approval' ? reply.status(202).send(outcome.approval) : outcome.detail;
    },
    adminResendAccessCode: async (request, reply) => {
      await service.resendCode(actor(request), request.params.booking_id, currentOperator(request).branches);
      return reply.status(202).send(localisedMessage('codeSent', resolveLocale(request.headers.locale)));
    },
    adminMoveBooking: answer(false, (request, by, caller) =>
      service.moveBooking(by, request.params.booking_id, request.body, caller.branches),
    ),
    listClosures: answer(false, (request, _by, caller) =>
      service.listClosures(request.query.branch_id, caller.branches),
    ),
    previewClosure: answer(false, (request, _by, caller) => {
      assertMayActOnBranch(caller, request.body.branch_id);
      return service.previewClosure(request.body);
    }),
    createClosure: async (request, reply) => {
      const by = actor(request);
      assertMayActOnBranch(currentOperator(request), request.body.branch_id);
      return created(reply, await service.createClosure(by, request.body));
    },
    reopenClosure: answer(false, (request, by, caller) =>
      service.reopenClosure(by, request.params.closure_id, caller.branches),
    ),
    getBranchDoors: async (request, reply) => {
      noStore(reply);
      onBranch(request, request.params.branch_id);
      const locale = resolveLocale(request.headers.locale);
      return doorControl.page(request.params.branch_id, request.query, locale);
    },
    unlockBranchDoor: async (request, reply) => {
      noStore(reply);
      const { branch_id: branchId, device_id: deviceId } = request.params;
      return doorControl.unlock(onBranch(request, branchId), branchId, deviceId, request.body);
    },
    setBranchOnCall: async (request, reply) => {
      noStore(reply);
      const branchId = request.params.branch_id;
      return doorControl.setOnCall(onBranch(request, branchId, true), branchId, request.body);
    },
    // A broadcast is about one branch: staff limited to some branches send and read those of theirs only.
    listBroadcasts: answer(false, (_request, _by, caller) => service.listBroadcasts(caller.branches)),
    previewBroadcast: answer(false, (request, by, caller) => {
      assertMayActOnBranch(caller, request.body.branch_id);
      return service.previewBroadcast(by, request.body);
    }),
    createBroadcast: async (request, reply) => {
      const by = actor(request);
      assertMayActOnBranch(currentOperator(request), request.body.branch_id);
      return created(reply, await service.createBroadcast(by, request.body));
    },
    getBroadcast: answer(false, async (request, by, caller) => {
      const broadcast = await service.getBroadcast(by, request.params.broadcast_id);
      assertMayActOnBranch(caller, broadcast.branch.id);
      return broadcast;
    }),
    listAdminBranches: answer(false, (_request, _by, caller) => catalogue.listBranches(caller.branches)),
    createAdminBranch: async (request, reply) =>
      created(reply, await catalogue.createBranch(actor(request, true), request.body)),
    getAdminBranch: answer(false, (request, _by, caller) => {
      assertMayActOnBranch(caller, request.params.branch_id);
      return catalogue.getBranch(request.params.branch_id);
    }),
    previewBranchUpdate: answer(false, (request, _by, caller) => {
      assertMayActOnBranch(caller, request.params.branch_id);
      return catalogue.previewBranchUpdate(request.params.branch_id, request.body);
    }),
    // Any operator changes a branch of theirs; its VAT rate (a money matter) only an owner.
    updateAdminBranch: async (request, reply) => {
      noStore(reply);
      const by = actor(request, request.body.vat_rate !== undefined);
      assertMayActOnBranch(currentOperator(request), request.params.branch_id);
      return catalogue.updateBranch(by, request.params.branch_id, request.body);
    },
    getBranchPrices: answer(true, (request) => catalogue.getPrices(request.params.branch_id)),
    setBranchPrices: answer(true, (request, by) =>
      catalogue.setPrices(by, request.params.branch_id, request.body),
    ),
    setBranchDatePrice: answer(true, (request, by) =>
      catalogue.setDatePrice(by, request.params.branch_id, request.params.date, request.body),
    ),
    removeBranchDatePrice: answer(true, (request, by) =>
      catalogue.removeDatePrice(by, request.params.branch_id, request.params.date),
    ),
    listAdminCoupons: answer(true, () => catalogue.listCoupons()),
    createAdminCoupon: async (request, reply) =>
      created(reply, await catalogue.createCoupon(actor(request, true), request.body)),
    updateAdminCoupon: answer(true, (request, by) =>
      catalogue.updateCoupon(by, request.params.coupon_code, request.body),
    ),
    listAdminCreditPacks: answer(true, () => catalogue.listCreditPacks()),
    createAdminCreditPack: async (request, reply) =>
      created(reply, await catalogue.createCreditPack(actor(request, true), request.body)),
    updateAdminCreditPack: answer(true, (request, by) =>
      catalogue.updateCreditPack(by, request.params.pack_id, request.body),
    ),
    listAdminGiftVouchers: answer(true, (request) => catalogue.listGiftVouchers(request.query.status)),
    getAdminRefundPolicy: answer(true, () => catalogue.getRefundPolicy()),
    setAdminRefundPolicy: answer(true, (request, by) => catalogue.setRefundPolicy(by, request.body)),
    // Blocks and erasure reach a member's bookings at every branch: an operator limited to some branches is
    // refused them (`branch_forbidden`) rather than cancelling bookings at branches they do not see.
    // Refunds above the staff ceiling: staff read their own requests; owners read all and decide.
    listRefundApprovals: answer(false, (_request, _by, caller) =>
      service.listRefundApprovals({ operatorId: caller.operator.id, role: caller.operator.role }),
    ),
    approveRefund: answer(true, (request, by) => service.approveRefund(by, request.params.approval_id)),
    refuseRefund: answer(true, (request, by) =>
      service.refuseRefund(by, request.params.approval_id, request.body.reason),
    ),
    setStaffRefundCeiling: answer(true, (request, by) =>
      service.setStaffRefundCeiling(by, request.body.staff_refund_ceiling_eur),
    ),
    listBlockedContacts: answer(false, () => service.listBlockedContacts()),
    previewBlockContact: answer(false, (request, _by, caller) => {
      assertAllBranches(caller);
      return service.previewBlock(request.body);
    }),
    blockContact: async (request, reply) => {
      const by = actor(request);
      assertAllBranches(currentOperator(request));
      return created(reply, await service.blockContact(by, request.body));
    },
    unblockContact: async (request, reply) => {
      const by = actor(request);
      assertAllBranches(currentOperator(request));
      await service.unblockContact(by, request.params.blocked_id);
      return reply.status(204).send();
    },
    searchMembers: answer(false, (request) => service.searchMembers(request.query)),
    getMember: answer(false, (request, _by, caller) =>
      service.memberDetail(request.params.member_id, caller.branches),
    ),
    listMemberNotes: answer(false, (request) => service.listMemberNotes(request.params.member_id)),
    addMemberNote: async (request, reply) =>
      created(
        reply,
        await service.addMemberNote(actor(request), request.params.member_id, request.body.body),
      ),
    blockMember: answer(false, (request, by, caller) => {
      assertAllBranches(caller);
      return service.blockMember(by, request.params.member_id, request.body);
    }),
    unblockMember: answer(false, (request, by, caller) => {
      assertAllBranches(caller);
      return service.unblockMember(by, request.params.member_id, request.body.reason);
    }),
    // A member's personal data leaves the business only at an owner's hand.
    exportMember: async (request, reply) => {
      noStore(reply);
      const by = actor(request, true);
      reply.header('content-disposition', `attachment; filename="member-${request.params.member_id}.json"`);
      return service.exportMember(by, request.params.member_id);
    },
    eraseMember: async (request, reply) => {
      noStore(reply);
      const by = actor(request);
      assertAllBranches(currentOperator(request));
      const locale = resolveLocale(request.headers.locale);
      await service.eraseMember(by, request.params.member_id, request.body, locale);
      return localisedMessage('memberErased', locale);
    },
    listAdminPayments: answer(true, (request) => reports.payments(request.query)),
    getMoneyReport: answer(true, (request) => reports.money(request.query)),
    getMoneyReportCsv: async (request, reply) => {
      actor(request, true);
      return csv(reply, 'money', request.query, await reports.moneyCsv(request.query));
    },
    getOccupancyReport: answer(true, (request) => reports.occupancy(request.query)),
    getOccupancyHeatmap: answer(true, (request) => reports.occupancyHeatmap(request.query)),
    getOccupancyReportCsv: async (request, reply) => {
      actor(request, true);
      return csv(reply, 'occupancy', request.query, await reports.occupancyCsv(request.query));
    },
    getLedgerCsv: async (request, reply) => {
      actor(request, true);
      return csv(reply, 'ledger', request.query, Readable.from(await reports.ledgerCsv(request.query)));
    },
    getStripeReconciliationCsv: async (request, reply) => {
      actor(request, true);
      return csv(
        reply,
        'stripe-reconciliation',
        request.query,
        await reports.stripeReconciliationCsv(request.query),
      );
    },
    listAdminDocuments: answer(true, (request) => reports.documents(request.query)),
    adminResendDocument: async (request, reply) => {
      await invoicing.resend(actor(request, true), request.params.document_id);
      return reply
        .status(202)
        .header('cache-control', 'no-store')
        .send(localisedMessage('documentSent', resolveLocale(request.headers.locale)));
    },
    // The log names entities, not branches: a limited staff member reads their own entries only.
    listAuditLog: answer(false, (request, by, caller) =>
      reports.audit(caller.branches.all ? request.query : { ...request.query, operator_id: by.operatorId! }),
    ),
  });
}
