import { expect, test } from './support/test.ts';
import { open } from './support/fixtures.ts';

test.describe('locale routing', () => {
  test('the root redirects by the locale cookie first', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'locale', value: 'fr', url: baseURL ?? '' }]);
    await open(page, '/');
    await expect(page).toHaveURL(/\/fr$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Votre salle.');
  });

  test.describe('with a German browser', () => {
    test.use({ locale: 'de-DE' });

    test('the root redirects by the browser language when there is no cookie', async ({ page }) => {
      await open(page, '/');
      await expect(page).toHaveURL(/\/de$/);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Ihr Studio.');
    });
  });

  test.describe('with a Spanish browser', () => {
    test.use({ locale: 'es-ES' });

    test('the root falls back to Portuguese', async ({ page }) => {
      await open(page, '/?auth_tab=login');
      await expect(page).toHaveURL(/\/pt\?auth_tab=login$/);
    });
  });

  for (const locale of ['en', 'de', 'sk'] as const)
    test(`the first requests on /${locale} already carry 'locale: ${locale}'`, async ({ page }) => {
      // Issue 17, item 6: the token check and the branches went out as 'pt' before the catalog had loaded.
      await page.addInitScript(() => window.localStorage.setItem('token', 'some-stored-token'));
      const sent = new Map<string, string | undefined>();
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (/\/api\/(auth\/token\/validate|bookings\/branches)$/.test(path) && !sent.has(path))
          sent.set(path, request.headers()['locale']);
      });
      await open(page, `/${locale}`);
      await expect.poll(() => sent.size).toBe(2);
      expect(Object.fromEntries(sent)).toEqual({
        '/api/auth/token/validate': locale,
        '/api/bookings/branches': locale,
      });
    });

  test('switching language keeps the path and the hash, and saves the cookie for a year', async ({
    page,
    context,
  }) => {
    await open(page, '/pt/rights');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Regras, termos e privacidade');
    await page.getByRole('button', { name: /^Idioma/ }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/en\/rights$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rules, terms and privacy');
    await expect(page).toHaveTitle('Rules, terms and privacy | Private Gym');
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'locale');
    expect(cookie?.value).toBe('en');
    expect(cookie?.path).toBe('/');
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);
  });

  test('an unsupported locale falls back to Portuguese and logs an error', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await open(page, '/xx/rights');
    await expect(page).toHaveURL(/\/pt\/rights$/);
    expect(errors.some((text) => text.includes('Unsupported locale "xx"'))).toBe(true);
  });

  test('the server sends the translated metadata with the page, before any script runs', async ({
    request,
  }) => {
    const html = await (await request.get('/fr/rights')).text();
    // The console's dark colours hold from the first style, not from the provider's effect (see index.html).
    expect(html).toContain('<html lang="fr" data-mantine-color-scheme="dark">');
    expect(html).toContain('<title>Règles, conditions et confidentialité | Private Gym</title>');
    expect(html).toMatch(/<meta property="og:url" content="http:\/\/[^"]+\/fr\/rights" \/>/);
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/[^"]+\/fr\/rights" \/>/);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).toMatch(/<meta property="og:image" content="http:\/\/[^"]+\/logo\.svg" \/>/);
    for (const locale of ['pt', 'en', 'fr', 'de', 'sk']) {
      expect(html).toMatch(
        new RegExp(`<link rel="alternate" hreflang="${locale}" href="http://[^"]+/${locale}/rights" />`),
      );
    }
  });

  test('dates, numbers and the page follow the active language', async ({ page }) => {
    await open(page, '/en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page).toHaveTitle('A private gym by the hour, just for you | Private Gym');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/en$/);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the page arrives prerendered in its language, for crawlers and the first paint', async ({ page }) => {
    await page.goto('/sk');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Vaša posilňovňa. Váš čas. Váš osobný AI tréner.',
    );
    await page.goto('/en/rights');
    await expect(page.locator('#gdpr')).toContainText('geral@cnpd.pt');
  });
});
