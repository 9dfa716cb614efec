import type { components } from '../openapi/schema.gen.ts';

export type GiftVoucher = components['schemas']['GiftVoucher'];
export type GiftVoucherRequest = components['schemas']['GiftVoucherRequest'];

/** A gift voucher as the member types it in the wallet (issue 31): the amount as typed ('25', '25,50'). */
export type GiftFields = { amount: string; name: string; email: string; message: string };
export type GiftField = keyof GiftFields;

export const EMPTY_GIFT: GiftFields = { amount: '', name: '', email: '', message: '' };

/** The contract's limits (openapi: GiftVoucherRequest, RedeemVoucherRequest). */
export const GIFT_LIMITS = {
  minEuros: 5,
  maxEuros: 500,
  name: 80,
  email: 254,
  message: 500,
  code: 40,
} as const;

/**
 * What is wrong with a field, for the view to word beside it: left empty, not a number or not an e-mail, an
 * amount outside 5..500 euros or with more than cents, longer than the contract allows.
 */
export type GiftProblem = 'missing' | 'invalid' | 'out-of-range' | 'not-cents' | 'too-long';
export type GiftProblems = Partial<Record<GiftField, GiftProblem>>;

/** An amount as typed ('25', '25,5', '25.50'): its value and its decimals, or null when it is no amount. */
function amountOf(typed: string): { value: number; decimals: number } | null {
  const match = /^(\d{1,6})(?:[.,](\d{1,6}))?$/.exec(typed.trim());
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  return { value: Number(`${whole}.${fraction || '0'}`), decimals: fraction.replace(/0+$/, '').length };
}

// The shape the server's format check takes: something, an at, a domain with a dot; no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with each field, by field; an empty answer is a voucher to buy. */
export function giftProblems(fields: GiftFields): GiftProblems {
  const problems: GiftProblems = {};
  const amount = fields.amount.trim();
  const number = amountOf(amount);
  if (amount === '') problems.amount = 'missing';
  else if (number === null) problems.amount = 'invalid';
  else if (number.value < GIFT_LIMITS.minEuros || number.value > GIFT_LIMITS.maxEuros)
    problems.amount = 'out-of-range';
  else if (number.decimals > 2) problems.amount = 'not-cents';
  const name = fields.name.trim();
  if (name === '') problems.name = 'missing';
  else if (name.length > GIFT_LIMITS.name) problems.name = 'too-long';
  const email = fields.email.trim();
  if (email === '') problems.email = 'missing';
  else if (email.length > GIFT_LIMITS.email || !EMAIL.test(email)) problems.email = 'invalid';
  if (fields.message.trim().length > GIFT_LIMITS.message) problems.message = 'too-long';
  return problems;
}

/** The voucher the fields say, as the contract takes it, or null while a field has a problem. */
export function giftVoucherOf(fields: GiftFields): GiftVoucherRequest | null {
  if (Object.keys(giftProblems(fields)).length > 0) return null;
  const message = fields.message.trim();
  return {
    amount_eur: amountOf(fields.amount)!.value,
    recipient_name: fields.name.trim(),
    recipient_email: fields.email.trim(),
    message: message === '' ? null : message,
  };
}

/** The problems the form shows now: a field's once it was left, every one once the member asked to buy. */
export function shownGiftProblems(context: {
  gift: GiftFields;
  giftTouched: readonly GiftField[];
  giftChecked: boolean;
}): GiftProblems {
  const problems = giftProblems(context.gift);
  if (context.giftChecked) return problems;
  return Object.fromEntries(
    Object.entries(problems).filter(([field]) => context.giftTouched.includes(field as GiftField)),
  );
}

/**
 * A voucher code as the member may have it (typed, pasted with spaces, from the e-mail's link): trimmed; the
 * server ignores case and spaces inside. Empty when there is none.
 */
export function voucherCodeOf(typed: unknown): string {
  if (typeof typed === 'number' && Number.isFinite(typed)) return String(typed);
  return typeof typed === 'string' ? typed.trim().slice(0, GIFT_LIMITS.code) : '';
}
