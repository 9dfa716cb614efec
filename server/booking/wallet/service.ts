import { randomUUID } from 'node:crypto';
import { dateFromInstant, instantFromDate } from '../../kernel/clock.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Locale } from '../../kernel/i18n.ts';
import { centsToEuros } from '../../kernel/money.ts';
import { insertOutboxMessage } from '../../kernel/outbox.ts';
import { runTransaction } from '../../kernel/transactions.ts';
import { findMessageContext } from '../../notifications/index.ts';
import { catalogRepository } from '../../catalog/index.ts';
import { lockUsableCoupon } from '../coupons/service.ts';
import { providerUnavailable } from '../held-checkout.ts';
import { SESSION_ID_PLACEHOLDER } from '../../adapters/payments/provider.ts';
import { priceSlots } from '../pricing.ts';
import * as bookingRepository from '../repository.ts';
import {
  checkoutReturnUrl,
  requireBuyer,
  slotsToCover,
  type BookingServiceDependencies,
} from '../service.ts';
import { expireLots, previewCreditPlan } from './credit.ts';
import { creditExpiryMessage } from './messages.ts';
import { contractUnit, creditInUnits } from './purchase.ts';
import * as repository from './repository.ts';
import { creditByIndex } from './scope.ts';
import { createVoucherService } from './vouchers.ts';
import type { components } from '../../../openapi/schema.gen.ts';

// The member's side of prepaid packs and the credit wallet (issue 31): packs on sale, buying one through the
// normal checkout, the wallet (lots and movements), what credit would pay of a basket; and the hourly job that
// announces lots expiring within 14 days and writes off what is left of expired ones.

type Schemas = components['schemas'];

/** A lot is announced this many days before it expires. */
export const CREDIT_EXPIRY_NOTICE_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

export const clockTime = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** Where and when credit may be spent, as the contract shows it. */
function scopeOf(
  row: { weekdays: number[] | null; from_minute: number | null; to_minute: number | null },
  branches: { id: number; name: string }[] | null,
): Schemas['CreditScope'] {
  return {
    branches,
    weekdays: row.weekdays === null ? null : [...row.weekdays].sort((a, b) => a - b),
    from_time: row.from_minute === null ? null : clockTime(row.from_minute),
    to_time: row.to_minute === null ? null : clockTime(row.to_minute),
  };
}

export function packView(pack: repository.CreditPackRow): Schemas['CreditPack'] {
  return {
    id: pack.id,
    name: pack.name,
    unit: contractUnit(pack.unit),
    credit: creditInUnits(pack.unit, pack.credit),
    price_eur: centsToEuros(pack.price_cents),
    validity_days: pack.validity_days,
    scope: scopeOf(pack, pack.all_branches ? null : [{ id: pack.branch_id, name: pack.branch_name }]),
  };
}

