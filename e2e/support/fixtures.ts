import { expect, type Page } from '@playwright/test';

export const SECTION_ORDER = [
  'home',
  'why-private-gym',
  'ai-trainer',
  'how-it-works',
  'branches',
  'faq',
  'pricing',
];

/** Defines Capacitor's platform before the app loads, as the native wrapper does. */
export async function runAsNativeApp(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { CapacitorCustomPlatform: unknown }).CapacitorCustomPlatform = {
      name: 'android',
      plugins: {},
    };
  });
}

/** Accounts arrive in a later issue: a valid session is simulated at the API boundary. */
export async function simulateLoggedIn(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('token', 'e2e-token'));
  await page.route('**/api/auth/token/validate', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ valid: true }) }),
  );
  await page.route('**/api/auth/me', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        email: 'ana@example.pt',
        phone_number: '+351912345678',
        first_name: 'Ana',
        last_name: 'Silva',
        agree_newsletter: true,
        distinct_id: 'e2e-user',
        email_verified: true,
        phone_verified: true,
        locale: 'pt',
      }),
    }),
  );
}

/** Waits until the landing page has its branches (the sections that depend on them are rendered). */
export async function waitForBranches(page: Page): Promise<void> {
  await expect(page.locator('#branches')).toBeVisible();
  await expect(page.getByTestId('global-loader')).toHaveCount(0);
}

/** Opens a page and waits until the app has taken over the prerendered HTML. */
export async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
}
