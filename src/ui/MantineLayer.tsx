// Mantine and its provider load with the first modal, not with the landing page (first-paint budget).
// Modal and form features import this module lazily and render their content inside <MantineLayer>.
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { darkOnly, theme } from './theme.ts';

export function MantineLayer({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      forceColorScheme="dark"
      defaultColorScheme="dark"
      colorSchemeManager={darkOnly}
      withGlobalClasses={false}
    >
      {children}
    </MantineProvider>
  );
}
