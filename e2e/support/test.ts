import { writeFile } from 'node:fs/promises';
import { test as base, type Page } from '@playwright/test';

export * from '@playwright/test';

/** What the page did, as lines the diary prints when a test fails. */
type DiaryLine = string;

/**
 * Every journey's `test`: Playwright's, with a diary of each page kept beside it (the address after every history
 * change, each dialog shown or gone, where each press, release and click of the mouse landed, the API's 4xx and
 * 5xx answers, failed requests, console errors and uncaught exceptions), printed with the failure. A journey that
 * fails once in a hundred runs on a loaded machine then says what the app did in its last seconds, where the
 * failure alone only says what was missing (a dialog, an address), without the cost of a trace in every run.
 */
export const test = base.extend<{ diary: DiaryLine[] }>({
  diary: [
    async ({ context }, use, testInfo) => {
      const started = Date.now();
      const lines: DiaryLine[] = [];
      const note = (line: string) => lines.push(`${String(Date.now() - started).padStart(6)} ms  ${line}`);
      await context.exposeBinding('__e2eDiary', (_source, line: string) => note(line));
      await context.addInitScript(() => {
        const write = (window as unknown as { __e2eDiary?: (line: string) => void }).__e2eDiary;
        if (!write || window.top !== window) return;
        for (const method of ['pushState', 'replaceState'] as const) {
          const original = history[method].bind(history);
          history[method] = (data, unused, url) => {
            original(data, unused, url);
            void write(`${method} ${location.pathname}${location.search}${location.hash}`);
          };
        }
        addEventListener('popstate', () => void write(`popstate ${location.pathname}${location.search}`));
        const dialogs = () =>
          [...document.querySelectorAll('[role="dialog"]')]
            .map((dialog) => {
              const labelledBy = dialog.getAttribute('aria-labelledby');
              const label = labelledBy ? document.getElementById(labelledBy)?.textContent : null;
              return `${label ?? dialog.getAttribute('aria-label') ?? '?'}${dialog.checkVisibility() ? '' : ' (hidden)'}`;
            })
            .join(', ');
        // Where each press, release and click of the test's mouse landed: a click the app never took says whether
        // the three reached the same control, and what the dialog under them looked like then.
        const describe = (node: EventTarget | null) => {
          const element = node instanceof Element ? (node.closest('button, a, input, label') ?? node) : null;
          if (!element) return node === window ? 'window' : node === document ? 'document' : '?';
          const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
          const dialog = element.closest<HTMLElement>('[role="dialog"]');
          const state = dialog ? ` in a dialog (opacity ${getComputedStyle(dialog).opacity})` : '';
          return `${element.tagName.toLowerCase()} "${name}"${state}`;
        };
        for (const type of ['pointerdown', 'pointerup', 'click'] as const)
          addEventListener(
            type,
            (event) => event.isTrusted && void write(`${type} ${describe(event.target)}`),
            true,
          );
        let shown = '';
        new MutationObserver(() => {
          const now = dialogs();
          if (now !== shown) void write(`dialogs [${(shown = now)}]`);
        }).observe(document, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: ['role', 'style', 'hidden'],
        });
      });
      const watch = (page: Page) => {
        note(`page opened`);
        page.on('pageerror', (error) => note(`uncaught ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error' || message.type() === 'warning')
            note(`console.${message.type()} ${message.text()}`);
        });
        page.on('requestfailed', (request) =>
          note(`request failed ${request.method()} ${request.url()} ${request.failure()?.errorText}`),
        );
        page.on('response', (response) => {
          if (response.status() >= 400)
            note(`${response.status()} ${response.request().method()} ${response.url()}`);
        });
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame()) note(`navigated ${frame.url()}`);
        });
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use(lines);
      if (testInfo.status !== testInfo.expectedStatus && lines.length > 0) {
        // A file in the test's output folder: .ci/run prints every one after a failed run, where CI's reader sees it.
        const file = testInfo.outputPath('page-diary.txt');
        await writeFile(file, `${testInfo.titlePath.join(' › ')}\n${lines.join('\n')}\n`);
        await testInfo.attach('page diary', { path: file, contentType: 'text/plain' });
      }
    },
    { auto: true },
  ],
});
