import { lazy, Suspense } from 'react';
import { loadFeatureMessages } from '../i18n/i18n.ts';
import { useModalSearch } from './useModalSearch.ts';

const AuthModal = lazy(async () => {
  const [module] = await Promise.all([import('./AuthModal.tsx'), loadFeatureMessages('account')]);
  return module;
});

/** Mounts the auth modal while its parameters are in the URL (spec 2.6); its code loads only then. */
export function AuthModalMount() {
  const search = useModalSearch();
  const open = Boolean(search.auth_tab || search.reset_token || search.verify_email);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <AuthModal />
    </Suspense>
  );
}
