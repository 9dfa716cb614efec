import type { Page } from '@playwright/test';

/** A dialog as the browser drew it in one frame: where it stood and whether it took pointer input. */
export type DialogFrame = { offset: number; opacity: number; pointerEvents: string };

/**
 * Records, from now on, every frame in which the page shows a dialog: its vertical offset from its place (the
 * computed transform, animated), its opacity and its pointer-events, as the browser resolved them in that frame.
 * `frames()` records two frames more, stops and answers them: what a person's or a test's mouse met there.
 */
export async function recordDialogFrames(page: Page): Promise<{ frames: () => Promise<DialogFrame[]> }> {
  await page.evaluate(() => {
    const frames: DialogFrame[] = [];
    const state = { frames, recording: true };
    (window as unknown as { __dialogFrames: typeof state }).__dialogFrames = state;
    const tick = () => {
      const dialog = document.querySelector('[role="dialog"]');
      if (dialog) {
        const style = getComputedStyle(dialog);
        const offset = style.transform === 'none' ? 0 : new DOMMatrixReadOnly(style.transform).m42;
        frames.push({ offset, opacity: Number(style.opacity), pointerEvents: style.pointerEvents });
      }
      if (state.recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return {
    frames: () =>
      page.evaluate(async () => {
        const state = (window as unknown as { __dialogFrames: { frames: DialogFrame[]; recording: boolean } })
          .__dialogFrames;
        // Two frames more: the last one recorded shows the page as the test last saw it, or later.
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        state.recording = false;
        return state.frames;
      }),
  };
}
