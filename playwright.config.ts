import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = mkdtempSync(path.join(tmpdir(), 'gym-e2e-'));

// e2e runs in Debian's Chromium against the real server (`npm start`: built client + API on one port).
export default defineConfig({
  testDir: 'e2e',
  // Journeys with axe at every step take ~20 s on a quiet 2-core machine; twice that leaves room for a busy one.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  // No more browsers than cores: on a 2-core machine a third one starved axe and the app's start (journeys timed
  // out in axe, a result dialog missed its 7 s).
  workers: Math.max(1, Math.min(process.env.CI ? 2 : 3, availableParallelism())),
  retries: 0,
  forbidOnly: !!process.env.CI,
  // The JSON report feeds the closing line of .ci/run (passed and failed totals).
  reporter: process.env.CI
    ? [
        ['list'],
        ['html', { open: 'never', outputFolder: 'test-results/html' }],
        ['json', { outputFile: 'test-results/playwright.json' }],
      ]
    : [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/artifacts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'pt-PT',
    // The browsers ask for reduced motion, as some users do (the app then shortens its CSS transitions): on this
    // software-rendered Chromium the modals' and menus' animations were a sixth of the suite's CPU. The motion
    // itself stays proved where it matters: booking.spec.ts and auth.spec.ts open their modals with it.
    reducedMotion: 'reduce',
    // No traces by default: recording one (a screenshot of every frame, every network body) was a quarter of the
    // browsers' CPU in the whole suite. `E2E_TRACE=1 npm run test:e2e` records them again, kept for failed tests.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /screenshots\.spec\.ts$/,
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
    // `npm run screenshots` only: refreshes docs/screenshots.
    { name: 'screenshots', testMatch: /screenshots\.spec\.ts$/, use: { channel: undefined } },
  ],
  webServer: {
    command: 'node scripts/build-client-if-stale.ts && node server/main.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // The journeys see no answer the contract does not declare: a wrong body or status is a 500 and fails them.
      VALIDATE_RESPONSES: 'true',
      // The journeys price their bookings without the early-bird coupon the demo would offer every new account;
      // e2e/early-bird.spec.ts runs a server of its own with the offer on (the default).
      EARLY_BIRD_COUPON_CODE: '',
      // E2E_DIST_DIR lets two runs at once (different E2E_PORT) build and serve their own client.
      CLIENT_DIST_DIR: process.env.E2E_DIST_DIR ?? 'dist',
      // Every test browser reaches the server from 127.0.0.1, so the per-IP abuse limits would count the whole
      // suite (some hundred registrations and logins) as one client. Only those are raised; the per-account and
      // per-contact limits keep their production values. The limits themselves are tested in tests/server.
      RATE_LIMITS: [
        'login.ip=5000/15m',
        'register.ip=5000/1h',
        'resend.ip=5000/1h',
        'forgot.ip=5000/1h',
        'confirm.ip=5000/15m',
        'reset.ip=5000/15m',
      ].join(','),
    },
  },
});
