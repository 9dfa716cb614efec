import babel from '@rolldown/plugin-babel';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The client's own transform (vite.config.ts): Lingui's macros compiled as in the build, and the `.po`
  // catalogs importable, so component tests render the real messages of the real catalogs.
  plugins: [babel({ presets: [linguiTransformerBabelPreset()] }), lingui()],
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    // Clears and then prints the model-based coverage of the machines (tests/machines/*.model.test.ts); migrates
    // once the database every server suite starts from (tests/server/support/template-databases.ts).
    globalSetup: ['tests/machines/model/report.ts', 'tests/server/support/template-databases.ts'],
    setupFiles: ['tests/setup-temporal.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Server tests each create their own PostgreSQL database; two workers match this machine's two cores.
    maxWorkers: 2,
  },
});
