import { defineHandlers } from '../http/operations.ts';
import { resolveLocale } from '../i18n.ts';
import { currentOperator, noStore } from '../operators/handlers.ts';
import { actorOf, requireOwner } from '../operators/service.ts';
import type { CatalogueService } from './catalogue.ts';
import { localisedMessage } from './messages.ts';
import type { ReportService } from './reports.ts';
import type { ConsoleService } from './service.ts';

// The console's operations: thin, each the caller's operator (and, for owners-only operations, the role check)
// then one service call. Every answer carries personal or business data: never cached.

export function consoleHandlers(services: {
  console: ConsoleService;
  catalogue: CatalogueService;
  reports: ReportService;
}) {
  const { console: service, catalogue, reports } = services;
  /** The caller as an audit actor; owners-only operations check the role first. */
  const actor = (request: Parameters<typeof currentOperator>[0], ownersOnly = false) => {
    const { operator } = currentOperator(request);
    if (ownersOnly) requireOwner(operator);
    return actorOf(operator);
  };
  return defineHandlers({
    getAdminToday: async (request, reply) => {
      noStore(reply);
      actor(request);
      return reports.today(request.query);
    },
    searchAdminBookings: async (request, reply) => {
      noStore(reply);
      actor(request);
      return service.searchBookings(request.query);
    },
    getAdminBooking: async (request, reply) => {
      noStore(reply);
      actor(request);
      return service.bookingDetail(request.params.booking_id);
    },
    adminCancelBooking: async (request, reply) => {
      noStore(reply);
      return service.cancelBooking(actor(request), request.params.booking_id, request.body);
    },
    adminResendAccessCode: async (request, reply) => {
      await service.resendCode(actor(request), request.params.booking_id);
      return reply.status(202).send(localisedMessage('codeSent', resolveLocale(request.headers.locale)));
    },
    adminMoveBooking: async (request, reply) => {
      noStore(reply);
      return service.moveBooking(actor(request), request.params.booking_id, request.body);
    },
    listClosures: async (request, reply) => {
      noStore(reply);
      actor(request);
      return service.listClosures(request.query.branch_id);
    },
    previewClosure: async (request, reply) => {
      noStore(reply);
      actor(request);
      return service.previewClosure(request.body);
    },
    createClosure: async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await service.createClosure(actor(request), request.body)),
    reopenClosure: async (request, reply) => {
      noStore(reply);
      return service.reopenClosure(actor(request), request.params.closure_id);
    },
    listAdminBranches: async (request, reply) => {
      noStore(reply);
      actor(request);
      return catalogue.listBranches();
    },
    createAdminBranch: async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await catalogue.createBranch(actor(request, true), request.body)),
    getAdminBranch: async (request, reply) => {
      noStore(reply);
      actor(request);
      return catalogue.getBranch(request.params.branch_id);
    },
    previewBranchUpdate: async (request, reply) => {
      noStore(reply);
      actor(request);
      return catalogue.previewBranchUpdate(request.params.branch_id, request.body);
    },
    updateAdminBranch: async (request, reply) => {
      noStore(reply);
      return catalogue.updateBranch(actor(request), request.params.branch_id, request.body);
    },
    getBranchPrices: async (request, reply) => {
      noStore(reply);
      actor(request, true);
      return catalogue.getPrices(request.params.branch_id);
    },
    setBranchPrices: async (request, reply) => {
      noStore(reply);
      return catalogue.setPrices(actor(request, true), request.params.branch_id, request.body);
    },
    listAdminCoupons: async (request, reply) => {
      noStore(reply);
      actor(request, true);
      return catalogue.listCoupons();
    },
    createAdminCoupon: async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await catalogue.createCoupon(actor(request, true), request.body)),
    updateAdminCoupon: async (request, reply) => {
      noStore(reply);
      return catalogue.updateCoupon(actor(request, true), request.params.coupon_code, request.body);
    },
    getAdminRefundPolicy: async (request, reply) => {
      noStore(reply);
      actor(request, true);
      return catalogue.getRefundPolicy();
    },
    setAdminRefundPolicy: async (request, reply) => {
      noStore(reply);
      return catalogue.setRefundPolicy(actor(request, true), request.body);
    },
    listBlockedContacts: async (request, reply) => {
      noStore(reply);
      actor(request);
      return service.listBlockedContacts();
    },
    previewBlockContact: async (request, reply) => {
      noStore(reply);
      actor(request);
      return service.previewBlock(request.body);
    },
    blockContact: async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await service.blockContact(actor(request), request.body)),
    unblockContact: async (request, reply) => {
      await service.unblockContact(actor(request), request.params.blocked_id);
      return reply.status(204).send();
    },
    searchMembers: async (request, reply) => {
      noStore(reply);
      actor(request);
      return service.searchMembers(request.query);
    },
    getMember: async (request, reply) => {
      noStore(reply);
      actor(request);
      return service.memberDetail(request.params.member_id);
    },
    blockMember: async (request, reply) => {
      noStore(reply);
      return service.blockMember(actor(request), request.params.member_id, request.body);
    },
    unblockMember: async (request, reply) => {
      noStore(reply);
      return service.unblockMember(actor(request), request.params.member_id, request.body.reason);
    },
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
    listAdminPayments: async (request, reply) => {
      noStore(reply);
      actor(request, true);
      return reports.payments(request.query);
    },
    getMoneyReport: async (request, reply) => {
      noStore(reply);
      actor(request, true);
      return reports.money(request.query);
    },
    getMoneyReportCsv: async (request, reply) => {
      actor(request, true);
      const body = await reports.moneyCsv(request.query);
      return reply
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="money-${request.query.from}-${request.query.to}.csv"`,
        )
        .type('text/csv; charset=utf-8')
        .send(body);
    },
    getOccupancyReport: async (request, reply) => {
      noStore(reply);
      actor(request, true);
      return reports.occupancy(request.query);
    },
    getOccupancyReportCsv: async (request, reply) => {
      actor(request, true);
      const body = await reports.occupancyCsv(request.query);
      return reply
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="occupancy-${request.query.from}-${request.query.to}.csv"`,
        )
        .type('text/csv; charset=utf-8')
        .send(body);
    },
    listAuditLog: async (request, reply) => {
      noStore(reply);
      actor(request);
      return reports.audit(request.query);
    },
  });
}
