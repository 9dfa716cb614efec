import { expect, test } from '@playwright/test';

// Run with `npm run screenshots` (its own Playwright project): writes docs/screenshots/*.png.
const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const locale of ['pt', 'en']) {
    for (const page of ['landing', 'rights'] as const) {
      test(`${page} in ${locale} on a ${device}`, async ({ browser }) => {
        const context = await browser.newContext({
          viewport,
          reducedMotion: 'reduce',
          locale: `${locale}-PT`,
        });
        const tab = await context.newPage();
        await tab.goto(page === 'landing' ? `/${locale}` : `/${locale}/rights`);
        await expect(tab.locator('html[data-app-ready="true"]')).toHaveCount(1);
        if (page === 'landing') await expect(tab.locator('#branches img').first()).toBeVisible();
        else await expect(tab.locator('#cookies-notice')).toBeVisible();
        await expect(tab.getByTestId('global-loader')).toHaveCount(0);
        // Lazy images below the fold load once scrolled to.
        await tab.evaluate(async () => {
          for (let y = 0; y < document.body.scrollHeight; y += 600) {
            window.scrollTo(0, y);
            await new Promise((resolve) => setTimeout(resolve, 40));
          }
          window.scrollTo(0, 0);
        });
        await tab.waitForLoadState('networkidle');
        await tab.screenshot({ path: `docs/screenshots/${page}-${locale}-${device}.png`, fullPage: true });
        await tab.screenshot({ path: `docs/screenshots/${page}-${locale}-${device}-first-screen.png` });
        await context.close();
      });
    }
  }
}
