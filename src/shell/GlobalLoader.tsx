import { useLingui } from '@lingui/react/macro';
import { useIsLoading } from '../app/context.tsx';

/**
 * The full-screen loader: while a request is in flight it covers the page and takes every click. The
 * spinner itself fades in after a short delay, so quick requests do not flash.
 */
export function GlobalLoader() {
  const { t } = useLingui();
  const loading = useIsLoading();
  if (!loading) return null;
  return (
    <div
      className="global-loader"
      data-testid="global-loader"
      role="status"
      aria-live="polite"
      aria-label={t`A carregar…`}
    >
      <span className="spinner" />
    </div>
  );
}
