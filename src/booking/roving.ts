import type { KeyboardEvent } from 'react';

// One tab stop per grid of buttons (the calendar's days, the day's slots), as the ARIA grid pattern has it: the
// arrows move the focus inside (left and right in reading order, up and down to the nearest button of the row
// above or below), Home and End to its ends; Tab leaves the grid. Disabled buttons are passed over. The button
// the focus reached keeps the grid's tab stop until the grid renders again.

const KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);

function centre(rect: DOMRect): number {
  return rect.left + rect.width / 2;
}

export function moveInGrid(event: KeyboardEvent<HTMLElement>): void {
  if (!KEYS.has(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
  const buttons = Array.from(
    event.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)'),
  );
  const current = buttons.indexOf(document.activeElement as HTMLButtonElement);
  if (current < 0) return;
  event.preventDefault();
  let next: HTMLButtonElement | undefined;
  if (event.key === 'Home') next = buttons[0];
  else if (event.key === 'End') next = buttons.at(-1);
  else if (event.key === 'ArrowLeft') next = buttons[current - 1];
  else if (event.key === 'ArrowRight') next = buttons[current + 1];
  else {
    const from = buttons[current]!.getBoundingClientRect();
    const down = event.key === 'ArrowDown';
    const boxes = buttons.map((button) => ({ button, rect: button.getBoundingClientRect() }));
    const beyond = boxes.filter(({ rect }) => (down ? rect.top > from.top + 1 : rect.top < from.top - 1));
    if (beyond.length > 0) {
      const row = down
        ? Math.min(...beyond.map(({ rect }) => rect.top))
        : Math.max(...beyond.map(({ rect }) => rect.top));
      next = beyond
        .filter(({ rect }) => Math.abs(rect.top - row) <= 1)
        .sort(
          (a, b) => Math.abs(centre(a.rect) - centre(from)) - Math.abs(centre(b.rect) - centre(from)),
        )[0]?.button;
    }
  }
  if (!next) return;
  buttons[current]!.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
}
