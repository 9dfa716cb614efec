import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { environmentSchema } from '../../server/config.ts';

// The README is a newcomer's first page: its configuration table and its Node version are checked against
// what the code reads (server/config.ts's schema) and what package.json declares.

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function configurationTableKeys(): string[] {
  const section = readme.split('\n## Configuration\n')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `([A-Z0-9_]+)`\s*\|/gm)].map((match) => match[1]!);
}

describe('the README', () => {
  it('lists every configuration variable the server reads, and no other, in its configuration table', () => {
    const documented = configurationTableKeys();
    expect(documented.length).toBeGreaterThan(0);
    expect(new Set(documented).size, 'a variable listed twice').toBe(documented.length);
    expect([...documented].sort()).toEqual(Object.keys(environmentSchema.shape).sort());
  });

  it("names the Node.js version package.json's engines asks for", () => {
    const engines = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        engines: { node: string };
      }
    ).engines.node;
    const minimum = /^>=\s*(\d+(?:\.\d+)*)$/.exec(engines)?.[1];
    expect(minimum, `engines.node is "${engines}"`).toBeDefined();
    expect(readme).toContain(`Needs Node.js ≥ ${minimum} `);
  });
});
