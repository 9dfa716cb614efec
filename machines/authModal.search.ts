import type { AuthView } from './authModal.machine.ts';
import type { ModalSearch } from './modal-search.ts';

const AUTH_PARAMETERS = ['auth_tab', 'reset_token', 'verify_email', 'verify_email_code'] as const;

function withoutAuthParameters(search: ModalSearch): ModalSearch {
  const next = { ...search };
  for (const key of AUTH_PARAMETERS) delete next[key];
  return next;
}

type AuthSnapshot = {
  status: string;
  value: unknown;
  context: { resetToken: string | null; verifyLink: { email: string; code: string } | null };
};

/**
 * The URL that matches the auth modal: its view as auth_tab and the link parameters while they apply; once
 * it is done, none of its parameters. Every other parameter stays (booking_*, stripe_session_id, ...), so the
 * modal that asked for a login resumes; a dismissed login also abandons the account tab that needed it.
 */
export function authModalSearch(
  previous: ModalSearch,
  state: AuthSnapshot,
  view: AuthView | null,
): ModalSearch {
  const next = withoutAuthParameters(previous);
  if (state.status === 'done') {
    if (state.value === 'closed') delete next.account_tab;
    return next;
  }
  if (!view) return previous;
  next.auth_tab = view;
  const { resetToken, verifyLink } = state.context;
  if (view === 'resetPassword' && resetToken) next.reset_token = resetToken;
  if (view === 'verify' && verifyLink) {
    next.verify_email = verifyLink.email;
    if (verifyLink.code) next.verify_email_code = verifyLink.code;
  }
  return next;
}

export function sameSearch(a: ModalSearch, b: ModalSearch): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof ModalSearch>;
  return [...keys].every((key) => a[key] === b[key]);
}
