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
import { currentOperator, actorOf, requireOwner, localisedMessage } from '../operators/index.ts';
import type { CatalogueService } from './catalogue.ts';
import type { ReportService } from './reports.ts';
import type { ConsoleService } from './service.ts';
import type { InvoicingService } from '../invoicing/index.ts';

// The console's operations: thin, each the caller's operator (and, for owners-only operations, the role check)
// then one service call. Every answer carries personal or business data: never cached.

export function consoleHandlers(services: {
  console: ConsoleService;
  catalogue: CatalogueService;
  reports: ReportService;
  invoicing: InvoicingService;
}) {
  const { console: service, catalogue, reports, invoicing } = services;
  /** The caller as an audit actor; owners-only operations check the role first. */
  const actor = (request: Parameters<typeof currentOperator>[0], ownersOnly = false) => {
    const { operator } = currentOperator(request);
    if (ownersOnly) requireOwner(operator);
    return actorOf(operator);
  };
  /** The usual operation: not cached, the caller checked (owners only when asked), then one service call. */
  const answer = <Id extends OperationId>(
    ownersOnly: boolean,
    call: (request: OperationRequest<Id>, by: Actor) => ReturnType<OperationHandler<Id>>,
  ): OperationHandler<Id> => {
    // `call` answers what the operation answers; the cast only spares TypeScript awaiting a generic result.
    const handler = async (request: OperationRequest<Id>, reply: FastifyReply): Promise<unknown> => {
      noStore(reply);
      return call(request, actor(request, ownersOnly));
    };
    return handler as OperationHandler<Id>;
  };
  const created = (reply: FastifyReply, body: unknown) =>
    reply.status(201).header('cache-control', 'no-store').send(body);
  /** A report as a CSV download named after it and its period. */
  const csv = (reply: FastifyReply, name: string, period: { from: string; to: string }, body: string) =>
    reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${name}-${period.from}-${period.to}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(body);
  return defineHandlers({
    getAdminToday: answer(false, (request) =>
      reports.today(request.query, resolveLocale(request.headers.locale)),
    ),
    searchAdminBookings: answer(false, (request) => service.searchBookings(request.query)),
    getAdminBooking: answer(false, (request) => service.bookingDetail(request.params.booking_id)),
    adminCancelBooking: answer(false, (request, by) =>
      service.cancelBooking(by, request.params.booking_id, request.body),
    ),
    adminResendAccessCode: async (request, reply) => {
      await service.resendCode(actor(request), request.params.booking_id);
      return reply.status(202).send(localisedMessage('codeSent', resolveLocale(request.headers.locale)));
    },
    adminMoveBooking: answer(false, (request, by) =>
      service.moveBooking(by, request.params.booking_id, request.body),
    ),
    listClosures: answer(false, (request) => service.listClosures(request.query.branch_id)),
    previewClosure: answer(false, (request) => service.previewClosure(request.body)),
    createClosure: async (request, reply) =>
      created(reply, await service.createClosure(actor(request), request.body)),
    reopenClosure: answer(false, (request, by) => service.reopenClosure(by, request.params.closure_id)),
    listAdminBranches: answer(false, () => catalogue.listBranches()),
    createAdminBranch: async (request, reply) =>
      created(reply, await catalogue.createBranch(actor(request, true), request.body)),
    getAdminBranch: answer(false, (request) => catalogue.getBranch(request.params.branch_id)),
    previewBranchUpdate: answer(false, (request) =>
      catalogue.previewBranchUpdate(request.params.branch_id, request.body),
    ),
    // Any operator changes a branch; its VAT rate (a money matter) only an owner.
    updateAdminBranch: async (request, reply) => {
      noStore(reply);
      const by = actor(request, request.body.vat_rate !== undefined);
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
    listBlockedContacts: answer(false, () => service.listBlockedContacts()),
    previewBlockContact: answer(false, (request) => service.previewBlock(request.body)),
    blockContact: async (request, reply) =>
      created(reply, await service.blockContact(actor(request), request.body)),
    unblockContact: async (request, reply) => {
      await service.unblockContact(actor(request), request.params.blocked_id);
      return reply.status(204).send();
    },
    searchMembers: answer(false, (request) => service.searchMembers(request.query)),
    getMember: answer(false, (request) => service.memberDetail(request.params.member_id)),
    blockMember: answer(false, (request, by) =>
      service.blockMember(by, request.params.member_id, request.body),
    ),
    unblockMember: answer(false, (request, by) =>
      service.unblockMember(by, request.params.member_id, request.body.reason),
    ),
    exportMember: async (request, reply) => {
      noStore(reply);
      reply.header('content-disposition', `attachment; filename="member-${request.params.member_id}.json"`);
      return service.exportMember(actor(request), request.params.member_id);
    },
    eraseMember: async (request, reply) => {
      noStore(reply);
      const locale = resolveLocale(request.headers.locale);
      await service.eraseMember(actor(request), request.params.member_id, request.body, locale);
      return localisedMessage('memberErased', locale);
    },
    listAdminPayments: answer(true, (request) => reports.payments(request.query)),
    getMoneyReport: answer(true, (request) => reports.money(request.query)),
    getMoneyReportCsv: async (request, reply) => {
      actor(request, true);
      return csv(reply, 'money', request.query, await reports.moneyCsv(request.query));
    },
    getOccupancyReport: answer(true, (request) => reports.occupancy(request.query)),
    getOccupancyReportCsv: async (request, reply) => {
      actor(request, true);
      return csv(reply, 'occupancy', request.query, await reports.occupancyCsv(request.query));
    },
    getLedgerCsv: async (request, reply) => {
      actor(request, true);
      return csv(reply, 'ledger', request.query, await reports.ledgerCsv(request.query));
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
    listAuditLog: answer(false, (request) => reports.audit(request.query)),
  });
}
