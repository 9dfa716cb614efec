// The booking module's public face: create, pay, fulfil, cancel, move, coupons, the ledger, receipts. Other
// modules and the composition root import this file, never the files behind it (a lint rule holds it).

export { accessCodeDueAt, accessCodeJobId, createAccessCodeNotifier } from './access-codes.ts';
export type { AccessCodeJobData, AccessCodeNotifier, AccessCodeScheduler } from './access-codes.ts';
export { organizerFromMailFrom } from './calendar.ts';
export { createGuestCodeNotifier, guestCodeDueAt, guestCodeJobId } from './guest-codes.ts';
export type { GuestCodeJobData, GuestCodeScheduler } from './guest-codes.ts';
export { cancelFutureBookingsOfMembers, policyRefundCents } from './cancellation.ts';
export type { CancellationDependencies } from './cancellation.ts';
export type { NoticeDependencies } from './cancellation-notices.ts';
export { checkoutPublicHandlers, keepWebhookRawBody } from './checkout/handlers.ts';
export { createCheckoutService, listPayments } from './checkout/service.ts';
export { createCouponService, readAdminCoupon } from './coupons/service.ts';
export { bookingHandlers } from './handlers.ts';
export { totalsOfBookings } from './ledger-repository.ts';
export { bookingMoney, moneyOfBookings, operatorActor, systemActor } from './ledger.ts';
export type { RefundCause } from './ledger.ts';
export { refundableCents } from './refunds.ts';
export { anySlotClosed, bookingsWithBranchAndClient } from './repository.ts';
export { createBookingService, listBookingRecords } from './service.ts';
export type { BookingService } from './service.ts';
export { cancelBooking, cancellationRefundCents, lockCancelableBooking } from './use-cases/cancel-booking.ts';
export type {
  CancelBookingDependencies,
  CancelBookingInput,
  OperatorRefundChoice,
} from './use-cases/cancel-booking.ts';
export { closeBranch, closurePeriod } from './use-cases/close-branch.ts';
export { createCoupon } from './use-cases/create-coupon.ts';
export { moveBookingAsOperator } from './use-cases/move-booking-as-operator.ts';
export { moveRefusal } from './move-rules.ts';
export { reopenClosure } from './use-cases/reopen-closure.ts';
export { updateCoupon } from './use-cases/update-coupon.ts';
export {
  adminCreditPack,
  createCreditPack,
  packSettings,
  updateCreditPack,
} from './use-cases/save-credit-pack.ts';
export type { CreditPackSettings } from './use-cases/save-credit-pack.ts';
export { createWalletService } from './wallet/service.ts';
export { listGiftVouchersForConsole } from './wallet/vouchers.ts';
export type { WalletService } from './wallet/service.ts';
export { describeCredit, VOUCHER_TIME_ZONE } from './wallet/messages.ts';
export * as walletRepository from './wallet/repository.ts';
export * as couponsRepository from './coupons/repository.ts';
export * as movesRepository from './moves-repository.ts';
export * as bookingsRepository from './repository.ts';
