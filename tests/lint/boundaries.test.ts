import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
// The probes are files that do not exist, so they are parsed without type information and only the boundary
// rules run on them (the type-checked rules need a file the TypeScript project knows).
const BOUNDARY_RULES = new Set(['import-x/no-restricted-paths', 'no-restricted-imports']);
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => BOUNDARY_RULES.has(ruleId),
});

async function ruleIdsFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

// ARCHITECTURE.md: openapi/ <- machines/ <- src/; openapi/ <- server/; production code never imports tests.
describe('the import boundaries', () => {
  it('refuse a server module importing the client', async () => {
    const ids = await ruleIdsFor(
      'server/probe.ts',
      "export { DEFAULT_LOCALE } from '../src/i18n/locales.ts';\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('refuse a server module importing test code', async () => {
    const ids = await ruleIdsFor(
      'server/probe.ts',
      "export { DATABASE_TARGETS } from '../tests/server/support/databases.ts';\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('refuse the client importing the server', async () => {
    const ids = await ruleIdsFor('src/probe.ts', "export { loadConfig } from '../server/config.ts';\n");
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('refuse a machine importing React', async () => {
    const ids = await ruleIdsFor('machines/probe.machine.ts', "export { useState } from 'react';\n");
    expect(ids).toContain('no-restricted-imports');
  });

  it('refuse an import that closes a cycle between server folders (catalog importing booking, which imports it)', async () => {
    const ids = await ruleIdsFor(
      'server/catalog/probe.ts',
      "export { createBookingService } from '../booking/index.ts';\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('refuse the kernel importing any module', async () => {
    const ids = await ruleIdsFor(
      'server/kernel/probe.ts',
      "export { createAuthService } from '../accounts/index.ts';\n",
    );
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it('refuse an import past a module’s face, from another module and from the composition root', async () => {
    expect(
      await ruleIdsFor(
        'server/console/probe.ts',
        "export { insertBookings } from '../booking/repository.ts';\n",
      ),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await ruleIdsFor('server/probe.ts', "export { insertBookings } from './booking/repository.ts';\n"),
    ).toEqual([]);
    expect(
      await ruleIdsFor('server/app.ts', "export { insertBookings } from './booking/repository.ts';\n"),
    ).toContain('import-x/no-restricted-paths');
  });

  it('allow a later module to import an earlier one’s face, and a module its own files', async () => {
    expect(
      await ruleIdsFor(
        'server/console/probe.ts',
        "export { createBookingService } from '../booking/index.ts';\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIdsFor('server/booking/probe.ts', "export { insertBookings } from './repository.ts';\n"),
    ).toEqual([]);
  });

  it('allow the server to import the contract types', async () => {
    const ids = await ruleIdsFor(
      'server/probe.ts',
      "import type { paths } from '../openapi/schema.gen.ts';\nexport type Paths = paths;\n",
    );
    expect(ids).toEqual([]);
  });
});
