import babel from '@rolldown/plugin-babel';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './tests/sequencer.ts';

export default defineConfig({
  // The client's own transform (vite.config.ts): Lingui's macros compiled as in the build, and the `.po`
  // catalogs importable, so component tests render the real messages of the real catalogs.
  plugins: [babel({ presets: [linguiTransformerBabelPreset()] }), lingui()],
  test: {
    environment: 'node',
    setupFiles: ['tests/setup-temporal.ts', 'tests/setup-dom-teardown.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three files at a time on this two-core machine: with two, a fifth of the cores stayed idle while suites waited
    // on PostgreSQL, child server processes and network timeouts (measured: 427 s with two, 336 s with three).
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          // Migrates once the database every server suite starts from (tests/server/support/template-databases.ts).
          globalSetup: ['tests/server/support/template-databases.ts'],
          // A worker runs suite after suite in one process: the server's modules, PGlite's WebAssembly and the
          // contract's compiled schemas are loaded once per worker, not once per file (a third of the suites'
          // time). The suites share no mocks or globals; each builds its own app on its own database.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: ['tests/server/**'],
          // Clears and then prints the model-based coverage of the machines and of the components.
          globalSetup: ['tests/machines/model/report.ts'],
        },
      },
    ],
  },
});
