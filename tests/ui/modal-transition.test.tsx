// @vitest-environment jsdom
import { Modal } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { MantineLayer } from '../../src/ui/MantineLayer.tsx';

// Mantine shows a modal in steps: a frame with the dialog in the page but in its "out" state (transparent, 30 px
// higher), then the move into place. A press in that frame and a release after the move reach two different
// elements, and the browser gives the click to neither: e2e lost clicks made the moment a dialog appeared. Every
// modal of the app (its theme) takes pointer input only where it shows, on the way in and on the way out.

// jsdom has no matchMedia; Mantine asks it for the system's scheme and whether the user asks for reduced motion.
let reducedMotion = false;
Object.defineProperty(window, 'matchMedia', {
  configurable: true,
  value: (query: string) =>
    ({
      matches: query === '(prefers-reduced-motion: reduce)' && reducedMotion,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }) as unknown as MediaQueryList,
});
afterEach(() => {
  reducedMotion = false;
});

function Page({ onToggle }: { onToggle: (toggle: (opened: boolean) => void) => void }) {
  const [opened, setOpened] = useState(false);
  onToggle(setOpened);
  return (
    <MantineLayer>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Criar uma conta">
        <button type="button">Registar</button>
      </Modal>
    </MantineLayer>
  );
}

/** The dialog's opacity and pointer-events at every change of its style, from now on. */
function watchDialog(): { seen: { opacity: string; pointerEvents: string }[]; stop: () => void } {
  const seen: { opacity: string; pointerEvents: string }[] = [];
  const note = () => {
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
    if (!dialog) return;
    const last = seen.at(-1);
    const now = { opacity: dialog.style.opacity, pointerEvents: dialog.style.pointerEvents };
    if (!last || last.opacity !== now.opacity || last.pointerEvents !== now.pointerEvents) seen.push(now);
  };
  const observer = new MutationObserver(note);
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['style'],
  });
  return { seen, stop: () => observer.disconnect() };
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 400)));

/** Opens the page's modal, then closes it: the dialog's style at every change, each way. */
async function openAndClose() {
  let toggle!: (opened: boolean) => void;
  const view = render(<Page onToggle={(setter) => (toggle = setter)} />);
  const opening = watchDialog();
  act(() => toggle(true));
  await settle();
  opening.stop();
  expect(screen.getByRole('button', { name: 'Registar' })).toBeTruthy();
  const closing = watchDialog();
  act(() => toggle(false));
  await settle();
  closing.stop();
  expect(document.querySelector('[role="dialog"]')).toBeNull();
  view.unmount();
  return { opening: opening.seen, closing: closing.seen };
}

describe("the app's modals", () => {
  it('take pointer input only once they are on their way into place, and not while they fade out', async () => {
    const { opening, closing } = await openAndClose();
    // It went through its out state on the way in (the frame that lost clicks), taking no pointer input there …
    expect(opening[0]).toEqual({ opacity: '0', pointerEvents: 'none' });
    expect(opening.filter((state) => state.opacity !== '1').every((s) => s.pointerEvents === 'none')).toBe(
      true,
    );
    // … and takes it in place (the browser holds the change back with the motion: e2e/auth.spec.ts).
    expect(opening.at(-1)).toEqual({ opacity: '1', pointerEvents: 'auto' });
    expect(closing).toContainEqual({ opacity: '0', pointerEvents: 'none' });
  });

  it('appear and go in one step, with no motion, for a user who asks for reduced motion', async () => {
    reducedMotion = true;
    const { opening, closing } = await openAndClose();
    // Shown at once with no style of the transition's (no out state, no motion), and gone at once.
    expect(opening).toEqual([{ opacity: '', pointerEvents: '' }]);
    expect(closing).toEqual([]);
  });
});
