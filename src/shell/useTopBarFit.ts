import { useEffect, useRef } from 'react';

/** The top bar's layouts, widest first (see app.css). */
export type TopBarLayout = 'full' | 'compact' | 'burger';

/** The widths (px) the choice of a layout depends on, each part at its natural width. */
export type TopBarWidths = {
  /** The room inside the bar's padding. */
  room: number;
  /** The gap between the brand, the section links and the actions. */
  gap: number;
  /** The gap between two actions. */
  actionsGap: number;
  brand: number;
  links: number;
  /** The actions every layout shows (the Instagram link, the language menu), in order. */
  actions: number[];
  /** The account's actions (login, or 'book now' and the user menu): in the bar in 'full' and 'compact'. */
  account: number;
  /** The burger: in 'compact' and 'burger'. */
  burger: number;
};

/** The widest layout whose parts, side by side at their natural widths, fit in the bar. */
export function chooseTopBarLayout(widths: TopBarWidths): TopBarLayout {
  const row = (parts: number[], gap: number) =>
    parts.reduce((sum, part) => sum + part, 0) + gap * Math.max(0, parts.length - 1);
  // Half a pixel for the rounding of fractional widths; a part wider than its room is cut, so no more.
  const fits = (parts: number[]) => row(parts, widths.gap) <= widths.room + 0.5;
  const actions = (...more: number[]) => row([...widths.actions, ...more], widths.actionsGap);
  if (fits([widths.brand, widths.links, actions(widths.account)])) return 'full';
  if (fits([widths.brand, actions(widths.account, widths.burger)])) return 'compact';
  return 'burger';
}

/**
 * Reads the bar's widths. Every part keeps its natural width in every layout (app.css: a part the layout does not
 * show is laid out out of the flow, invisible), so one reading decides between all three layouts.
 */
function readWidths(inner: HTMLElement): TopBarWidths | null {
  const links = inner.querySelector<HTMLElement>('.top-bar__links');
  const brand = inner.querySelector<HTMLElement>('.brand');
  const actionsRow = inner.querySelector<HTMLElement>('.top-bar__actions');
  if (!links || !brand || !actionsRow) return null;
  const width = (element: Element) => element.getBoundingClientRect().width;
  const style = getComputedStyle(inner);
  const widths: TopBarWidths = {
    room: inner.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
    gap: parseFloat(style.columnGap) || 0,
    actionsGap: parseFloat(getComputedStyle(actionsRow).columnGap) || 0,
    brand: width(brand),
    links: width(links),
    actions: [],
    account: 0,
    burger: 0,
  };
  for (const action of actionsRow.children) {
    if (action.classList.contains('top-bar__account')) widths.account = width(action);
    else if (action.classList.contains('top-bar__burger')) widths.burger = width(action);
    else widths.actions.push(width(action));
  }
  return widths;
}

/**
 * Picks the widest layout of the top bar that fits. Breakpoints alone cannot do this: 'Entrar ou registar' and
 * 'Prihlásiť sa alebo registrovať' need different widths. Until the first measurement the breakpoints of app.css
 * guess (that is also the page without JavaScript).
 *
 * The bar is measured only when the browser has just laid the page out, in a ResizeObserver's callback: never
 * while React commits, which would force a synchronous layout of the whole page in the middle of the app's start.
 * The observer is told of the first layout, and of every change of a width that matters: the window's and the
 * bar's padding (which follows it), and each part's, so a change of language, login, name or font is seen
 * without asking. No part's width depends on the layout, so choosing one never calls the observer again.
 * `content` (what the parts depend on) only renews the observation, for parts that appear or go.
 */
export function useTopBarFit<T extends HTMLElement>(content: readonly (string | number | boolean | null)[]) {
  const header = useRef<T>(null);
  const contentKey = JSON.stringify(content);
  useEffect(() => {
    const element = header.current;
    const inner = element?.querySelector<HTMLElement>('.top-bar__inner');
    if (!element || !inner) return;
    const observer = new ResizeObserver(() => {
      const widths = readWidths(inner);
      if (!widths) return;
      const layout = chooseTopBarLayout(widths);
      if (element.dataset.fit !== layout) element.dataset.fit = layout;
    });
    observer.observe(inner);
    for (const part of inner.querySelectorAll('.brand, .top-bar__links, .top-bar__actions > *'))
      observer.observe(part);
    return () => observer.disconnect();
    // The content decides which parts there are: observe them anew whenever it changes.
  }, [contentKey]);
  return header;
}
