import { expect, test } from './support/test.ts';
import { SECTION_ORDER, open, simulateLoggedIn, waitForBranches } from './support/fixtures.ts';
import { axeViolations } from './support/axe.ts';

test.describe('landing page', () => {
  test('shows every section in order, each under its anchor', async ({ page }) => {
    await open(page, '/pt');
    await waitForBranches(page);
    const ids = await page
      .locator('main section[id]')
      .evaluateAll((sections) => sections.map((section) => section.id));
    expect(ids).toEqual(SECTION_ORDER);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'O seu ginásio. O seu horário. O seu treinador pessoal de IA.',
    );
    await expect(page.locator('#why-private-gym li.feature')).toHaveCount(6);
    await expect(page.locator('#how-it-works li.step')).toHaveCount(4);
    await expect(page.locator('#ai-trainer')).toContainText('Brevemente');
  });

  test('loads both pages with nothing refused by the Content-Security-Policy and no error in the console', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    for (const path of ['/de/rights', '/pt']) {
      await open(page, path);
      // The site-facts block is data (type application/json), which no browser runs.
      const inline = page.locator('script:not([src]):not([type="application/json"])');
      expect(await inline.count(), `inline scripts on ${path}`).toBe(0);
    }
    await waitForBranches(page);
    expect(errors).toEqual([]);
  });

  test('adopts the prerendered landing instead of rebuilding it, with no hydration mismatch', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    // The prerendered hero, as the browser parsed it before any script ran.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { prerendered: Element | null }).prerendered =
          document.querySelector('#root h1');
      });
    });
    for (const path of ['/pt', '/en']) {
      await open(page, path);
      await waitForBranches(page);
      const adopted = await page.evaluate(
        () =>
          (window as unknown as { prerendered: Element | null }).prerendered ===
          document.querySelector('#root h1'),
      );
      expect(adopted, `the prerendered hero of ${path} is still the one on the page`).toBe(true);
    }
    // React reports a mismatch (or a render that fell back to the client) as an error in the console.
    expect(errors.filter((text) => /hydrat|#418|#423|#425/i.test(text))).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('keeps the landing still while the app takes over and the branches arrive, on a phone', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 412, height: 823 });
    // The branches answer late, after the app has adopted the page, as on a slow network.
    await page.route(/\/api\/branches/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[])
          if (!entry.hadRecentInput) shifts.push(entry.value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await open(page, '/pt');
    await waitForBranches(page);
    await expect(page.getByRole('button', { name: 'Ver os nossos espaços' })).toBeVisible();
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    expect(shifts).toEqual([]);
  });

  test('shows bookable branches with a button and the coming-soon branch greyed out without one', async ({
    page,
  }) => {
    await open(page, '/en');
    await waitForBranches(page);
    const cards = page.locator('#branches li.branch-card');
    await expect(cards).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Book now at Lisboa – Avenidas Novas' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Book now at Porto – Boavista' })).toBeVisible();
    const soon = page.locator('li.branch-card--soon');
    await expect(soon).toHaveCount(1);
    await expect(soon).toContainText('Coming soon');
    await expect(soon.getByRole('button')).toHaveCount(0);
    for (const description of await page.locator('.branch-card__description').allTextContents()) {
      expect(description.length).toBeLessThanOrEqual(145);
    }
    await expect(page.locator('.branch-card__description').first()).toHaveText(/\.\.\.$/);
  });

  test('opens the booking modal parameters from a branch card', async ({ page }) => {
    await open(page, '/en');
    await waitForBranches(page);
    await page.getByRole('button', { name: 'Book now at Porto – Boavista' }).click();
    await expect(page).toHaveURL(/booking_tab=bookSessions/);
    await expect(page).toHaveURL(/booking_branch_id=2/);
  });

  test('keeps at most one FAQ answer open', async ({ page }) => {
    await open(page, '/en');
    await waitForBranches(page);
    const faq = page.locator('#faq');
    const first = faq.getByRole('button', { name: 'Do I need a membership or a monthly fee?' });
    const last = faq.getByRole('button', { name: 'Can I cancel a booking?' });
    await first.click();
    await expect(first).toHaveAttribute('aria-expanded', 'true');
    await expect(faq.getByRole('region')).toHaveCount(1);
    await last.click();
    await expect(last).toHaveAttribute('aria-expanded', 'true');
    await expect(first).toHaveAttribute('aria-expanded', 'false');
    await expect(faq.getByRole('region')).toHaveCount(1);
    await expect(faq.getByRole('region')).toContainText('Above 48 hours, 100% is refunded.');
    await last.click();
    await expect(faq.getByRole('region')).toHaveCount(0);
  });

  test('shows the price range from the active branches', async ({ page, request }) => {
    const branches = (await (await request.get('/api/bookings/branches')).json()) as {
      active_with_smart_lock: boolean;
      min_and_max_price_eur_long_cached: number[];
    }[];
    const active = branches.filter((branch) => branch.active_with_smart_lock);
    const min = Math.min(...active.map((branch) => branch.min_and_max_price_eur_long_cached[0] ?? Infinity));
    const max = Math.min(...active.map((branch) => branch.min_and_max_price_eur_long_cached[1] ?? Infinity));
    await open(page, '/en');
    await waitForBranches(page);
    const euros = (value: number) =>
      new Intl.NumberFormat('en-GB', {
        style: 'currency',
        currency: 'EUR',
        minimumFractionDigits: Number.isInteger(value) ? 0 : 2,
      }).format(value);
    await expect(page.locator('.pricing__range')).toHaveText(`from ${euros(min)} to ${euros(max)}`);
  });

  test('a section link goes to the section under the fixed top bar, also from another page', async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await open(page, '/en/rights');
    await page
      .getByRole('navigation', { name: 'Sections', exact: true })
      .getByRole('link', { name: 'FAQ' })
      .click();
    await expect(page).toHaveURL(/\/en#faq$/);
    await expect
      .poll(() => page.locator('#faq').evaluate((element) => Math.round(element.getBoundingClientRect().top)))
      .toBe(72);
  });

  test('the early-bird banner opens the login', async ({ page }) => {
    await open(page, '/en');
    await page.getByRole('button', { name: /Sign up before we open/ }).click();
    await expect(page).toHaveURL(/auth_tab=login/);
  });

  // Issue 30: a signed-in member was still offered to register, and the login it opened never opened for them.
  test('the early-bird banner is for visitors, not for a signed-in member', async ({ page }) => {
    await simulateLoggedIn(page);
    await open(page, '/en');
    await expect(page.locator('.top-bar .user-button')).toBeVisible();
    await expect(page.getByRole('button', { name: /Sign up before we open/ })).toHaveCount(0);
  });

  test('the footer links to the cookie notice of the current language', async ({ page }) => {
    await open(page, '/de');
    await page.getByRole('link', { name: 'Cookie-Hinweis und AGB' }).click();
    await expect(page).toHaveURL(/\/de\/rights#cookies-notice$/);
    await expect(page.getByRole('heading', { name: 'Cookie-Hinweis', level: 2 })).toBeInViewport();
  });

  test('has no accessibility violations', async ({ page }) => {
    await open(page, '/pt');
    await waitForBranches(page);
    expect(
      (await axeViolations(page)).map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the burger menu repeats the links and closes on an outside click', async ({ page }) => {
    await open(page, '/en');
    await waitForBranches(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    await expect(menu.getByRole('link', { name: 'Pricing' })).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Log in or sign up' })).toBeVisible();
    await page.mouse.click(200, 700);
    await expect(menu).toHaveCount(0);
  });
});
