import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccountApp, type AccountApp } from './support/accounts.ts';
import { LOCALES, writeClientBuild } from './support/client-build.ts';
import { createBranch } from './support/fixtures.ts';

// The page of an address that opens a branch's booking modal paints that modal from its first HTML: the modal's
// frame (the build's `bookingShells`, one per locale) with the branch's name and main image after #root, and the
// image preloaded at high priority. Only for an active branch at the booking tab, in every locale.

const texts = { title: 'Gym', description: 'A gym', keywords: 'gym' };
const metadata = {
  titleSeparator: ' | ',
  locales: Object.fromEntries(LOCALES.map((locale) => [locale, { main: texts, rights: texts }])),
  catalogs: {},
  bodies: Object.fromEntries(LOCALES.map((locale) => [locale, { main: `<main>landing ${locale}</main>` }])),
  bookingShells: Object.fromEntries(
    LOCALES.map((locale) => [
      locale,
      `<div data-booking-shell=""><h2>%BRANCH_NAME%</h2><a href="/${locale}">close ${locale}</a><img src="%BRANCH_IMAGE%" alt="%BRANCH_NAME%"/></div>`,
    ]),
  ),
};

const PRELOAD = /<link rel="preload" as="image" fetchpriority="high" href="([^"]*)" \/>/;

describe('the page of an address that opens a branch’s booking modal', () => {
  const build = writeClientBuild(metadata);
  let server: AccountApp;
  let active: number;
  let inactive: number;
  let oddlyNamed: number;

  beforeAll(async () => {
    server = await startAccountApp('pglite', { CLIENT_DIST_DIR: build.dist });
    const { db } = server.app;
    active = await createBranch(db, {
      name: 'Lisboa – Centro',
      images: ['/images/branches/centro-1.svg', '/images/branches/centro-2.svg'],
    });
    inactive = await createBranch(db, {
      activeWithSmartLock: false,
      images: ['/images/branches/closed-1.svg'],
    });
    oddlyNamed = await createBranch(db, {
      name: 'Tom & "Jerry" <Gym>',
      images: ['/images/branches/a"b.svg'],
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    build.remove();
  });

  const html = async (url: string) => {
    const response = await server.app.inject({ url });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('preloads the branch’s main image at high priority in its head, in every locale', async () => {
    for (const locale of LOCALES) {
      const page = await html(`/${locale}?booking_tab=bookSessions&booking_branch_id=${active}`);
      const head = page.slice(0, page.indexOf('</head>'));
      expect(head.match(PRELOAD)?.[1], locale).toBe('/images/branches/centro-1.svg');
    }
  });

  it('carries the locale’s modal with the branch’s name and image after the landing, in every locale', async () => {
    for (const locale of LOCALES) {
      const page = await html(`/${locale}?booking_tab=bookSessions&booking_branch_id=${active}`);
      const body = page.slice(page.indexOf('<body>'));
      const [root, shell] = [
        `<div id="root"><main>landing ${locale}</main></div>`,
        `<div data-booking-shell=""><h2>Lisboa – Centro</h2><a href="/${locale}">close ${locale}</a><img src="/images/branches/centro-1.svg" alt="Lisboa – Centro"/></div>`,
      ];
      // After the prerendered landing (which React adopts), not inside it.
      expect(body.indexOf(root), locale).toBeGreaterThan(-1);
      expect(body.indexOf(shell), locale).toBeGreaterThan(body.indexOf(root) + root.length - 1);
      expect(body).not.toContain('%BRANCH_');
    }
  });

  it('escapes the branch’s name and image', async () => {
    const page = await html(`/en?booking_tab=bookSessions&booking_branch_id=${oddlyNamed}`);
    expect(page).toContain('<h2>Tom &amp; &quot;Jerry&quot; &lt;Gym&gt;</h2>');
    expect(page).toContain(
      '<img src="/images/branches/a&quot;b.svg" alt="Tom &amp; &quot;Jerry&quot; &lt;Gym&gt;"/>',
    );
    expect(page.match(PRELOAD)?.[1]).toBe('/images/branches/a&quot;b.svg');
  });

  it('preloads no code of the app in its head: the app loads after the first paint, as on the landing', async () => {
    const page = await html(`/pt?booking_tab=bookSessions&booking_branch_id=${active}`);
    expect(page).not.toContain('rel="modulepreload"');
  });

  it('has neither the preload nor the modal for an unknown or inactive branch, another tab or modal, or another page', async () => {
    for (const url of [
      '/pt',
      `/pt?booking_branch_id=${active}`,
      '/pt?booking_tab=bookSessions',
      '/pt?booking_tab=bookSessions&booking_branch_id=999999',
      '/pt?booking_tab=bookSessions&booking_branch_id=abc',
      `/pt?booking_tab=bookSessions&booking_branch_id=${inactive}`,
      `/pt?booking_tab=branchInformation&booking_branch_id=${active}`,
      `/pt?booking_tab=bookSessions&booking_branch_id=${active}&auth_tab=login`,
      `/pt?booking_tab=bookSessions&booking_branch_id=${active}&move_booking_id=3`,
      `/pt/rights?booking_tab=bookSessions&booking_branch_id=${active}`,
    ]) {
      const page = await html(url);
      expect(page, url).not.toMatch(PRELOAD);
      expect(page, url).not.toContain('data-booking-shell');
    }
  });
});
