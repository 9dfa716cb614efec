import { fromPromise, waitFor } from 'xstate';
import { createAuthModalActors } from '../../machines/authModal.actors.ts';
import { authModalMachine } from '../../machines/authModal.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { i18n } from '../i18n/i18n.ts';
import { isLocale } from '../i18n/locales.ts';

/** The auth modal's binding (machines/authModal.machine.ts): login, registration, password reset, verification. */
export const authModalFlow = createFlowBinding(authModalMachine, (runtime) => {
  const { session } = runtime;
  return authModalMachine.provide({
    actors: {
      ...createAuthModalActors(runtime.api, () => (isLocale(i18n.locale) ? i18n.locale : 'pt')),
      // docs/decisions.md, 'Client': opened without link parameters, the modal checks the current token first.
      validateSession: fromPromise(async () => {
        if (!session.getSnapshot().context.token) return false;
        session.send({ type: 'token.validate' });
        const settled = await waitFor(
          session,
          (state) => state.matches('loggedIn') || state.matches('loggedOut'),
        );
        return settled.matches('loggedIn');
      }),
    },
    actions: {
      logIn: (_, params) => session.send({ type: 'token.set', token: params.token }),
    },
  });
});
