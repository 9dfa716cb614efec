import { expect, test } from '@playwright/test';
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
    await expect(page.locator('#terms-and-conditions')).toContainText(
      'NIF 500000000, contacto info@privategym.pt',
    );
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
