import { fromPromise } from 'xstate';
import type { CreatedOperator } from './adminConsole.actors.ts';
import type { NewOperator } from './adminOperator.machine.ts';
import { expectData, type ApiClient } from './api.ts';

/** The new-operator form's call: POST /admin/operators, answering the operator with its setup link and TOTP secret. */
export function createAdminOperatorActors(api: ApiClient) {
  return {
    createOperator: fromPromise<CreatedOperator, NewOperator>(({ input }) =>
      expectData(api.POST('/admin/operators', { body: input })),
    ),
  };
}
