import { fromPromise } from 'xstate';
import { ApiError, expectData, type ApiClient } from './api.ts';
import type { User } from './session.machine.ts';

/** The session machine's actors over the typed API client; the token under test goes in its own header. */
export function createSessionActors(api: ApiClient) {
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  return {
    validateToken: fromPromise<boolean, { token: string }>(async ({ input }) => {
      try {
        const { response } = await api.GET('/auth/token/validate', { headers: bearer(input.token) });
        return response.ok;
      } catch {
        return false;
      }
    }),
    fetchUser: fromPromise<User, { token: string }>(async ({ input }) => {
      const user = await expectData(api.GET('/auth/me', { headers: bearer(input.token) }));
      if (!user) throw new ApiError(null);
      return user;
    }),
  };
}
