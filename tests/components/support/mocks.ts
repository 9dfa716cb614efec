import { vi } from 'vitest';
import type * as Theme from '../../../src/ui/theme.ts';

// What every component test replaces, imported before the features under test (they are imported after it): the
// app's theme by one that respects the test user's wish for reduced motion (app.tsx), so modals open and close
// without transitions and no step waits for an animation.
vi.mock('../../../src/ui/theme.ts', async (importOriginal) => {
  const original = await importOriginal<typeof Theme>();
  return { ...original, theme: { ...original.theme, respectReducedMotion: true } };
});
