import { useSearch } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import type { ModalSearch } from '../../machines/modal-search.ts';
import { loadTemporal } from '../../machines/temporal.ts';
import { loadFeatureMessages } from '../i18n/i18n.ts';

const BookingModal = lazy(async () => {
  const [module] = await Promise.all([
    import('./BookingModal.tsx'),
    loadFeatureMessages('booking'),
    loadTemporal(),
  ]);
  return module;
});

const PaymentResult = lazy(async () => {
  const [module] = await Promise.all([
    import('./PaymentResult.tsx'),
    loadFeatureMessages('booking'),
    loadTemporal(),
  ]);
  return module;
});

/** Mounts the booking modal while booking_tab is in the URL (spec 2.7); its code loads only then. */
export function BookingModalMount() {
  const search = useSearch({ strict: false }) as ModalSearch;
  if (!search.booking_tab) return null;
  return (
    <Suspense fallback={null}>
      <BookingModal />
    </Suspense>
  );
}

/** Mounts the payment result while stripe_session_id is in the URL (spec 4, 'Payment session'). */
export function PaymentResultMount() {
  const search = useSearch({ strict: false }) as ModalSearch;
  if (!search.stripe_session_id) return null;
  return (
    <Suspense fallback={null}>
      <PaymentResult key={search.stripe_session_id} sessionId={search.stripe_session_id} />
    </Suspense>
  );
}
