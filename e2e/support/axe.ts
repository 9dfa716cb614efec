import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

async function expectNoSerious(builder: AxeBuilder, what: string): Promise<void> {
  const results = await builder.analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => `${node.target.join(' ')} ${node.failureSummary ?? ''}`).join(', ')}`,
    );
  expect(serious, what).toEqual([]);
}

/** No serious or critical accessibility violation in the open modals (the page behind them is the shell's). */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  // Mantine's open transition: let the modal settle at full opacity before checking contrast.
  await page.waitForTimeout(350);
  await expectNoSerious(new AxeBuilder({ page }).include('[role="dialog"]'), what);
}

/** No serious or critical accessibility violation on the whole page (no modal open). */
export async function expectNoSeriousViolationsOnPage(page: Page, what: string): Promise<void> {
  await expectNoSerious(new AxeBuilder({ page }), what);
}
