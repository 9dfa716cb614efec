import { createProfileActors } from '../../machines/profile.actors.ts';
import { profileMachine } from '../../machines/profile.machine.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { i18n } from '../i18n/i18n.ts';
import { isLocale } from '../i18n/locales.ts';

/** The profile tab's binding (machines/profile.machine.ts). */
export const profileFlow = createFlowBinding(profileMachine, (runtime) =>
  profileMachine.provide({
    actors: createProfileActors(runtime.api, () => (isLocale(i18n.locale) ? i18n.locale : 'pt')),
    actions: { revalidateSession: () => runtime.session.send({ type: 'token.validate' }) },
  }),
);
