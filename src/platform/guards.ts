/**
 * Native-app rules (docs/decisions.md, 'Client'): a second touch within 300 ms is blocked (no double-tap zoom), pinch and
 * ctrl/meta-wheel zoom are blocked, and the focused field is scrolled into view 100 ms after the
 * keyboard opens. Returns a function that removes every listener.
 */
const DOUBLE_TAP_MS = 300;
const KEYBOARD_SCROLL_DELAY_MS = 100;

type GuardTarget = Pick<Window, 'addEventListener' | 'removeEventListener'> & {
  document: Document;
  visualViewport: VisualViewport | null;
  setTimeout: Window['setTimeout'];
  clearTimeout: Window['clearTimeout'];
};

export function installNativeGuards(
  target: GuardTarget,
  now: () => number = () => performance.now(),
): () => void {
  const doc = target.document;
  let lastTouchEnd = -Infinity;
  let keyboardTimer: number | undefined;

  const onTouchEnd = (event: TouchEvent) => {
    const time = now();
    if (time - lastTouchEnd < DOUBLE_TAP_MS) event.preventDefault();
    lastTouchEnd = time;
  };
  const onTouchMove = (event: TouchEvent) => {
    if (event.touches.length > 1) event.preventDefault();
  };
  const onGesture = (event: Event) => event.preventDefault();
  const onWheel = (event: WheelEvent) => {
    if (event.ctrlKey || event.metaKey) event.preventDefault();
  };
  const scrollFocusedIntoView = () => {
    if (keyboardTimer !== undefined) target.clearTimeout(keyboardTimer);
    keyboardTimer = target.setTimeout(() => {
      const focused = doc.activeElement;
      if (focused instanceof HTMLElement && focused !== doc.body && isTextField(focused)) {
        focused.scrollIntoView({ block: 'center', behavior: 'smooth' });
      }
    }, KEYBOARD_SCROLL_DELAY_MS);
  };
  // The keyboard plugin announces itself on window; without it, a shrinking visual viewport means the same.
  let viewportHeight = target.visualViewport?.height ?? 0;
  const onViewportResize = () => {
    const height = target.visualViewport?.height ?? 0;
    if (height < viewportHeight - 100) scrollFocusedIntoView();
    viewportHeight = height;
  };

  const active = { passive: false } as const;
  doc.addEventListener('touchend', onTouchEnd, active);
  doc.addEventListener('touchmove', onTouchMove, active);
  doc.addEventListener('gesturestart', onGesture, active);
  doc.addEventListener('gesturechange', onGesture, active);
  target.addEventListener('wheel', onWheel as EventListener, active);
  target.addEventListener('keyboardDidShow', scrollFocusedIntoView);
  target.visualViewport?.addEventListener('resize', onViewportResize);

  return () => {
    doc.removeEventListener('touchend', onTouchEnd);
    doc.removeEventListener('touchmove', onTouchMove);
    doc.removeEventListener('gesturestart', onGesture);
    doc.removeEventListener('gesturechange', onGesture);
    target.removeEventListener('wheel', onWheel as EventListener);
    target.removeEventListener('keyboardDidShow', scrollFocusedIntoView);
    target.visualViewport?.removeEventListener('resize', onViewportResize);
    if (keyboardTimer !== undefined) target.clearTimeout(keyboardTimer);
  };
}

function isTextField(element: HTMLElement): boolean {
  return element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName);
}

/** Native pages are not zoomable; the web keeps zoom for accessibility. */
export function lockViewportZoom(doc: Document): void {
  const viewport = doc.querySelector('meta[name="viewport"]');
  viewport?.setAttribute(
    'content',
    'width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no, viewport-fit=cover',
  );
}
