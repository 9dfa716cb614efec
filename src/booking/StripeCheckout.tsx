import { EmbeddedCheckout, EmbeddedCheckoutProvider } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useEffect, useMemo } from 'react';

const stripes = new Map<string, Promise<Stripe | null>>();

function stripeFor(key: string): Promise<Stripe | null> {
  let pending = stripes.get(key);
  if (!pending) {
    pending = loadStripe(key);
    stripes.set(key, pending);
  }
  return pending;
}

/** Stripe's Embedded Checkout; a failure to load Stripe.js reports 'payment provider failed to initialize'. */
export default function StripeCheckout({
  publishableKey,
  clientSecret,
  onFailed,
}: {
  publishableKey: string;
  clientSecret: string;
  onFailed: () => void;
}) {
  const stripe = useMemo(() => stripeFor(publishableKey), [publishableKey]);
  useEffect(() => {
    stripe.then((loaded) => (loaded ? undefined : onFailed())).catch(() => onFailed());
  }, [stripe, onFailed]);
  const options = useMemo(() => ({ clientSecret }), [clientSecret]);
  return (
    <EmbeddedCheckoutProvider stripe={stripe} options={options}>
      <EmbeddedCheckout />
    </EmbeddedCheckoutProvider>
  );
}
