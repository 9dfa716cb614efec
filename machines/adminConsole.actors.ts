import { expectData, expectOk, type ApiClient } from './api.ts';
import type { components, operations } from '../openapi/schema.gen.ts';

// The console's reads and the changes that need no flow of their own, over the typed client: the views hand
// them to the list machine (adminQuery) and the action machine (adminTask) as their actors.

type Schemas = components['schemas'];
export type AdminToday = Schemas['AdminToday'];
export type AdminBooking = Schemas['AdminBooking'];
export type AdminBookingPage = Schemas['AdminBookingPage'];
export type AdminBookingDetail = Schemas['AdminBookingDetail'];
export type AdminBookingStatus = Schemas['AdminBookingStatus'];
export type Closure = Schemas['Closure'];
export type OccupancyHeatmap = Schemas['OccupancyHeatmap'];
export type BranchDoorPage = Schemas['BranchDoorPage'];
export type BranchOnCall = Schemas['BranchOnCall'];
/** The door page's branch (the first branch when none is chosen) and the period of its no-shows and overstays. */
export type DoorPageFilters = { branchId: number | null; from: string; to: string };
export type Broadcast = Schemas['Broadcast'];
export type BroadcastDetail = Schemas['BroadcastDetail'];
export type MemberNote = Schemas['MemberNote'];
export type MemberPage = Schemas['MemberPage'];
export type MemberDetail = Schemas['MemberDetail'];
export type MemberExport = Schemas['MemberExport'];
export type AdminBranch = Schemas['AdminBranch'];
export type AdminBranchUpdate = Schemas['AdminBranchUpdate'];
export type BranchChangePreview = Schemas['BranchChangePreview'];
export type PriceGrid = Schemas['PriceGrid'];
export type PriceGridInput = Schemas['PriceGridInput'];
export type DatePrice = Schemas['DatePrice'];
export type DatePriceInput = Schemas['DatePriceInput'];
export type AdminCoupon = Schemas['AdminCoupon'];
export type AdminCouponCreate = Schemas['AdminCouponCreate'];
export type AdminCouponUpdate = Schemas['AdminCouponUpdate'];
export type AdminCreditPack = Schemas['AdminCreditPack'];
export type AdminCreditPackCreate = Schemas['AdminCreditPackCreate'];
export type AdminCreditPackUpdate = Schemas['AdminCreditPackUpdate'];
export type CreditUnit = Schemas['CreditUnit'];
export type AdminGiftVoucher = Schemas['AdminGiftVoucher'];
export type RefundRatios = Schemas['RefundRatios'];
export type RefundApproval = Schemas['RefundApproval'];
export type RefundApprovalList = Schemas['RefundApprovalList'];
export type MoneyReport = Schemas['MoneyReport'];
export type OccupancyReport = Schemas['OccupancyReport'];
export type AuditPage = Schemas['AuditPage'];
export type TaxDocumentPage = Schemas['TaxDocumentPage'];
export type Operator = Schemas['Operator'];
export type CreatedOperator = Schemas['CreatedOperator'];
export type OperatorSession = Schemas['OperatorSession'];
export type Granularity = MoneyReport['granularity'];

export type BookingFilters = {
  q: string;
  branchId: number | null;
  from: string;
  to: string;
  status: AdminBookingStatus | '';
  /** Only the weeks of one weekly series (issue 31). */
  seriesId: number | null;
  /** The page: after one page's `next` (older bookings), before one's `previous` (newer); '' for the first. */
  after: string;
  before: string;
};
/** A period of branch-local days, for one branch or (null) every branch. */
export type PeriodFilters = { branchId: number | null; from: string; to: string };
export type ReportFilters = PeriodFilters & { granularity: Granularity };
export type AuditFilters = {
  action: string;
  entityType: string;
  entityId: string;
  from: string;
  to: string;
  page: number;
};

