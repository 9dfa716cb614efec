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

/**
 * Waits until the open modals have settled: no CSS transition running (Mantine's open transition) and every
 * dialog, with its ancestors, at full opacity, so contrast is checked on what the user finally sees.
 */
async function modalsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const transitioning = document
      .getAnimations()
      .some((animation) => animation instanceof CSSTransition && animation.playState === 'running');
    const opaque = (element: Element | null): boolean =>
      element === null || (getComputedStyle(element).opacity === '1' && opaque(element.parentElement));
    const shown = [...document.querySelectorAll('[role="dialog"]')].filter((dialog) =>
      dialog.checkVisibility(),
    );
    return !transitioning && shown.every(opaque);
  });
}

/** No serious or critical accessibility violation in the open modals (the page behind them is the shell's). */
export async function expectNoSeriousViolations(page: Page, what: string): Promise<void> {
  await modalsSettled(page);
  await expectNoSerious(new AxeBuilder({ page }).include('[role="dialog"]'), what);
}

/** No serious or critical accessibility violation on the whole page (no modal open). */
export async function expectNoSeriousViolationsOnPage(page: Page, what: string): Promise<void> {
  await expectNoSerious(new AxeBuilder({ page }), what);
}
