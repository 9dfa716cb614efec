import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect } from 'react';
import { useRuntime } from '../app/context.tsx';
import { useModalSearch, useUpdateModalSearch } from '../auth/useModalSearch.ts';
import { loadTemporal } from '../../machines/temporal.ts';
import { loadFeatureMessages } from '../i18n/i18n.ts';

const AccountModal = lazy(async () => {
  const [module] = await Promise.all([
    import('./AccountModal.tsx'),
    loadFeatureMessages('account'),
    loadTemporal(),
  ]);
  return module;
});

/**
 * Mounts the account modal while account_tab is in the URL (spec 2.8). It requires login: a logged-out
 * visitor gets the auth modal instead (account_tab stays, so the account opens once logged in).
 */
export function AccountModalMount() {
  const { session } = useRuntime();
  const search = useModalSearch();
  const updateSearch = useUpdateModalSearch();
  // A re-validation of a known user (after a profile update or a language change) keeps the modal open.
  const sessionState = useSelector(session, (state) =>
    state.matches('loggedIn') || (state.matches('validating') && state.context.user !== null)
      ? 'in'
      : state.matches('loggedOut')
        ? 'out'
        : 'checking',
  );
  const wanted = search.account_tab !== undefined;
  const authOpen = Boolean(search.auth_tab || search.reset_token || search.verify_email);

  useEffect(() => {
    if (wanted && sessionState === 'out' && !authOpen) {
      void updateSearch((previous) => ({ ...previous, auth_tab: 'login' }));
    }
  }, [wanted, sessionState, authOpen, updateSearch]);

  if (!wanted || sessionState !== 'in') return null;
  return (
    <Suspense fallback={null}>
      <AccountModal />
    </Suspense>
  );
}
