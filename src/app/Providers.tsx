import { I18nProvider } from '@lingui/react';
import { StrictMode, type ReactNode } from 'react';
import { RuntimeContext } from './context.tsx';
import { useLiveRuntime } from './live.ts';
import type { Runtime } from './runtime.ts';
import { i18n } from '../i18n/i18n.ts';

/**
 * What every page renders in: Lingui and the runtime. Over a prerendered page, the first render uses the
 * prerender's state (a first-time, logged-out visitor, no data yet), so it is the prerendered HTML exactly and React
 * adopts that DOM instead of rebuilding it; once the live runtime is there, only what differs (session, branches, a
 * modal) re-renders.
 */
export function Providers({ first, children }: { first: Runtime; children: ReactNode }) {
  const current = useLiveRuntime(first);
  return (
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <RuntimeContext value={current}>{children}</RuntimeContext>
      </I18nProvider>
    </StrictMode>
  );
}
