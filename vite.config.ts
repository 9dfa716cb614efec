import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import babel from '@rolldown/plugin-babel';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import {
  build,
  defineConfig,
  loadEnv,
  type Plugin,
  type ResolveModulePreloadDependenciesFn,
  type Rolldown,
} from 'vite';
import { parseConfig } from './src/config.ts';
import { LOCALES } from './src/i18n/locales.ts';

const PAGES = ['main', 'rights'] as const;
const FIELDS = ['title', 'description', 'keywords'] as const;

function unquote(lines: string[]): string {
  return lines.map((line) => JSON.parse(line.trim()) as string).join('');
}

/** The translated page metadata (explicit ids `meta.<page>.<field>`) of one locale's catalog. */
function readPageMetadata(root: string, locale: string) {
  const text = readFileSync(path.join(root, 'locales', locale, 'messages.po'), 'utf8');
  const messages = new Map<string, string>();
  for (const block of text.split(/\n\s*\n/)) {
    const match = /^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)/m.exec(`${block}\n`);
    if (match?.[1] && match[2])
      messages.set(unquote(match[1].trim().split('\n')), unquote(match[2].trim().split('\n')));
  }
  return Object.fromEntries(
    PAGES.map((page) => [
      page,
      Object.fromEntries(
        FIELDS.map((field) => {
          const value = messages.get(`meta.${page}.${field}`);
          if (!value) throw new Error(`locales/${locale}/messages.po lacks meta.${page}.${field}`);
          return [field, value];
        }),
      ),
    ]),
  );
}

/**
 * Writes dist/page-metadata.json: each locale's translated title, description and keywords and the locale's
 * catalog chunk (the site's name is the server's, COMPANY_NAME). The server puts them into the HTML of /{lang} and /{lang}/rights,
 * because link-preview crawlers run no JavaScript (and the catalog can be preloaded).
 */
function pageMetadata(env: Record<string, string>): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  let mode = 'production';
  let isServerBuild = false;
  return {
    name: 'page-metadata',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      mode = config.mode;
      isServerBuild = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (isServerBuild) return;
      const catalogs: Record<string, string> = {};
      // The rights page's own stylesheet, linked from its HTML so the prerendered page is styled at once.
      const styles: Record<string, string[]> = { main: [], rights: [] };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const source = chunk.facadeModuleId ?? '';
        const match = /locales\/(\w+)\/messages\.po$/.exec(source);
        if (match?.[1]) catalogs[match[1]] = `/${chunk.fileName}`;
        if (source.endsWith('rights.lazy.tsx')) {
          styles.rights = [...(chunk.viteMetadata?.importedCss ?? [])].map((file) => `/${file}`);
        }
      }
      const locales = Object.fromEntries(LOCALES.map((locale) => [locale, readPageMetadata(root, locale)]));
      this.emitFile({
        type: 'asset',
        fileName: 'page-metadata.json',
        source: `${JSON.stringify({ titleSeparator: ' | ', locales, catalogs, styles }, null, 2)}\n`,
      });
    },
    // Renders every locale's pages to HTML (src/prerender.tsx), and the booking modal of an address that opens one
    // (the server fills in the branch), and adds them to page-metadata.json.
    async closeBundle() {
      if (isServerBuild) return;
      // One scratch directory per output directory, so builds into different directories can run at once.
      const serverOut = path.join(
        root,
        'node_modules',
        '.cache',
        `prerender-${createHash('sha256').update(outDir).digest('hex').slice(0, 12)}`,
      );
      await build({
        mode,
        logLevel: 'warn',
        build: { ssr: 'src/prerender.tsx', outDir: serverOut, emptyOutDir: true, sourcemap: false },
      });
      const { prerender, prerenderBookingShell } = (await import(
        pathToFileURL(path.join(serverOut, 'prerender.js')).href
      )) as {
        prerender: (url: string, env: Record<string, string>) => Promise<string>;
        prerenderBookingShell: (locale: string) => Promise<string>;
      };
      const bodies: Record<string, Record<string, string>> = {};
      const bookingShells: Record<string, string> = {};
      for (const locale of LOCALES) {
        bodies[locale] = {
          main: await prerender(`/${locale}`, env),
          rights: await prerender(`/${locale}/rights`, env),
        };
        bookingShells[locale] = await prerenderBookingShell(locale);
      }
      const file = path.join(outDir, 'page-metadata.json');
      const metadata = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, `${JSON.stringify({ ...metadata, bodies, bookingShells }, null, 2)}\n`);
      rmSync(serverOut, { recursive: true, force: true });
    },
  };
}

/**
 * Writes dist/.vite/chunk-modules.json: each JavaScript chunk's file and the source modules bundled into it (paths
 * relative to the project), so the bundle budgets can tell which chunks carry the operator console's code.
 */
function chunkModules(): Plugin {
  let root = process.cwd();
  let isServerBuild = false;
  return {
    name: 'chunk-modules',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      isServerBuild = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (isServerBuild) return;
      const modules: Record<string, string[]> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        modules[chunk.fileName] = chunk.moduleIds
          .filter((id) => !id.startsWith('\0'))
          .map((id) =>
            path
              .relative(root, id.split('?')[0] ?? id)
              .split(path.sep)
              .join('/'),
          );
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/chunk-modules.json',
        source: `${JSON.stringify(modules, null, 2)}\n`,
      });
    },
  };
}

