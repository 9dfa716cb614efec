import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { AxeResults, ElementContext, RunOptions } from 'axe-core';

// axe-core's own engine, run in the page with `axe.run`. @axe-core/playwright's builder spent about 1.1 s a check
// on this machine (it re-injects axe into every frame and finishes each run in a new blank page), axe itself about
// 0.15 s: the journeys check up to sixteen views each, so the builder was half their time. The checks are the
// same: every rule axe runs by default, every frame of the page included (the local checkout's iframe is on
// another origin, as Stripe's is, so frames talk to each other across origins, as the builder allowed).
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const setup = `${axeSource};axe.configure({ allowedOrigins: ['<unsafe_all_origins>'] });`;

type Violation = {
  id: string;
  impact?: string | null;
  nodes: { target: unknown[]; failureSummary?: string }[];
};

/** Violations in `include` (a selector, or the whole document), in the page and in every frame inside it. */
export async function axeViolations(page: Page, include?: string): Promise<Violation[]> {
  // Each document (a navigation replaces it) gets axe once. A frame that does not take it within a second (the
  // branch's lazy map, which never loads offline) is left out, as the builder left it out; axe then reports it as
  // not tested instead of waiting for it (`frameWaitTime`).
  await Promise.all(
    page.frames().map(async (frame) => {
      const inject = async () => {
        const present = await frame.evaluate(
          () => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function',
        );
        if (!present) await frame.evaluate(setup);
      };
      await Promise.race([inject(), new Promise((resolve) => setTimeout(resolve, 1_000))]).catch(
        () => undefined,
      );
    }),
  );
  return page.evaluate(async (selector) => {
    const { axe } = window as unknown as {
      axe: { run: (context: ElementContext, options: RunOptions) => Promise<AxeResults> };
    };
    const results = await axe.run(selector ? { include: [[selector]] } : document, {
      resultTypes: ['violations'],
      frameWaitTime: 2_000,
    });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
    }));
  }, include);
}

async function expectNoSerious(page: Page, include: string | undefined, what: string): Promise<void> {
  const serious = (await axeViolations(page, include))
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
  await expectNoSerious(page, '[role="dialog"]', what);
}

/**
 * No serious or critical accessibility violation on the whole page, modals included. Checked once the page has
 * settled, as `expectNoSeriousViolations` is: a button that has just become enabled keeps its disabled colours for
 * its colour transition while axe no longer excuses it as disabled.
 */
export async function expectNoSeriousViolationsOnPage(page: Page, what: string): Promise<void> {
  await modalsSettled(page);
  await expectNoSerious(page, undefined, what);
}
