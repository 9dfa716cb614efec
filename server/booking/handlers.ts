import type { FastifyRequest } from 'fastify';
import { currentUser, type RateLimiter } from '../accounts/index.ts';
import { DoorsNotSettledError } from '../doors/index.ts';
import { AppError } from '../kernel/errors.ts';
import type { AccessCodeNotifier } from './access-codes.ts';
import type { CheckoutService } from './checkout/service.ts';
import type { CouponService } from './coupons/service.ts';
import { noStore } from '../http/caching.ts';
import { assertDevelopmentCaller } from '../http/dev-routes.ts';
import { defineHandlers } from '../http/operations.ts';
import { resolveLocale } from '../kernel/i18n.ts';
import { bookingMessage } from './messages.ts';
import type { BookingService } from './service.ts';
import type { WalletService } from './wallet/service.ts';

function userId(request: FastifyRequest): string {
  return currentUser(request).id;
}

// Bookings, coupons and checkout states are personal: no cache along the way may keep them (noStore).

/** The operations of a logged-in client: coupons, booking, paying, listing, cancelling and "send my code again". */
export function bookingHandlers(services: {
  bookings: BookingService;
  coupons: CouponService;
  checkout: CheckoutService;
  wallet: WalletService;
  resend: AccessCodeNotifier;
  limiter: RateLimiter;
  /** Whether the development routes answer (never in production). */
  devRoutes: { devRoutes: boolean };
}) {
  const { bookings, coupons, checkout } = services;
  return defineHandlers({
    resendAccessCode: async (request, reply) => {
      const user = currentUser(request);
      noStore(reply);
      await services.limiter.consume('code.resend', `user:${user.id}`);
      const outcome = await services.resend.resend(request.body.booking_id, user.id);
      if (outcome === 'not_found') throw new AppError('booking_not_found');
      if (outcome !== 'sent') throw new AppError('code_not_available');
      return reply.status(202).send(bookingMessage('codeSent', resolveLocale(request.headers.locale)));
    },

    // Outside production only: a booking's T-30 door-code message now, for a developer trying the door (README).
    sendDevDoorCode: async (request) => {
      assertDevelopmentCaller(request, services.devRoutes);
      try {
        const outcome = await services.resend.send(request.params.booking_id);
        if (outcome === 'not_found') throw new AppError('booking_not_found');
        return { outcome };
      } catch (error) {
        // The doors are still taking the code (the job would try again): so can the developer, in a moment.
        if (error instanceof DoorsNotSettledError) return { outcome: 'doors_not_ready' as const };
        throw error;
      }
    },

    getCoupon: async (request, reply) => {
      noStore(reply);
      return coupons.findUsableCoupon(userId(request), request.params.code);
    },

    createBooking: async (request, reply) => {
      noStore(reply);
      const result = await bookings.createBooking({
        userId: userId(request),
        slotIds: request.body.time_slot_id,
        couponId: request.body.coupon_code ?? null,
        expectedTotalEur: request.body.expected_total_final_price_eur,
        locale: resolveLocale(request.headers.locale),
        weeklySeries: request.body.weekly_series ?? false,
        useCredit: request.body.use_credit ?? false,
      });
      return reply.code(201).send(result);
    },

    listCreditPacks: async (_request, reply) => {
      noStore(reply);
      return services.wallet.listPacksOnSale();
    },

    purchaseCreditPack: async (request, reply) => {
      noStore(reply);
      await services.limiter.consume('pack.purchase', `user:${userId(request)}`);
      const result = await services.wallet.purchasePack(
        userId(request),
        request.params.pack_id,
        resolveLocale(request.headers.locale),
      );
      return reply.code(201).send(result);
    },

    listMyGiftVouchers: async (request, reply) => {
      noStore(reply);
      return services.wallet.vouchers.listBought(userId(request));
    },

    buyGiftVoucher: async (request, reply) => {
      noStore(reply);
      await services.limiter.consume('pack.purchase', `user:${userId(request)}`);
      const result = await services.wallet.vouchers.buy(
        userId(request),
        request.body,
        resolveLocale(request.headers.locale),
      );
      return reply.code(201).send(result);
    },

    redeemGiftVoucher: async (request, reply) => {
      noStore(reply);
      await services.limiter.consume('voucher.redeem', `user:${userId(request)}`);
      const lot = await services.wallet.vouchers.redeem(userId(request), request.body.code);
      return reply.code(201).send(lot);
    },

    getWallet: async (request, reply) => {
      noStore(reply);
      return services.wallet.wallet(userId(request));
    },

    previewCreditCover: async (request, reply) => {
      noStore(reply);
      return services.wallet.previewCover(
        userId(request),
        request.body.time_slot_id,
        request.body.coupon_code ?? null,
      );
    },

    listBookingGuests: async (request, reply) => {
      noStore(reply);
      return bookings.guests.listGuests(userId(request), request.params.booking_id);
    },

    addBookingGuest: async (request, reply) => {
      noStore(reply);
      await services.limiter.consume('guest.add', `user:${userId(request)}`);
      const guest = await bookings.guests.addGuest(userId(request), request.params.booking_id, request.body);
      return reply.code(201).send(guest);
    },

    removeBookingGuest: async (request, reply) => {
      noStore(reply);
      await bookings.guests.removeGuest(userId(request), request.params.booking_id, request.params.guest_id);
      return reply.code(204).send();
    },

    previewWeeklySeries: async (request, reply) => {
      noStore(reply);
      return bookings.previewWeeklySeries(request.params.slot_id, request.query.weeks);
    },

    getCheckoutSessionStatus: async (request, reply) => {
      noStore(reply);
      return checkout.reconcileSession({
        sessionId: request.query.stripe_session_id,
        userId: userId(request),
      });
    },

    listMyBookings: async (request, reply) => {
      noStore(reply);
      const { bookings: page, nextCursor } = await bookings.listMyBookingsPage(userId(request), {
        historyBefore: request.query.history_before ?? null,
        historyLimit: request.query.history_limit,
        locale: resolveLocale(request.headers.locale),
      });
      if (nextCursor) reply.header('next-history-cursor', nextCursor);
      return page;
    },

    findBookAgainSlot: async (request, reply) => {
      noStore(reply);
      return bookings.findBookAgainSlot(userId(request), request.params.booking_id);
    },

    moveBooking: async (request, reply) => {
      noStore(reply);
      return bookings.moveBooking({
        userId: userId(request),
        bookingId: request.params.booking_id,
        slotId: request.body.time_slot_id,
        expectedDifferenceEur: request.body.expected_price_difference_eur,
        locale: resolveLocale(request.headers.locale),
      });
    },

    cancelBookings: async (request, reply) => {
      noStore(reply);
      await bookings.cancelBookings({
        userId: userId(request),
        items: request.body.booking.map((item) => ({
          bookingId: item.booking_id,
          expectedRefundEur: item.expected_refund_eur,
        })),
      });
      return bookingMessage('bookingsCanceled', resolveLocale(request.headers.locale));
    },
  });
}
