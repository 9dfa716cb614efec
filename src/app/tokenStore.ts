import type { TokenStore } from '../../machines/session.machine.ts';

/**
 * A bearer token kept in local storage under `key`. Storage may be unavailable (private modes, a full quota):
 * reading answers no token, and a session still works for this page view without being kept.
 */
export function localStorageTokenStore(key: string): TokenStore {
  return {
    read() {
      try {
        return window.localStorage.getItem(key);
      } catch {
        return null;
      }
    },
    write(token) {
      try {
        window.localStorage.setItem(key, token);
      } catch {
        // The session still works for this page view.
      }
    },
    clear() {
      try {
        window.localStorage.removeItem(key);
      } catch {
        // Nothing stored, nothing to clear.
      }
    },
  };
}
