import { fromPromise } from 'xstate';
import { expectData, expectOk, type ApiClient } from './api.ts';
import type { ConfirmCodeInput, RegisterInput, ResendCodeInput } from './authModal.machine.ts';
import type { components } from '../openapi/schema.gen.ts';

type LocaleCode = components['schemas']['LocaleCode'];

/** The auth modal's calls over the typed client (docs/decisions.md, 'Contract and API'); `getLocale` names the language of e-mails and SMS. */
export function createAuthModalActors(api: ApiClient, getLocale: () => LocaleCode) {
  return {
    login: fromPromise<string, { email: string; password: string }>(async ({ input }) => {
      const data = await expectData(
        api.POST('/auth/login', {
          body: { username: input.email, password: input.password },
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        }),
      );
      return data.access_token;
    }),
    register: fromPromise<string, RegisterInput>(async ({ input }) => {
      const data = await expectData(api.POST('/auth/register', { body: { ...input, locale: getLocale() } }));
      return data.message;
    }),
    forgotPassword: fromPromise<void, { email: string }>(({ input }) =>
      expectOk(api.POST('/auth/forgot-password', { params: { query: { email: input.email } } })),
    ),
    resetPassword: fromPromise<void, { token: string; password: string }>(({ input }) =>
      expectOk(
        api.POST('/auth/reset-password/{reset_token}', {
          params: { path: { reset_token: input.token } },
          body: { new_password: input.password },
        }),
      ),
    ),
    confirmCode: fromPromise<void, ConfirmCodeInput>(({ input }) => {
      const path = { params: { path: { code: input.code } } };
      return expectOk(
        input.channel === 'email'
          ? api.GET('/auth/confirm-email/{code}', path)
          : api.GET('/auth/confirm-phone-number/{code}', path),
      );
    }),
    resendCode: fromPromise<void, ResendCodeInput>(({ input }) => {
      const body = { body: { email: input.email } };
      return expectOk(
        input.channel === 'email'
          ? api.POST('/auth/resend-email-verification', body)
          : api.POST('/auth/resend-phone-verification', body),
      );
    }),
  };
}
