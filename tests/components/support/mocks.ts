import { vi } from 'vitest';

// What every component test replaces, imported before the features under test (they are imported after it):
// - Lingui's macros by their run-time stand-ins (lingui-macro.tsx): vitest.config.ts runs no macro transform;
// - the app's theme by one that respects the test user's wish for reduced motion (app.tsx), so modals open and
//   close without transitions and no step waits for an animation.
vi.mock('@lingui/react/macro', () => import('./lingui-macro.tsx'));
vi.mock('@lingui/core/macro', () => import('./lingui-macro.tsx'));
vi.mock('../../../src/ui/theme.ts', async (importOriginal) => ({
  theme: { ...(await importOriginal<{ theme: object }>()).theme, respectReducedMotion: true },
}));
