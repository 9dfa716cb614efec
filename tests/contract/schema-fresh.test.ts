import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';

const contractUrl = new URL('../../openapi/openapi.yaml', import.meta.url);
const generatedPath = fileURLToPath(new URL('../../openapi/schema.gen.ts', import.meta.url));

/** What `npm run gen:api` writes: the openapi-typescript CLI's output (CLI defaults), formatted by prettier. */
async function generateTypes(): Promise<string> {
  const ast = await openapiTS(contractUrl, {
    // The CLI passes every boolean flag explicitly, false when absent; the Node API defaults this one to true.
    defaultNonNullable: false,
    silent: true,
  });
  const source = `${COMMENT_HEADER}${astToString(ast)}`;
  const config = await prettier.resolveConfig(generatedPath, { editorconfig: true });
  return prettier.format(source, { ...config, filepath: generatedPath });
}

describe('the generated API types', () => {
  it('match the contract, so a stale openapi/schema.gen.ts fails until `npm run gen:api` is run', async () => {
    const [expected, committed] = await Promise.all([generateTypes(), readFile(generatedPath, 'utf8')]);
    expect(
      committed === expected,
      'openapi/schema.gen.ts is out of date with openapi/openapi.yaml: run `npm run gen:api`',
    ).toBe(true);
  });
});
