import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { open, waitForBranches } from './support/fixtures.ts';

// Issue 33: the landing adopts its prerendered page without the router (src/app/LandingApp.tsx), which loads with
// the first interaction that needs it; that interaction is done once the router is there, the page stays the one
// the browser parsed, and every link and modal address works as before.

const dist = path.resolve(import.meta.dirname, '..', process.env.E2E_DIST_DIR ?? 'dist');

/** The files of the router's app (src/app/routed.tsx) that carry TanStack Router, from the build's chunk graph. */
function routerFiles(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; imports?: string[] }
  >;
  const modules = JSON.parse(readFileSync(path.join(dist, '.vite', 'chunk-modules.json'), 'utf8')) as Record<
    string,
    string[]
  >;
  const routed = manifest['src/app/routed.tsx'];
  if (!routed) throw new Error('no src/app/routed.tsx in the build');
  const files = [routed.file, ...(routed.imports ?? []).map((key) => manifest[key]?.file ?? key)];
  const router = files.filter((file) =>
    (modules[file] ?? []).some((module) => module.includes('@tanstack/')),
  );
  expect(router.length).toBeGreaterThan(0);
  return [routed.file, ...router];
}

/**
 * Opens `address`, recording the scripts the page asks for and its console errors (a hydration mismatch is one),
 * and keeping the hero the browser parsed from the prerendered HTML, before any script ran.
 */
async function visit(page: Page, address: string) {
  const scripts: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname.slice(1));
  });
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  const router = routerFiles();
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { prerendered: Element | null }).prerendered = document.querySelector('#root h1');
    });
  });
  await open(page, address);
  return {
    errors,
    routerRequested: () => scripts.filter((file) => router.includes(file)),
  };
}

const stillPrerendered = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { prerendered: Element | null }).prerendered ===
      document.querySelector('#root h1'),
  );

test.describe('the landing without the router', () => {
  test('is adopted without the router, which comes with the first click, and that click opens its modal', async ({
    page,
  }) => {
    const seen = await visit(page, '/pt');
    await waitForBranches(page);
    // The live runtime has taken over (the branches are there) and nothing asked for the router.
    expect(seen.routerRequested()).toEqual([]);

    await page.getByRole('button', { name: 'Reservar em Porto – Boavista' }).click();
    await expect(page).toHaveURL(/booking_tab=bookSessions/);
    await expect(page).toHaveURL(/booking_branch_id=2/);
    await expect(page.getByRole('dialog', { name: 'Porto – Boavista' })).toBeVisible();
    expect(seen.routerRequested().length).toBeGreaterThan(0);

    // Closing the modal goes back to the landing, the same page the browser parsed (never rebuilt).
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(/\/pt$/);
    expect(await stillPrerendered(page)).toBe(true);
    expect(seen.errors).toEqual([]);
  });

  test('switches language, follows the footer link and comes back, from a first click before the router', async ({
    page,
  }) => {
    const seen = await visit(page, '/pt');
    await waitForBranches(page);
    // Far down the page: the switch keeps the reader where they were.
    await page.locator('#faq').scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(500);

    expect(seen.routerRequested()).toEqual([]);
    // (A pointer over the button already fetches the router's code, as a sign of what comes.)
    await page.getByRole('button', { name: /^Idioma/ }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/en$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Your gym. Your time. Your personal AI trainer.',
    );
    await expect(page).toHaveTitle(/Private Gym$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    // Not back at the top: the questions are still in view (the texts' new lengths move them a little).
    await expect(page.locator('#faq')).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled / 2);
    expect(await stillPrerendered(page)).toBe(true);

    const cookies = page.getByRole('link', { name: 'Cookie notice and terms' });
    await expect(cookies).toHaveAttribute('href', '/en/rights#cookies-notice');
    await cookies.click();
    await expect(page).toHaveURL(/\/en\/rights#cookies-notice$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rules, terms and privacy');

    await page.goBack();
    await expect(page).toHaveURL(/\/en$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Your gym. Your time. Your personal AI trainer.',
    );
    // And the login from the top bar, on the router's pages now.
    await page.getByRole('button', { name: 'Log in or sign up' }).click();
    await expect(page).toHaveURL(/auth_tab=login/);
    await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible();
    expect(seen.errors).toEqual([]);
  });

  test('scrolls to a section at once, and its address follows with the router', async ({ page }) => {
    const seen = await visit(page, '/pt');
    await waitForBranches(page);
    await page.getByRole('navigation', { name: 'Secções' }).getByRole('link', { name: 'Perguntas' }).click();
    await expect(page).toHaveURL(/\/pt#faq$/);
    await expect(page.locator('#faq')).toBeInViewport();
    expect(seen.routerRequested().length).toBeGreaterThan(0);
    expect(seen.errors).toEqual([]);
  });

  // Each with a control only the live modal has (the first HTML's booking modal is a picture of it).
  for (const [name, address, dialog, control] of [
    ['the login', '/pt?auth_tab=login', 'Iniciar sessão', 'Esqueceu-se da palavra-passe?'],
    [
      'a branch’s booking',
      '/pt?booking_tab=bookSessions&booking_branch_id=1',
      'Lisboa – Avenidas Novas',
      /^Iniciar sessão para reservar em /,
    ],
  ] as const) {
    test(`opens ${name} from its address, over the adopted landing`, async ({ page }) => {
      const seen = await visit(page, address);
      await expect(
        page.getByRole('dialog', { name: dialog }).getByRole('button', { name: control }),
      ).toBeVisible();
      expect(await stillPrerendered(page)).toBe(true);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page).toHaveURL(/\/pt$/);
      expect(seen.errors).toEqual([]);
    });
  }

  test('has real links that work before any script runs', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('/pt');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'O seu ginásio. O seu horário. O seu treinador pessoal de IA.',
    );
    await page.getByRole('link', { name: 'Aviso de cookies e termos' }).click();
    await expect(page).toHaveURL(/\/pt\/rights#cookies-notice$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Regras, termos e privacidade');
    await context.close();
  });

  test('a button pressed before the app has started does what it asked for once the app has adopted the page', async ({
    page,
  }) => {
    // The app's start is held back: the page is the first HTML's, painted, and nothing answers its buttons yet.
    const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    const start = manifest['src/app/start.tsx']?.file;
    if (!start) throw new Error('no src/app/start.tsx in the build');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const startAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route(`**/${start}`, async (route) => {
      asked();
      await released;
      await route.continue();
    });
    await page.goto('/pt', { waitUntil: 'domcontentloaded' });
    await startAsked;
    await page.getByRole('button', { name: 'Entrar ou registar' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    release();
    await expect(page.getByRole('dialog', { name: 'Iniciar sessão' })).toBeVisible();
    await expect(page).toHaveURL(/\/pt\?auth_tab=login$/);
    // Pressed once: one step back is the page without the dialog.
    await page.goBack();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(/\/pt$/);
  });
});
