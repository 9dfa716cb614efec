// A press on the prerendered page before the app has taken it over: the page is painted from the first HTML
// (src/main.tsx starts the app after that paint), and until React adopts it a button does nothing. Links need no
// app (they are real links); the last button pressed is kept and pressed again once the page is adopted, so a
// tap in the first moments on a slow phone opens what it asked for instead of nothing. No React here: the entry
// imports it, before the app's code has loaded.

let pressed: HTMLElement | null = null;

function keep(event: MouseEvent): void {
  // A click made by the page's own code is not a person's.
  if (!event.isTrusted || !(event.target instanceof Element)) return;
  const button = event.target.closest<HTMLElement>('button');
  if (button) pressed = button;
}

/** Keeps, from now on, the last button pressed (a click, or Enter or Space on it) in `root`. */
export function keepEarlyPresses(root: HTMLElement): void {
  root.addEventListener('click', keep, true);
}

/**
 * Stops keeping presses, as the app is about to adopt the page: React answers the presses from then on (and
 * replays those it receives before it has adopted their part of the page).
 */
export function stopKeepingPresses(root: HTMLElement): void {
  root.removeEventListener('click', keep, true);
}

/** Presses the button kept, once, now that the app answers it: if it is still the page's (adoption keeps nodes). */
export function pressAgain(): void {
  const button = pressed;
  pressed = null;
  if (button?.isConnected) button.click();
}
