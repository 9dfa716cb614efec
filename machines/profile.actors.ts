import { fromPromise } from 'xstate';
import { ApiError, expectData, type ApiClient } from './api.ts';
import type { ProfileUpdate } from './profile.machine.ts';
import type { User } from './session.machine.ts';
import type { components } from '../openapi/schema.gen.ts';

export function createProfileActors(api: ApiClient, getLocale: () => components['schemas']['LocaleCode']) {
  return {
    loadProfile: fromPromise<User>(async () => {
      const user = await expectData(api.GET('/auth/me'));
      if (!user) throw new ApiError(null);
      return user;
    }),
    updateProfile: fromPromise<User, ProfileUpdate>(({ input }) =>
      expectData(api.PUT('/auth/me', { body: { ...input, locale: getLocale() } })),
    ),
  };
}
