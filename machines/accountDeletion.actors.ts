import { fromPromise } from 'xstate';
import { expectOk, type ApiClient } from './api.ts';

export function createAccountDeletionActors(api: ApiClient) {
  return {
    deleteAccount: fromPromise<void>(() => expectOk(api.DELETE('/auth/delete-account'))),
  };
}
