import { z } from 'zod';
import { readSetting, writeSetting } from '../catalog/index.ts';
import { instantFromDate } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { translator, type Locale, type Message } from '../kernel/i18n.ts';
import { formatMoney } from '../kernel/money.ts';
import { insertOutboxMessage } from '../kernel/outbox.ts';
import { describeSlotTime } from '../kernel/time-format.ts';
import * as repository from './refund-approvals-repository.ts';

// Refunds above the staff ceiling (issue 32, item 2): the ceiling owners set, and how owners hear of a request.
// docs/decisions.md, 'Issue 32 — refunds above the staff ceiling'.

export const STAFF_REFUND_CEILING_KEY = 'staff_refund_ceiling';

/**
 * Until an owner sets one: 30 €, above a peak hour's price at every demo branch (22 € at most), so one ordinary
 * booking refunded in full needs no owner, and a longer or repeated one does.
 */
export const DEFAULT_STAFF_REFUND_CEILING_CENTS = 30_00;

/** The most a ceiling can be: the contract's largest amount (100,000 €). */
export const MAX_STAFF_REFUND_CEILING_CENTS = 100_000_00;

const storedCeiling = z.object({ cents: z.number().int().min(0).max(MAX_STAFF_REFUND_CEILING_CENTS) });

/** The most a staff member refunds without an owner's approval, in cents. Owners have no ceiling. */
export async function readStaffRefundCeiling(db: Db): Promise<number> {
  const stored = await readSetting(db, STAFF_REFUND_CEILING_KEY);
  return stored === undefined ? DEFAULT_STAFF_REFUND_CEILING_CENTS : storedCeiling.parse(stored).cents;
}

export async function writeStaffRefundCeiling(db: Db, cents: number): Promise<void> {
  await writeSetting(db, STAFF_REFUND_CEILING_KEY, storedCeiling.parse({ cents }));
}

const TEXTS = {
  subject: /*i18n*/ {
    id: 'email.refundApproval.subject',
    message: 'Reembolso a aprovar: reserva #{booking} ({amount})',
  },
  text: /*i18n*/ {
    id: 'email.refundApproval.text',
    message:
      '{requester} pediu para cancelar a reserva #{booking} em {branch} ({when}) com um reembolso de {amount}, acima do limite da equipa ({ceiling}). Motivo: {reason}\n\nNada muda para o cliente, a porta ou o dinheiro até um proprietário aprovar. Aprove ou recuse em {link}',
  },
} as const satisfies Record<string, Message>;

export type ApprovalNoticeDependencies = {
  publicUrl: string;
  /** Who is told when no owner is left to tell (OPERATOR_EMAIL), in the operators' default language. */
  operatorEmail: string | null;
  operatorLocale: Locale;
};

/**
 * Tells each owner (in their console language) that a request waits for them, through the outbox in the
 * request's transaction: once per owner and request (its dedupe key). With no owner left, OPERATOR_EMAIL.
 */
export async function tellOwnersOfRequest(
  trx: Db,
  deps: ApprovalNoticeDependencies,
  request: { id: number; ceilingCents: number; now: Date },
): Promise<void> {
  const approval = await repository.findRefundApproval(trx, request.id);
  if (!approval) return;
  const owners = await repository.liveOwners(trx);
  const recipients: { key: string; email: string; locale: Locale }[] = owners.map((owner) => ({
    key: String(owner.id),
    email: owner.email,
    locale: owner.locale,
  }));
  if (recipients.length === 0 && deps.operatorEmail)
    recipients.push({ key: 'operator', email: deps.operatorEmail, locale: deps.operatorLocale });
  for (const recipient of recipients) {
    const t = translator(recipient.locale);
    const params = {
      requester: approval.requested_by_email,
      booking: approval.booking_id,
      branch: approval.branch_name,
      when: describeSlotTime(
        recipient.locale,
        approval.time_zone,
        instantFromDate(approval.start_time),
        instantFromDate(approval.end_time),
      ),
      amount: formatMoney(recipient.locale, approval.refund_cents),
      ceiling: formatMoney(recipient.locale, request.ceilingCents),
      reason: approval.reason,
      link: `${deps.publicUrl}/${recipient.locale}/admin/approvals`,
    };
    await insertOutboxMessage(trx, {
      channel: 'email',
      recipient: recipient.email,
      locale: recipient.locale,
      kind: 'refund_approval',
      subject: t(TEXTS.subject, params),
      text_body: `${t(TEXTS.text, params)}\n`,
      html_body: null,
      dedupe_key: `refund_approval:${approval.id}:${recipient.key}`,
      created_at: request.now,
      next_attempt_at: request.now,
    });
  }
}
