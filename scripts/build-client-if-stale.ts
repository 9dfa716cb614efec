// `npm start` serves the built client. Building takes a while, so it only happens when the build is
// missing or older than any of its sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const sources = [
  'src',
  'locales',
  'public',
  'openapi',
  'index.html',
  'vite.config.ts',
  'lingui.config.ts',
  'package-lock.json',
];

function newestModification(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(target).reduce(
    (newest, entry) => Math.max(newest, newestModification(path.join(target, entry))),
    stats.mtimeMs,
  );
}

// The same directory the server serves (CLIENT_DIST_DIR), so parallel test runs can build apart.
const outDir = path.resolve(root, process.env.CLIENT_DIST_DIR ?? 'dist');
const builtIndex = path.join(outDir, 'index.html');
const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sourcesChangedAt = Math.max(...sources.map((source) => newestModification(path.join(root, source))));

if (builtAt < sourcesChangedAt) {
  console.log('Building the client (dist/ is missing or older than its sources)...');
  execFileSync(
    path.join(root, 'node_modules', '.bin', 'vite'),
    ['build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
