import { fromPromise } from 'xstate';
import { expectData, expectOk, type ApiClient } from './api.ts';
import type { AdminCredentials, Operator } from './adminSession.machine.ts';

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

export function createAdminSessionActors(api: ApiClient) {
  return {
    fetchOperator: fromPromise<Operator, { token: string }>(async ({ input }) => {
      const operator = await expectData(api.GET('/admin/me', bearer(input.token)));
      return { email: operator.email, role: operator.role, branch_ids: operator.branch_ids };
    }),
    logIn: fromPromise<{ token: string; operator: Operator }, AdminCredentials>(async ({ input }) => {
      const answer = await expectData(api.POST('/admin/auth/login', { body: input }));
      return {
        token: answer.access_token,
        operator: {
          email: answer.operator.email,
          role: answer.operator.role,
          branch_ids: answer.operator.branch_ids,
        },
      };
    }),
    logOut: fromPromise<void, { token: string }>(({ input }) =>
      expectOk(api.POST('/admin/auth/logout', bearer(input.token))),
    ),
  };
}