export function createWalletService(deps: BookingServiceDependencies) {
  const { db, clock } = deps;

  return {
    /** Gift vouchers: bought, redeemed, listed (vouchers.ts). */
    vouchers: createVoucherService(deps),

    /** `GET /credit-packs`: the packs on sale, cheapest first. */
    async listPacksOnSale(): Promise<Schemas['CreditPack'][]> {
      return (await repository.listPacks(db, { onSale: true })).map(packView);
    },

    /**
     * `POST /credit-packs/{id}/purchase`: a checkout for the pack's price, opened outside any transaction and
     * recorded (with the pack it sells) once the provider answered. Nothing is held meanwhile: the credit is
     * granted when the money arrives (server/booking/wallet/purchase.ts).
     */
    async purchasePack(
      userId: string,
      packId: number,
      locale: Locale,
    ): Promise<Schemas['CreateBookingResponse']> {
      const now = clock.now();
      const { user, pack } = await runTransaction(
        db,
        { name: 'purchasePack', log: deps.log },
        async (trx) => {
          const user = await requireBuyer(trx, userId, deps.contact);
          const pack = await repository.findPack(trx, packId);
          if (!pack || !pack.active) throw new AppError('credit_pack_not_found');
          return { user, pack };
        },
      );
      let opened;
      try {
        opened = await deps.payments.createCheckoutSession({
          amountCents: pack.price_cents,
          currency: 'eur',
          lineItems: [{ name: pack.name, amountCents: pack.price_cents }],
          customerEmail: user.email,
          locale,
          expiresAt: now.add({ minutes: deps.checkoutExpiryMinutes }),
          returnUrl: checkoutReturnUrl(deps.publicUrl, locale, SESSION_ID_PLACEHOLDER, null),
          // Each purchase is a sale of its own: a member may buy the same pack twice.
          idempotencyKey: `credit-pack-${pack.id}-${randomUUID()}`,
          metadata: { credit_pack_id: String(pack.id), user_id: user.id },
          multibanco: true,
        });
      } catch (error) {
        throw providerUnavailable(error);
      }
      await runTransaction(db, { name: 'recordPackCheckout', log: deps.log }, async (trx) => {
        await bookingRepository.insertCheckoutSession(trx, {
          id: opened.id,
          provider: deps.payments.name,
          user_id: user.id,
          amount_cents: pack.price_cents,
          client_secret: opened.clientSecret,
          locale,
          booking_date: null,
          expires_at: dateFromInstant(opened.expiresAt),
          multibanco_allowed: true,
          credit_pack_id: pack.id,
        });
      });
      return { checkout_session: { clientSecret: opened.clientSecret } };
    },

    /** `GET /wallet`: the member's lots, newest first, and the newest 200 movements. */
    async wallet(userId: string): Promise<Schemas['Wallet']> {
      const now = dateFromInstant(clock.now());
      const [lots, movements, names] = await Promise.all([
        repository.listLotsOfUser(db, userId),
        repository.listMovementsOfUser(db, userId, 200),
        repository.branchNames(db),
      ]);
      return {
        lots: lots.map((lot) => ({
          id: lot.id,
          name: lot.name,
          unit: contractUnit(lot.unit),
          initial: creditInUnits(lot.unit, lot.initial),
          remaining: creditInUnits(lot.unit, lot.remaining),
          bought_at: lot.created_at.toISOString(),
          expires_at: lot.expires_at.toISOString(),
          expired: lot.expires_at <= now,
          scope: scopeOf(
            lot,
            lot.branch_ids === null ? null : lot.branch_ids.map((id) => ({ id, name: names.get(id) ?? '' })),
          ),
        })),
        movements: movements.map((movement) => ({
          id: movement.id,
          lot_id: movement.lot_id,
          kind: movement.kind,
          amount: creditInUnits(movement.unit, movement.amount),
          unit: contractUnit(movement.unit),
          value_eur: centsToEuros(movement.value_cents),
          booking_id: movement.booking_id,
          at: movement.occurred_at.toISOString(),
        })),
      };
    },

    /** `POST /wallet/cover`: what the member's credit would pay of these slots now. Reads only. */
    async previewCover(userId: string, slotIds: readonly number[], couponId: number | null) {
      const ids = [...new Set(slotIds)];
      const now = clock.now();
      return runTransaction(db, { name: 'previewCreditCover', log: deps.log }, async (trx) => {
        const slots = await bookingRepository.findSlotsForBooking(trx, ids);
        if (slots.length !== ids.length) throw new AppError('slot_not_found');
        const coupon = couponId === null ? null : await lockUsableCoupon(trx, couponId, userId, now);
        const priced = priceSlots(
          slots.map((slot) => ({ id: slot.id, startTime: slot.start_time, priceCents: slot.price_cents })),
          coupon,
        );
        const byId = new Map(slots.map((slot) => [slot.id, slot]));
        const credit = creditByIndex(
          await previewCreditPlan(trx, userId, slotsToCover(priced.slots, byId), dateFromInstant(now)),
        );
        const lines = priced.slots.map((slot, index) => {
          const covered = credit.get(index) ?? 0;
          return {
            time_slot_id: slot.slotId,
            price_eur: centsToEuros(slot.finalPriceCents),
            credit_eur: centsToEuros(covered),
            due_eur: centsToEuros(slot.finalPriceCents - covered),
          };
        });
        const creditCents = [...credit.values()].reduce((sum, cents) => sum + cents, 0);
        return {
          slots: lines,
          credit_eur: centsToEuros(creditCents),
          due_eur: centsToEuros(priced.totalCents - creditCents),
        } satisfies Schemas['CreditCover'];
      });
    },

    /**
     * The hourly job: tells each member whose lot expires within 14 days with something left (once per lot),
     * and writes off what is left of lots whose time is up. Answers how many of each.
     */
    async sweepExpiries(): Promise<{ announced: number; expired: number }> {
      const now = dateFromInstant(clock.now());
      const until = new Date(now.getTime() + CREDIT_EXPIRY_NOTICE_DAYS * DAY_MS);
      const announced = await runTransaction(
        db,
        { name: 'announceCreditExpiry', log: deps.log },
        async (trx) => {
          const lots = await repository.lockLotsToAnnounce(trx, now, until, 200);
          for (const lot of lots) {
            await repository.markLotAnnounced(trx, lot.id, now);
            const branchId = lot.branch_ids?.[0] ?? (await catalogRepository.firstBranchId(trx));
            if (branchId === undefined) continue;
            const context = await findMessageContext(trx, lot.user_id, branchId);
            if (!context?.email) continue;
            const message = creditExpiryMessage({
              locale: context.locale,
              firstName: context.first_name,
              name: lot.name,
              unit: lot.unit,
              remaining: lot.remaining,
              expiresAt: instantFromDate(lot.expires_at),
              timeZone: context.time_zone,
              bookUrl: `${deps.publicUrl}/${context.locale}`,
            });
            await insertOutboxMessage(trx, {
              channel: 'email',
              recipient: context.email,
              locale: context.locale,
              kind: 'credit_expiry',
              subject: message.subject,
              text_body: message.text,
              html_body: message.html,
              dedupe_key: `credit_expiry:${lot.id}`,
              created_at: now,
              next_attempt_at: now,
            });
          }
          return lots.length;
        },
      );
      const expired = await runTransaction(db, { name: 'expireCreditLots', log: deps.log }, (trx) =>
        expireLots(trx, now),
      );
      return { announced, expired };
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
