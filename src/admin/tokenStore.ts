import { localStorageTokenStore } from '../app/tokenStore.ts';

/** The operator's token: its own key, never the member's `token` (issue 18: neither accepted where the other belongs). */
export const ADMIN_TOKEN_KEY = 'admin_token';

export const adminTokenStore = localStorageTokenStore(ADMIN_TOKEN_KEY);
