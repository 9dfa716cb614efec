// @vitest-environment jsdom
import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { MantineLayer } from '../../src/ui/MantineLayer.tsx';

// The app is dark only. Mantine's provider, even with `forceColorScheme`, writes the *stored* colour scheme on
// <html> when it mounts (light by default, in a layout effect) and corrects it to the forced one afterwards (in a
// passive effect): every provider mounting later (a member dialog's layer inside the console) flashed the page
// into light colours, black text on the dark background, which axe once caught in the console.

// jsdom has no matchMedia; Mantine asks it for the system's scheme.
if (typeof window.matchMedia !== 'function')
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) =>
      ({
        matches: false,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  });

afterEach(() => {
  document.documentElement.removeAttribute('data-mantine-color-scheme');
  window.localStorage.clear();
});

function App({ onOpen }: { onOpen: (open: () => void) => void }) {
  const [dialog, setDialog] = useState(false);
  onOpen(() => setDialog(true));
  return (
    <MantineLayer>
      <p>page</p>
      {dialog && (
        <MantineLayer>
          <p>dialog</p>
        </MantineLayer>
      )}
    </MantineLayer>
  );
}

describe('the colour scheme on <html>', () => {
  it('is dark from the first write, and stays dark when another layer mounts later, whatever was stored', async () => {
    // What Mantine's own manager would read: a light scheme stored by an earlier visit.
    window.localStorage.setItem('mantine-color-scheme-value', 'light');
    // Every value written, however briefly it stayed.
    const written: string[] = [];
    const root = document.documentElement;
    const setAttribute = root.setAttribute.bind(root);
    root.setAttribute = (name: string, value: string) => {
      if (name === 'data-mantine-color-scheme') written.push(value);
      setAttribute(name, value);
    };
    let open!: () => void;
    const view = render(<App onOpen={(opener) => (open = opener)} />);
    act(() => open());
    expect(view.getByText('dialog')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.setAttribute = setAttribute;
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((value) => value === 'dark')).toBe(true);
  });
});