/**
 * Preloads, for a dynamic import, only the chunks its importer has not loaded already. Vite lists every chunk the
 * imported one needs, and its preload helper adds a `<link rel="modulepreload">` to the document for each it has
 * not added before; but the importing chunk's own static imports are loaded by the time its code runs (a module
 * runs after all it imports), so a link for one of them only costs the page's main thread: on the booking modal by
 * address, 0.2 to 1 ms a link, three dozen in the task that asks for the modal (issue 33). The graph
 * is the bundle's, read before Vite writes the lists.
 */
function preloadWhatIsMissing(): { plugin: Plugin; resolveDependencies: ResolveModulePreloadDependenciesFn } {
  let bundle: Rolldown.OutputBundle | null = null;
  const loaded = new Map<string, Set<string>>();
  const loadedWith = (file: string): Set<string> => {
    let files = loaded.get(file);
    if (files) return files;
    files = new Set<string>();
    const pending = [file];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (files.has(next)) continue;
      files.add(next);
      const chunk = bundle?.[next];
      if (chunk?.type === 'chunk') pending.push(...chunk.imports);
    }
    loaded.set(file, files);
    return files;
  };
  return {
    plugin: {
      name: 'preload-what-is-missing',
      apply: 'build',
      generateBundle: {
        order: 'pre',
        handler(_options, output) {
          bundle = output;
          loaded.clear();
        },
      },
    },
    resolveDependencies: (_file, dependencies, { hostId, hostType }) => {
      if (hostType !== 'js' || !bundle?.[hostId]) return dependencies;
      const present = loadedWith(hostId);
      return dependencies.filter((dependency) => !present.has(dependency));
    },
  };
}

/** The files of a directory, at any depth, as paths. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(directory, entry.name)) : [path.join(directory, entry.name)],
  );
}

/**
 * Writes a Brotli and a gzip copy of every compressible file the client serves (scripts, stylesheets, SVG
 * images, fonts that are not compressed already, the web manifest), in dist/assets and beside it (public/'s
 * images; not page-metadata.json, which the server reads), which the server sends to browsers that accept them (@fastify/static `preCompressed`): 3 to 5 times
 * fewer bytes on the wire.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  let isServerBuild = false;
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      isServerBuild = Boolean(config.build.ssr);
    },
    closeBundle() {
      if (isServerBuild) return;
      for (const file of filesUnder(outDir)) {
        if (!/\.(js|mjs|css|svg|ttf|otf|webmanifest|txt|xml|ico)$/.test(file)) continue;
        const source = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

// With Vite 8 the React plugin no longer runs Babel, so Lingui's macros go through @rolldown/plugin-babel.
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  // Checked at build time: a wrong VITE_* value fails the build, not the page.
  parseConfig(env, 'http://localhost');
  const preload = preloadWhatIsMissing();
  return {
    plugins: [
      react(),
      babel({ presets: [linguiTransformerBabelPreset()] }),
      lingui(),
      pageMetadata(env),
      precompress(),
      chunkModules(),
      preload.plugin,
    ],
    server: {
      port: 5173,
      proxy: { '/api': 'http://localhost:3000' },
    },
    build: {
      outDir: 'dist',
      sourcemap: true,
      // dist/.vite/manifest.json: the chunk graph the bundle budgets are measured on (tests/ui/bundle-budgets).
      manifest: true,
      modulePreload: { resolveDependencies: preload.resolveDependencies },
      rolldownOptions: {
        output: {
          // The router in one chunk: the landing page needs it whole, and the console's routes (issue 28) share
          // pieces of it, which split it into many small chunks that compress worse (the landing budget).
          // The languages and the API's error type, which every page loads, in one chunk: new lazy chunks (the
          // booking summary) otherwise split them in two, and the landing page paid a chunk's overhead.
          codeSplitting: {
            groups: [
              // React in a chunk of its own, chosen first: the router's group would otherwise take it in with the
              // router's own dependencies, and the landing, which adopts its page without the router, would load
              // the router's chunk for React (tests/ui/bundle-budgets, e2e/landing-router.spec.ts).
              {
                name: 'react',
                test: /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store)[\\/]/,
              },
              { name: 'router', test: /node_modules[\\/]@tanstack[\\/]/ },
              { name: 'locales', test: /(src[\\/]i18n[\\/]locales|machines[\\/]api)\.ts$/ },
              // Likewise the formats with the dates, and the line icons with the language menu: console pages
              // (issue 32) importing one of them alone split each pair, and the landing page paid two chunks.
              { name: 'temporal', test: /(machines[\\/]temporal|src[\\/]i18n[\\/]format)\.ts$/ },
              {
                name: 'LanguageSelector',
                test: /src[\\/](ui[\\/](DropdownMenu|LineIcon)|shell[\\/](icons|LanguageSelector))\.tsx?$/,
              },
            ],
          },
        },
      },
    },
  };
});
