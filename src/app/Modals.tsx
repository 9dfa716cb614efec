// The modals (auth, account, branch/booking, payment result), rendered as the startup machine arranges them
// (machines/startup.machine.ts: the one place their precedence is written). Each is a lazily loaded chunk, so
// the landing page carries none of their code.
import { lazy, Suspense, useEffect } from 'react';
import { loadTemporal } from '../../machines/temporal.ts';
import { useModalSearch } from '../auth/useModalSearch.ts';
import { loadFeatureMessages } from '../i18n/i18n.ts';
import { useActorSelector, useRuntime } from './context.tsx';
import { removeBookingModalShell } from './first-html-modal.ts';
import { yieldToBrowser } from './yield.ts';

const AuthModal = lazy(async () => {
  const [module] = await Promise.all([import('../auth/AuthModal.tsx'), loadFeatureMessages('account')]);
  return module;
});

const AccountModal = lazy(async () => {
  const [module] = await Promise.all([
    import('../account/AccountModal.tsx'),
    loadFeatureMessages('account'),
    loadTemporal(),
  ]);
  return module;
});

const importBookingModal = () => import('../booking/BookingModal.tsx');
const BookingModal = lazy(async () => {
  const [module] = await Promise.all([importBookingModal(), loadFeatureMessages('booking'), loadTemporal()]);
  return module;
});
// An address that opens the booking modal fetches and runs its code (with its stylesheets) while the branch data
// is on its way, not after it: the modal then shows as soon as the branches are there. Asked for in a task of its
// own: the import first adds a preload link for each of the modal's three dozen chunks, which in the task that
// evaluates this module made it a long one (issue 33).
if (typeof window !== 'undefined' && new URLSearchParams(window.location.search).has('booking_tab'))
  void yieldToBrowser().then(importBookingModal);

const PaymentResult = lazy(async () => {
  const [module] = await Promise.all([
    import('../booking/PaymentResult.tsx'),
    loadFeatureMessages('booking'),
    loadTemporal(),
  ]);
  return module;
});

export function Modals() {
  const { startup } = useRuntime();
  const search = useModalSearch();
  useEffect(() => {
    startup.send({ type: 'search.changed', search });
  }, [startup, search]);
  const modal = useActorSelector(startup, (state) => state.context.modal);
  const behind = useActorSelector(startup, (state) => state.context.behind);
  const base = modal === 'auth' ? behind : modal;
  // The booking modal of the first HTML (src/booking/BookingModalShell.tsx) stays until the live one replaces it,
  // or until the modals are arranged (the live runtime has started) with no booking modal among them.
  const arranged = useActorSelector(startup, (state) => !state.matches('starting'));
  useEffect(() => {
    if (arranged && base !== 'booking') removeBookingModalShell();
  }, [arranged, base]);
  // The modal behind the auth modal steps aside while it is open (its flow keeps its state).
  const hidden = modal === 'auth';
  // Each modal waits for its code in a boundary of its own: the auth modal's chunk, loading when a flow asks for a
  // login, leaves the modal behind it mounted and on screen, and a modal that suspends later blanks only itself.
  return (
    <>
      <Suspense fallback={null}>
        {base === 'account' && <AccountModal hidden={hidden} />}
        {base === 'booking' && <BookingModal hidden={hidden} onShown={removeBookingModalShell} />}
        {base === 'payment' && search.stripe_session_id && (
          <PaymentResult
            key={search.stripe_session_id}
            sessionId={search.stripe_session_id}
            hidden={hidden}
          />
        )}
      </Suspense>
      <Suspense fallback={null}>{modal === 'auth' && <AuthModal />}</Suspense>
    </>
  );
}
