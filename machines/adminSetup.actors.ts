import { fromPromise } from 'xstate';
import { expectOk, type ApiClient } from './api.ts';

export function createAdminSetupActors(api: ApiClient) {
  return {
    setPassword: fromPromise<void, { setupToken: string; password: string }>(({ input }) =>
      expectOk(
        api.POST('/admin/auth/setup-password', {
          body: { token: input.setupToken, password: input.password },
        }),
      ),
    ),
  };
}
