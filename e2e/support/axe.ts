import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No serious or critical accessibility violation in the open modals (the page behind them is the shell's). */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  // Mantine's open transition: let the modal settle at full opacity before checking contrast.
  await page.waitForTimeout(350);
  const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  expect(serious, what).toEqual([]);
}
