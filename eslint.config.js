import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The server's folders in dependency order (ARCHITECTURE.md): each imports only folders before it, so no import
// cycle can join two of them. The composition root (app.ts, main.ts) comes after all; config.ts before all.
export const SERVER_ORDER = [
  'db',
  'kernel',
  'adapters',
  'http',
  'notifications',
  'catalog',
  'accounts',
  'doors',
  'booking',
  'invoicing',
  'operators',
  'console',
  'jobs',
  'demo',
  'admin',
];
// The modules among them: entered from outside only through their face, `index.ts`.
export const SERVER_MODULES = SERVER_ORDER.slice(
  SERVER_ORDER.indexOf('notifications'),
  SERVER_ORDER.indexOf('console') + 1,
);
// The composition root: app.ts and main.ts for the server, modules.ts for both (the CLI, last, may import it).
const SERVER_ROOT_FILES = ['./server/app.ts', './server/main.ts', './server/modules.ts'];

const serverLayers = SERVER_ORDER.map((folder, index) => ({
  target: `./server/${folder}`,
  from: [
    ...SERVER_ORDER.slice(index + 1).map((later) => `./server/${later}`),
    ...SERVER_ROOT_FILES.filter((file) => folder !== 'admin' || file !== './server/modules.ts'),
  ],
  message: `server/${folder} may import only the server folders before it (${SERVER_ORDER.slice(0, index).join(', ') || 'none'}); a later module reaches it through a port given by the composition root.`,
}));
const serverFaces = SERVER_MODULES.map((module) => ({
  target: [
    ...SERVER_ORDER.filter((folder) => folder !== module).map((folder) => `./server/${folder}`),
    ...SERVER_ROOT_FILES,
  ],
  from: `./server/${module}`,
  except: ['./index.ts'],
  message: `Import server/${module} through its face, server/${module}/index.ts.`,
}));

// The dependency direction of ARCHITECTURE.md: openapi <- machines <- src; openapi <- server.
// Production code never imports tests or e2e.
const boundaries = {
  'import-x/no-restricted-paths': [
    'error',
    {
      zones: [
        ...serverLayers,
        ...serverFaces,
        {
          target: './server',
          from: ['./src', './machines', './tests', './e2e'],
          message: 'server/ must not import the client, machines or tests.',
        },
        {
          target: './machines',
          from: ['./src', './server', './tests', './e2e'],
          message: 'machines/ must not import src/, server/ or tests.',
        },
        {
          target: './src',
          from: ['./server', './tests', './e2e'],
          message: 'src/ must not import server/ or tests.',
        },
        {
          target: './openapi',
          from: ['./src', './server', './machines', './tests', './e2e'],
          message: 'openapi/ depends on nothing.',
        },
      ],
    },
  ],
  'no-restricted-imports': 'off',
};

const machinePurity = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: ['react', 'react-dom', 'react/*', '@mantine/*', '@lingui/*', '@tanstack/*'],
          message: 'machines/ stay free of UI, i18n and router imports.',
        },
      ],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-*/',
      'data/',
      'coverage/',
      'openapi/schema.gen.ts',
      'android/',
      'ios/',
      'locales/**/*.ts',
      'test-results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        projectService: {
          allowDefaultProject: ['capacitor.config.ts', 'playwright.config.ts', 'eslint.config.js'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    rules: {
      ...boundaries,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // TanStack Router's `redirect()` answers a Response to throw from `beforeLoad` (its documented pattern).
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: '@tanstack/router-core', name: 'Redirect' }] },
      ],
      // XState's `types: { input: {} as T }` asserts only to drive inference, which the rule cannot see.
      '@typescript-eslint/no-unnecessary-type-assertion': ['error', { typesToIgnore: ['AuthModalInput'] }],
      // An async function that meets a Promise-returning contract (Fastify's async hooks, the adapters' ports,
      // XState's fromPromise) is those libraries' pattern; dropping `async` would make its throws synchronous.
      '@typescript-eslint/require-await': 'off',
    },
  },
  { files: ['machines/**'], rules: machinePurity },
  // The rules of hooks and the React Compiler's checks (refs, purity, state in effects) on the React code.
  { files: ['src/**/*.tsx', 'src/**/*.ts'], ...reactHooks.configs.flat.recommended },
);
