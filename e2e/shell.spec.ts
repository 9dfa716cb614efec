import { expect, test } from './support/test.ts';
import { open, simulateLoggedIn, waitForBranches } from './support/fixtures.ts';

test.describe('app shell', () => {
  test('the loader covers the page and takes clicks while a request is in flight', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/bookings/branches?*', async (route) => {
      await held;
      await route.continue();
    });
    await open(page, '/en');
    const loader = page.getByTestId('global-loader');
    await expect(loader).toBeVisible();
    const login = page.getByRole('button', { name: 'Log in or sign up' });
    const box = await login.boundingBox();
    if (!box) throw new Error('the login button has no box');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page).not.toHaveURL(/auth_tab/);
    release();
    await expect(loader).toHaveCount(0);
    await login.click();
    await expect(page).toHaveURL(/auth_tab=login/);
  });

  test('a logged-out visitor sees login-or-register and no user menu', async ({ page }) => {
    await open(page, '/en');
    await expect(page.getByRole('button', { name: 'Log in or sign up' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Book now', exact: true })).toHaveCount(0);
  });

  test('a logged-in user sees book-now and the user menu, which closes on an outside click', async ({
    page,
  }) => {
    await simulateLoggedIn(page);
    await open(page, '/en');
    await waitForBranches(page);
    await expect(page.getByRole('button', { name: 'Book now', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'My bookings' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
    await page.mouse.click(600, 500);
    await expect(page.getByRole('menu')).toHaveCount(0);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('button', { name: 'Log in or sign up' })).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  });

  test('book-now with several active branches scrolls to the branches', async ({ page }) => {
    await simulateLoggedIn(page);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await open(page, '/en');
    await waitForBranches(page);
    await page.getByRole('button', { name: 'Book now', exact: true }).click();
    await expect(page).toHaveURL(/#branches$/);
    await expect(page.locator('#branches')).toBeInViewport();
  });

  test('a stored token that the server refuses is dropped (logged out)', async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('token', 'expired'));
    await open(page, '/en');
    await expect(page.getByRole('button', { name: 'Log in or sign up' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  });
});