export type DocumentFilters = { from: string; to: string; bookingId: number | null; page: number };
/** The gift vouchers' filter (`listAdminGiftVouchers`): '' is all of them. */
export type GiftVoucherFilter = NonNullable<
  NonNullable<operations['listAdminGiftVouchers']['parameters']['query']>['status']
>;

const optional = (value: string) => (value === '' ? undefined : value);

/** `api` carries the operator's token. */
export function createAdminConsoleActors(api: ApiClient) {
  return {
    moveOptions: (params: { bookingId: number; date: string }) =>
      expectData(
        api.GET('/admin/bookings/{booking_id}/move-options', {
          params: { path: { booking_id: params.bookingId }, query: { date: optional(params.date) } },
        }),
      ),
    today: (params: { date: string }) =>
      expectData(api.GET('/admin/today', { params: { query: { date: optional(params.date) } } })),
    bookings: (filters: BookingFilters) =>
      expectData(
        api.GET('/admin/bookings', {
          params: {
            query: {
              q: optional(filters.q.trim()),
              branch_id: filters.branchId ?? undefined,
              from: optional(filters.from),
              to: optional(filters.to),
              status: filters.status === '' ? undefined : filters.status,
              series_id: filters.seriesId ?? undefined,
              after: optional(filters.after),
              before: optional(filters.before),
            },
          },
        }),
      ),
    booking: (params: { id: number }) =>
      expectData(api.GET('/admin/bookings/{booking_id}', { params: { path: { booking_id: params.id } } })),
    resendCode: (params: { id: number }) =>
      expectData(
        api.POST('/admin/bookings/{booking_id}/resend-code', { params: { path: { booking_id: params.id } } }),
      ),
    moveBooking: (params: { id: number; slotId: number; reason: string }) =>
      expectData(
        api.POST('/admin/bookings/{booking_id}/move', {
          params: { path: { booking_id: params.id } },
          body: { time_slot_id: params.slotId, reason: params.reason },
        }),
      ),
    branchDoors: async (filters: DoorPageFilters): Promise<BranchDoorPage | null> => {
      const branchId = filters.branchId ?? (await expectData(api.GET('/admin/branches')))[0]?.id;
      if (branchId === undefined) return null;
      return expectData(
        api.GET('/admin/branches/{branch_id}/doors', {
          params: {
            path: { branch_id: branchId },
            query: { from: optional(filters.from), to: optional(filters.to) },
          },
        }),
      );
    },
    setOnCall: (params: { branchId: number; email: string; phone: string }) =>
      expectData(
        api.PUT('/admin/branches/{branch_id}/on-call', {
          params: { path: { branch_id: params.branchId } },
          body: {
            email: optional(params.email.trim()) ?? null,
            phone: optional(params.phone.trim()) ?? null,
          },
        }),
      ),
    closures: (params: { branchId: number | null }) =>
      expectData(
        api.GET('/admin/closures', { params: { query: { branch_id: params.branchId ?? undefined } } }),
      ),
    reopenClosure: (params: { id: number }) =>
      expectData(
        api.POST('/admin/closures/{closure_id}/reopen', { params: { path: { closure_id: params.id } } }),
      ),
    broadcasts: () => expectData(api.GET('/admin/broadcasts')),
    broadcast: (params: { id: number | null }) =>
      params.id === null
        ? Promise.resolve(null)
        : expectData(
            api.GET('/admin/broadcasts/{broadcast_id}', { params: { path: { broadcast_id: params.id } } }),
          ),
    memberNotes: (params: { id: string }) =>
      expectData(api.GET('/admin/members/{member_id}/notes', { params: { path: { member_id: params.id } } })),
    addMemberNote: (params: { id: string; body: string }) =>
      expectData(
        api.POST('/admin/members/{member_id}/notes', {
          params: { path: { member_id: params.id } },
          body: { body: params.body },
        }),
      ),
    members: (params: { q: string; page: number }) =>
      expectData(
        api.GET('/admin/members', { params: { query: { q: optional(params.q.trim()), page: params.page } } }),
      ),
    member: (params: { id: string }) =>
      expectData(api.GET('/admin/members/{member_id}', { params: { path: { member_id: params.id } } })),
    blockMember: (params: { id: string; reason: string; cancelFuture: boolean }) =>
      expectOk(
        api.POST('/admin/members/{member_id}/block', {
          params: { path: { member_id: params.id } },
          body: { reason: params.reason, cancel_future_bookings: params.cancelFuture, refund_mode: 'policy' },
        }),
      ),
    unblockMember: (params: { id: string; reason: string }) =>
      expectOk(
        api.POST('/admin/members/{member_id}/unblock', {
          params: { path: { member_id: params.id } },
          body: { reason: params.reason },
        }),
      ),
    exportMember: (params: { id: string }) =>
      expectData(
        api.GET('/admin/members/{member_id}/export', { params: { path: { member_id: params.id } } }),
      ),
    eraseMember: (params: { id: string; reason: string; confirmEmail: string }) =>
      expectOk(
        api.POST('/admin/members/{member_id}/erase', {
          params: { path: { member_id: params.id } },
          body: { reason: params.reason, confirm_email: params.confirmEmail },
        }),
      ),
    branches: () => expectData(api.GET('/admin/branches')),
    branch: (params: { id: number }) =>
      expectData(api.GET('/admin/branches/{branch_id}', { params: { path: { branch_id: params.id } } })),
    previewBranch: (params: { id: number; update: AdminBranchUpdate }) =>
      expectData(
        api.POST('/admin/branches/{branch_id}/preview', {
          params: { path: { branch_id: params.id } },
          body: params.update,
        }),
      ),
    updateBranch: (params: { id: number; update: AdminBranchUpdate }) =>
      expectData(
        api.PATCH('/admin/branches/{branch_id}', {
          params: { path: { branch_id: params.id } },
          body: params.update,
        }),
      ),
    prices: (params: { branchId: number }) =>
      expectData(
        api.GET('/admin/branches/{branch_id}/prices', { params: { path: { branch_id: params.branchId } } }),
      ),
    setPrices: (params: { branchId: number; grid: PriceGridInput }) =>
      expectData(
        api.PUT('/admin/branches/{branch_id}/prices', {
          params: { path: { branch_id: params.branchId } },
          body: params.grid,
        }),
      ),
    coupons: () => expectData(api.GET('/admin/coupons')),
    createCoupon: (coupon: AdminCouponCreate) => expectData(api.POST('/admin/coupons', { body: coupon })),
    setCouponActive: (params: { code: string; active: boolean }) =>
      expectData(
        api.PATCH('/admin/coupons/{coupon_code}', {
          params: { path: { coupon_code: params.code } },
          body: { active: params.active },
        }),
      ),
    creditPacks: () => expectData(api.GET('/admin/credit-packs')),
    setCreditPackActive: (params: { id: number; active: boolean }) =>
      expectData(
        api.PATCH('/admin/credit-packs/{pack_id}', {
          params: { path: { pack_id: params.id } },
          body: { active: params.active },
        }),
      ),
    giftVouchers: (params: { status: GiftVoucherFilter | '' }) =>
      expectData(
        api.GET('/admin/gift-vouchers', {
          params: { query: { status: params.status === '' ? undefined : params.status } },
        }),
      ),
    refundPolicy: () => expectData(api.GET('/admin/refund-policy')),
    refundApprovals: () => expectData(api.GET('/admin/refund-approvals')),
    /** How many refunds wait for an owner (the console's navigation shows it); `page` only makes it load again. */
    pendingApprovals: async (_params: { page: string }) =>
      (await expectData(api.GET('/admin/refund-approvals'))).pending.length,
    approveRefund: (params: { id: number }) =>
      expectData(
        api.POST('/admin/refund-approvals/{approval_id}/approve', {
          params: { path: { approval_id: params.id } },
        }),
      ),
    refuseRefund: (params: { id: number; reason: string }) =>
      expectData(
        api.POST('/admin/refund-approvals/{approval_id}/refuse', {
          params: { path: { approval_id: params.id } },
          body: { reason: params.reason },
        }),
      ),
    /** The ceiling in cents, as the form read it (null: not an amount, which the form does not send). */
    setRefundCeiling: (params: { cents: number }) =>
      expectData(
        api.PUT('/admin/refund-ceiling', { body: { staff_refund_ceiling_eur: params.cents / 100 } }),
      ),
    money: (filters: ReportFilters) =>
      expectData(api.GET('/admin/reports/money', { params: { query: reportQuery(filters) } })),
    occupancy: (filters: ReportFilters) =>
      expectData(api.GET('/admin/reports/occupancy', { params: { query: reportQuery(filters) } })),
    occupancyHeatmap: (filters: PeriodFilters) =>
      expectData(api.GET('/admin/reports/occupancy/heatmap', { params: { query: periodQuery(filters) } })),
    moneyCsv: (filters: ReportFilters) =>
      expectData(
        api.GET('/admin/reports/money/csv', { params: { query: reportQuery(filters) }, parseAs: 'text' }),
      ),
    occupancyCsv: (filters: ReportFilters) =>
      expectData(
        api.GET('/admin/reports/occupancy/csv', { params: { query: reportQuery(filters) }, parseAs: 'text' }),
      ),
    ledgerCsv: (filters: ReportFilters) =>
      expectData(
        api.GET('/admin/reports/ledger/csv', { params: { query: periodQuery(filters) }, parseAs: 'text' }),
      ),
    stripeReconciliationCsv: (period: { from: string; to: string }) =>
      expectData(
        api.GET('/admin/reports/stripe-reconciliation/csv', {
          params: { query: { from: period.from, to: period.to } },
          parseAs: 'text',
        }),
      ),
    documents: (filters: DocumentFilters) =>
      expectData(
        api.GET('/admin/documents', {
          params: {
            query: {
              from: optional(filters.from),
              to: optional(filters.to),
              booking_id: filters.bookingId ?? undefined,
              page: filters.page,
            },
          },
        }),
      ),
    resendDocument: (params: { id: number }) =>
      expectData(
        api.POST('/admin/documents/{document_id}/resend', { params: { path: { document_id: params.id } } }),
      ),
    audit: (filters: AuditFilters) =>
      expectData(
        api.GET('/admin/audit', {
          params: {
            query: {
              action: optional(filters.action.trim()),
              entity_type: optional(filters.entityType.trim()),
              entity_id: optional(filters.entityId.trim()),
              from: optional(filters.from),
              to: optional(filters.to),
              page: filters.page,
            },
          },
        }),
      ),
    operators: () => expectData(api.GET('/admin/operators')),
    createOperator: (params: { email: string; role: Operator['role'] }) =>
      expectData(api.POST('/admin/operators', { body: params })),
    removeOperator: (params: { id: number }) =>
      expectOk(
        api.DELETE('/admin/operators/{operator_id}', { params: { path: { operator_id: params.id } } }),
      ),
    /** No branch ticked: every branch (null in the contract). */
    setOperatorBranches: (params: { id: number; branch_ids: number[] }) =>
      expectData(
        api.PUT('/admin/operators/{operator_id}/branches', {
          params: { path: { operator_id: params.id } },
          body: { branch_ids: params.branch_ids.length > 0 ? params.branch_ids : null },
        }),
      ),
    sessions: () => expectData(api.GET('/admin/sessions')),
    endSession: (params: { id: string }) =>
      expectOk(api.DELETE('/admin/sessions/{session_id}', { params: { path: { session_id: params.id } } })),
  };
}

export type AdminConsoleActors = ReturnType<typeof createAdminConsoleActors>;

function periodQuery(filters: PeriodFilters) {
  return { branch_id: filters.branchId ?? undefined, from: filters.from, to: filters.to };
}

function reportQuery(filters: ReportFilters) {
  return { ...periodQuery(filters), granularity: filters.granularity };
}
