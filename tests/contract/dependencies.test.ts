import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 26, item 7: the `seam` package brought Seam's CLI, its setup wizard, an AI coding agent and Google's
// generative AI client into production; the server needs Seam's HTTP client only. The production tree is read
// from package-lock.json (what `npm ci` installs): every package reachable from the root's dependencies, each
// name resolved as Node and npm do (the nearest node_modules up the path), without a subprocess or the network.

type LockedPackage = {
  name?: string;
  version?: string;
  dev?: boolean;
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

const root = path.resolve(import.meta.dirname, '../..');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockedPackage>;
};
const packages = lock.packages;

/** Where `name`, required from the package at `from`, is installed: the nearest node_modules up the path. */
function resolve(from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (candidate in packages) return candidate;
    if (!base) return null;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** Every location reachable from the root's production dependencies, with the names that could not be found. */
function productionTree(): { locations: Set<string>; missing: string[] } {
  const locations = new Set<string>();
  const missing: string[] = [];
  const visit = (location: string) => {
    if (locations.has(location)) return;
    locations.add(location);
    const entry = packages[location]!;
    if (entry.link && entry.resolved !== undefined) visit(entry.resolved);
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const required = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional),
    ];
    for (const name of required) {
      const found = resolve(location, name);
      if (found) visit(found);
      else missing.push(`${name} (from ${location || 'the root'})`);
    }
    // An optional dependency or peer is in the tree when it is installed (a platform's binary, say).
    for (const name of [...Object.keys(entry.optionalDependencies ?? {}), ...Object.keys(optionalPeers)]) {
      const found = resolve(location, name);
      if (found) visit(found);
    }
  };
  visit('');
  locations.delete('');
  return { locations, missing };
}

const nameAt = (location: string) =>
  location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('the production dependency tree', () => {
  const { locations, missing } = productionTree();
  const names = new Set([...locations].map(nameAt));

  it('is read from a complete version 3 lockfile that flags none of it as a development dependency', () => {
    expect(lock.lockfileVersion).toBe(3);
    expect(missing).toEqual([]);
    expect([...locations].filter((location) => packages[location]?.dev)).toEqual([]);
  });

  it('has Seam’s HTTP client and webhook verifier, pinned, and no CLI, wizard, coding agent or AI client', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies['@seamapi/http']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.dependencies['@seamapi/webhook']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(names.has('@seamapi/http')).toBe(true);
    expect(names.has('@seamapi/webhook')).toBe(true);
    for (const unwanted of [
      'seam',
      '@seamapi/cli',
      '@seamapi/wizard',
      '@google/genai',
      '@earendil-works/pi-coding-agent',
      '@earendil-works/pi-ai',
    ]) {
      expect(names.has(unwanted), unwanted).toBe(false);
    }
  });
});
