import type { Page } from '@playwright/test';

/**
 * A picture for docs/screenshots, taken only by `npm run screenshots` (DOC_SCREENSHOTS=1): `npm test` leaves the
 * tracked pictures alone, so it never dirties the work tree.
 */
export async function docScreenshot(page: Page, name: string, fullPage = false): Promise<void> {
  if (process.env.DOC_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage });
}
