import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The five languages the client's build writes pages for. */
export const LOCALES = ['pt', 'en', 'fr', 'de', 'sk'] as const;

/** The build's index.html as Vite writes it: an empty title (the server names it) and an empty #root. */
const INDEX_HTML = [
  '<!doctype html>',
  '<html lang="pt">',
  '  <head>',
  '    <title></title>',
  '    <script type="module" crossorigin src="/assets/index-abc.js"></script>',
  '  </head>',
  '  <body>',
  '    <div id="root"></div>',
  '  </body>',
  '</html>',
].join('\n');

/**
 * A client build in a temporary folder (for CLIENT_DIST_DIR): the index and the given page-metadata.json, as
 * vite.config.ts writes them. `remove` deletes it.
 */
export function writeClientBuild(metadata: object): { dist: string; remove: () => void } {
  const dist = mkdtempSync(path.join(tmpdir(), 'gym-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(dist, 'page-metadata.json'), JSON.stringify(metadata));
  return { dist, remove: () => rmSync(dist, { recursive: true, force: true }) };
}
