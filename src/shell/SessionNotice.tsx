import { Trans } from '@lingui/react/macro';
import { useActorSelector, useRuntime } from '../app/context.tsx';

/**
 * Plain markup rather than Mantine's Alert: the shell is on the landing page's JavaScript budget.
 * Shown while the session could not be checked because the server did not answer (5xx, no network): the user
 * stays logged in, and reads the generic failure message (docs/decisions.md, 'Faults and abuse').
 */
export function SessionNotice() {
  const unavailable = useActorSelector(useRuntime().session, (state) => state.context.unavailable);
  if (!unavailable) return null;
  return (
    <p role="alert" className="app__notice">
      <Trans>Ocorreu um erro inesperado. Tente novamente.</Trans>
    </p>
  );
}
