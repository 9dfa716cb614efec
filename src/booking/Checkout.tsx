import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useRuntime } from '../app/context.tsx';

// Stripe.js loads only with this chunk, and only when a publishable key is configured.
const StripeCheckout = lazy(() => import('./StripeCheckout.tsx'));

/** The local provider's session id is the client secret's part before '_secret_'. */
function sessionIdOf(clientSecret: string): string {
  return clientSecret.split('_secret_')[0] ?? clientSecret;
}

/** The embedded checkout: Stripe's when configured, otherwise the server's local test checkout page. */
export function Checkout({
  clientSecret,
  failed,
  onFailed,
}: {
  clientSecret: string;
  failed: boolean;
  onFailed: () => void;
}) {
  const { t } = useLingui();
  const { config } = useRuntime();
  if (failed) {
    return (
      <Alert color="red" role="alert">
        <Trans>O fornecedor de pagamentos não conseguiu iniciar.</Trans>
      </Alert>
    );
  }
  if (config.stripePublishableKey) {
    return (
      <Suspense fallback={<Loader aria-label={t`A carregar o pagamento`} />}>
        <StripeCheckout
          publishableKey={config.stripePublishableKey}
          clientSecret={clientSecret}
          onFailed={onFailed}
        />
      </Suspense>
    );
  }
  return (
    <iframe
      className="checkout-frame"
      title={t`Pagamento`}
      src={`${config.apiBaseUrl}/checkout/local/${encodeURIComponent(sessionIdOf(clientSecret))}`}
    />
  );
}
