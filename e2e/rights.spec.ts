import { expect, test } from './support/test.ts';
import { open } from './support/fixtures.ts';

test.describe('rights page', () => {
  test.use({ reducedMotion: 'reduce' });

  test('scrolls each section to 80 px below the top with the button bar', async ({ page }) => {
    await open(page, '/en/rights');
    const bar = page.getByRole('navigation', { name: 'Sections of this page' });
    for (const [button, id] of [
      ['Terms', 'terms-and-conditions'],
      ['Cookies', 'cookies-notice'],
      ['Privacy', 'gdpr'],
      ['Rules', 'op-rules'],
    ] as const) {
      await bar.getByRole('button', { name: button, exact: true }).click();
      await expect
        .poll(() =>
          page.locator(`#${id}`).evaluate((element) => Math.round(element.getBoundingClientRect().top)),
        )
        .toBe(80);
    }
  });

  test('fills the refund policy from the server into the terms', async ({ page }) => {
    await open(page, '/en/rights');
    await expect(page.locator('#terms-and-conditions')).toContainText(
      'Above 48 hours, 100% is refunded. Above 24 hours, 50% is refunded. Less than 24 hours ahead, 0% is refunded.',
    );
  });

  test("shows 'N.' lines as headings, '-' lines as bullets, and the company details from configuration", async ({
    page,
  }) => {
    await open(page, '/pt/rights');
    const rules = page.locator('#op-rules');
    await expect(rules.getByRole('heading', { level: 3, name: '1. Âmbito' })).toBeVisible();
    await expect(rules.getByRole('listitem').filter({ hasText: 'Menores de 15 anos' })).toHaveCount(1);
    await expect(rules.getByRole('listitem').filter({ hasText: 'Não são permitidos animais' })).toHaveCount(
      1,
    );
    await expect(rules).toContainText('telemóvel e ao endereço de e-mail');
    const privacy = page.locator('#gdpr');
    await expect(privacy).toContainText('geral@cnpd.pt');
    await expect(privacy).not.toContainText('%40');
    // The server's COMPANY_TAX_ID and COMPANY_EMAIL, the same as on receipts: no build carries its own.
    await expect(page.locator('#terms-and-conditions')).toContainText(
      'NIF 512345678, contacto info@privategym.pt',
    );
  });

  test('arrives with the refund policy and the company’s details before any script, and the app adopts it as it is', async ({
    browser,
    page,
  }) => {
    const policy =
      'Above 48 hours, 100% is refunded. Above 24 hours, 50% is refunded. Less than 24 hours ahead, 0% is refunded.';
    const bare = await browser.newContext({ javaScriptEnabled: false });
    try {
      const first = await bare.newPage();
      await first.goto('/en/rights');
      const terms = first.locator('#terms-and-conditions');
      await expect(terms).toContainText(policy);
      await expect(terms).toContainText('512345678');
      await expect(first.locator('footer')).toContainText('info@privategym.pt');
      await expect(first.locator('footer')).toContainText('Private Gym');
      await expect(first.locator('#root')).not.toContainText(/%[A-Z_]+%/);
    } finally {
      await bare.close();
    }

    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { prerendered: Element | null }).prerendered = document.querySelector(
          '#terms-and-conditions .legal__body',
        );
      });
    });
    await open(page, '/en/rights');
    await expect(page.locator('html')).toHaveAttribute('data-app-ready', 'true');
    await expect(page.locator('#terms-and-conditions')).toContainText(policy);
    const adopted = await page.evaluate(
      () =>
        (window as unknown as { prerendered: Element | null }).prerendered ===
        document.querySelector('#terms-and-conditions .legal__body'),
    );
    expect(adopted, 'the prerendered terms are still the ones on the page').toBe(true);
    expect(errors).toEqual([]);
  });

  test('has the four sections with their anchors', async ({ page }) => {
    await open(page, '/sk/rights');
    const ids = await page
      .locator('section.legal')
      .evaluateAll((sections) => sections.map((section) => section.id));
    expect(ids).toEqual(['op-rules', 'terms-and-conditions', 'gdpr', 'cookies-notice']);
    await expect(page.locator('#terms-and-conditions')).toContainText(
      'Viac ako 48 hodín vopred sa vráti 100 %.',
    );
  });
});
