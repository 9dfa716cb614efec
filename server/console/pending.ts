import { AppError } from '../errors.ts';
import type { OperationHandler } from '../http/operations.ts';

// The console's operations as the contract describes them, answered 501 `not_implemented` only until their
// handlers land on this branch (issue 18); this module goes away with the last of them.
const pending = [
  'getAdminToday',
  'searchAdminBookings',
  'getAdminBooking',
  'adminCancelBooking',
  'adminResendAccessCode',
  'adminMoveBooking',
  'listClosures',
  'createClosure',
  'previewClosure',
  'reopenClosure',
  'listAdminBranches',
  'createAdminBranch',
  'getAdminBranch',
  'updateAdminBranch',
  'previewBranchUpdate',
  'getBranchPrices',
  'setBranchPrices',
  'listAdminCoupons',
  'createAdminCoupon',
  'updateAdminCoupon',
  'getAdminRefundPolicy',
  'setAdminRefundPolicy',
  'listBlockedContacts',
  'blockContact',
  'previewBlockContact',
  'unblockContact',
  'searchMembers',
  'getMember',
  'blockMember',
  'unblockMember',
  'exportMember',
  'eraseMember',
  'listAdminPayments',
  'getMoneyReport',
  'getMoneyReportCsv',
  'getOccupancyReport',
  'getOccupancyReportCsv',
  'listAuditLog',
] as const;

type PendingId = (typeof pending)[number];

export const pendingConsoleHandlers = Object.fromEntries(
  pending.map((id) => [
    id,
    async () => {
      throw new AppError('not_implemented');
    },
  ]),
) as unknown as { [Id in PendingId]: OperationHandler<Id> };
