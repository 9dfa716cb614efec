import { fromPromise } from 'xstate';
import { ApiError, apiErrorFromResponse, expectData, type ApiClient } from './api.ts';
import type { LocaleCode, User } from './session.machine.ts';

/** The session machine's actors over the typed API client; the token under test goes in its own header. */
export function createSessionActors(api: ApiClient) {
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  return {
    // A refusal (4xx) is an answer; a 5xx or no answer at all is not, and throws so the session is kept.
    validateToken: fromPromise<boolean, { token: string }>(async ({ input }) => {
      const { response, error } = await api.GET('/auth/token/validate', { headers: bearer(input.token) });
      if (response.status >= 500) throw apiErrorFromResponse(response.status, error);
      return response.ok;
    }),
    fetchUser: fromPromise<User, { token: string }>(async ({ input }) => {
      const user = await expectData(api.GET('/auth/me', { headers: bearer(input.token) }));
      if (!user) throw new ApiError(null);
      return user;
    }),
    // PUT /auth/me takes the whole profile: the user's own details, no new password, the new language.
    updateLocale: fromPromise<User, { token: string; user: User; locale: LocaleCode }>(({ input }) =>
      expectData(
        api.PUT('/auth/me', {
          headers: bearer(input.token),
          body: {
            email: input.user.email,
            phone_number: input.user.phone_number,
            first_name: input.user.first_name,
            last_name: input.user.last_name,
            agree_newsletter: input.user.agree_newsletter,
            password: null,
            locale: input.locale,
          },
        }),
      ),
    ),
  };
}

/** Ends the session on the server too (POST /auth/logout); the client forgets its token either way. */
export function endServerSession(api: ApiClient, token: string | null): void {
  if (!token) return;
  api.POST('/auth/logout', { headers: { Authorization: `Bearer ${token}` } }).catch(() => {});
}
