import type { TokenStore } from '../../machines/session.machine.ts';

/** The operator's token: its own key, never the member's `token` (issue 18: neither accepted where the other belongs). */
export const ADMIN_TOKEN_KEY = 'admin_token';

export const adminTokenStore: TokenStore = {
  read() {
    try {
      return window.localStorage.getItem(ADMIN_TOKEN_KEY);
    } catch {
      return null;
    }
  },
  write(token) {
    try {
      window.localStorage.setItem(ADMIN_TOKEN_KEY, token);
    } catch {
      // The session still works for this page view.
    }
  },
  clear() {
    try {
      window.localStorage.removeItem(ADMIN_TOKEN_KEY);
    } catch {
      // Nothing stored, nothing to clear.
    }
  },
};
