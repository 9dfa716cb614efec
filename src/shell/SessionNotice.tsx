import { Trans } from '@lingui/react/macro';
import { Alert } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useRuntime } from '../app/context.tsx';

/**
 * Shown while the session could not be checked because the server did not answer (5xx, no network): the user
 * stays logged in, and reads spec 8's message for a failure of 500 and above.
 */
export function SessionNotice() {
  const unavailable = useSelector(useRuntime().session, (state) => state.context.unavailable);
  if (!unavailable) return null;
  return (
    <Alert color="orange" role="alert" className="app__notice">
      <Trans>Ocorreu um erro inesperado. Tente novamente.</Trans>
    </Alert>
  );
}
