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
    let width = -1;
    const fit = () => {
      for (const layout of LAYOUTS) {
        element.dataset.fit = layout;
        if (!overflows(inner)) return;
      }
    };
    fit();
    const observer = new ResizeObserver(() => {
      // Only the window's width matters; the bar's own height never changes with its layout.
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      fit();
    });
    observer.observe(element);
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
