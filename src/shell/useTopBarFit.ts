import { useLayoutEffect, useRef } from 'react';

/** The top bar's layouts, widest first (see app.css). */
const LAYOUTS = ['full', 'compact', 'burger'] as const;

/** Whether anything in the bar is wider than its room: the bar itself, or a control cutting its own label. */
function overflows(inner: HTMLElement): boolean {
  if (inner.scrollWidth > inner.clientWidth + 1) return true;
  for (const control of inner.querySelectorAll<HTMLElement>(
    '.top-bar__links, .top-bar__actions button, .top-bar__actions a, .top-bar__actions button *',
  )) {
    if (control.closest('.mobile-menu, [role="menu"]')) continue;
    if (control.offsetParent === null) continue;
    if (control.scrollWidth > control.clientWidth + 1 && getComputedStyle(control).overflow !== 'visible')
      return true;
  }
  return false;
}

/**
 * Picks the widest layout of the top bar that fits, before the browser paints, and again whenever the window
 * resizes, the fonts arrive or `content` (what the labels depend on: language, login, name) changes. Breakpoints
 * alone cannot do this: 'Entrar ou registar' and 'Prihlásiť sa alebo registrovať' need different widths.
 */
export function useTopBarFit<T extends HTMLElement>(content: readonly (string | number | boolean | null)[]) {
  const header = useRef<T>(null);
  const contentKey = JSON.stringify(content);
  useLayoutEffect(() => {
    const element = header.current;
    const inner = element?.querySelector<HTMLElement>('.top-bar__inner');
    if (!element || !inner) return;
    const fit = () => {
      for (const layout of LAYOUTS) {
        element.dataset.fit = layout;
        if (!overflows(inner)) return;
      }
    };
    fit();
    // Widths only (the bar's height never changes with its layout): the bar's, which is the window's, and the
    // room inside the bar's padding. That padding follows the window's width (a clamp of vw), and Chromium was
    // seen to apply it a frame after the resize: the bar measured with the old padding then overflowed by 20 px
    // with nothing left to measure again. The layout itself never changes either width, so this cannot loop.
    const widths = new WeakMap<Element, number>();
    const observer = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        if (widths.get(entry.target) === entry.contentRect.width) continue;
        widths.set(entry.target, entry.contentRect.width);
        changed = true;
      }
      if (changed) fit();
    });
    observer.observe(element);
    observer.observe(inner);
    let live = true;
    void document.fonts?.ready.then(() => live && fit());
    return () => {
      live = false;
      observer.disconnect();
    };
    // The content is what the measurement depends on: re-measure whenever it changes.
  }, [contentKey]);
  return header;
}
