import { ApiError } from './api.ts';

/**
 * What a flow tells the user, as data: either the server's own sentence (already localised by the `locale`
 * header) or a key the view turns into text (docs/decisions.md, 'Client'). Machines never hold translated strings.
 */
export type FeedbackKey =
  | 'generic'
  | 'error-during-login'
  | 'registration-failed'
  | 'failed-to-request-password-reset'
  | 'failed-to-reset-password'
  | 'email-verification-failed'
  | 'phone-verification-failed'
  | 'failed-to-reset-email-verification'
  | 'failed-to-reset-phone-verification'
  | 'can-not-update-profile'
  | 'can-not-cancel-bookings'
  | 'can-not-resend-code'
  | 'can-not-move-booking'
  | 'can-not-book-again'
  | 'can-not-add-guest'
  | 'can-not-remove-guest'
  | 'can-not-buy-pack'
  | 'can-not-buy-gift-voucher'
  | 'can-not-redeem-voucher'
  | 'voucher-code-missing'
  | 'code-sent-again'
  | 'failed-to-delete-account'
  | 'passwords-do-not-match'
  | 'invalid-phone-number'
  | 'if-account-exists-reset-link-will-be-sent'
  | 'password-has-been-reset-successfully'
  | 'email-verified-successfully'
  | 'phone-verified-successfully'
  | 'email-verification-success-now-phone'
  | 'phone-verification-success-now-email'
  | 'email-verification-reset-successfully'
  | 'phone-verification-reset-successfully'
  | 'profile-updated-successfully';

export type Feedback = { key: FeedbackKey } | { text: string };

/**
 * What a failure says: a server fault gives the generic message; otherwise the server's `detail` when there
 * is one, else the fallback key (docs/decisions.md, 'Client').
 */
export function failureFeedback(error: unknown, fallback: FeedbackKey): Feedback {
  if (error instanceof ApiError) {
    if (error.isServerFault) return { key: 'generic' };
    const text = error.detail?.trim();
    if (text) return { text };
  }
  return { key: fallback };
}

/** docs/decisions.md, 'Accounts': trim, remove every whitespace, then '+', 1-3 digits of country code and 7-14 digits. */
export function sanitisePhone(raw: string): string | null {
  const phone = raw.trim().replace(/\s+/g, '');
  return /^\+\d{1,3}\d{7,14}$/.test(phone) ? phone : null;
}

/**
 * Who the member is, as registering and the profile send it: the names and the e-mail trimmed, and the sanitised
 * number (docs/decisions.md, 'Accounts'; the forms refuse an invalid one before any call).
 */
export function personOf(fields: { firstName: string; lastName: string; email: string; phone: string }) {
  return {
    email: fields.email.trim(),
    first_name: fields.firstName.trim(),
    last_name: fields.lastName.trim(),
    phone_number: sanitisePhone(fields.phone) ?? '',
  };
}

/** A form's own refusal, made without a call: the machine's `fail` action, saying `key`. */
export const failWith = (key: FeedbackKey) => ({ type: 'fail', params: { feedback: { key } } }) as const;

/**
 * What a form with a password, its confirmation and a phone refuses before any call (register, profile): the
 * machine's `passwordsDiffer` and `phoneInvalid` guards, each with its message.
 */
export const PASSWORD_AND_PHONE_CHECKS = [
  { guard: 'passwordsDiffer', actions: failWith('passwords-do-not-match') },
  { guard: 'phoneInvalid', actions: failWith('invalid-phone-number') },
] as const;
