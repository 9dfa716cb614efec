import { createTheme, type MantineColorSchemeManager, type MantineTransition } from '@mantine/core';

/**
 * Mantine's own transition for a modal (`fade-down`, 200 ms), except that the dialog takes no pointer input while
 * it is out of place. Mantine draws an opening dialog first in its "out" state (transparent, 30 px higher), and the
 * browser starts the move into place a frame or more later: the dialog stood still, out of place and taking
 * clicks, for two or three frames. A press there and its release after the move met two different controls, and
 * the browser gave the click to neither (e2e's lost first clicks, docs/decisions.md "A lost 'Create account'
 * click"). `pointer-events` now changes with the motion (a discrete transition: at its half-way point), so a press
 * before then goes to the overlay, as beside the dialog; a dialog fading out stops taking them half-way.
 */
export const MODAL_TRANSITION: MantineTransition = {
  in: { opacity: 1, transform: 'translateY(0)', pointerEvents: 'auto' },
  out: { opacity: 0, transform: 'translateY(-30px)', pointerEvents: 'none' },
  common: { transitionBehavior: 'allow-discrete' },
  transitionProperty: 'opacity, transform, pointer-events',
};

/** A dark, bold brand: near-black surfaces, one electric-lime accent. */
export const theme = createTheme({
  primaryColor: 'lime',
  primaryShade: 5,
  colors: {
    lime: [
      '#f7ffe0',
      '#eeffc2',
      '#e2ff94',
      '#d6ff66',
      '#ccff40',
      '#c2f520',
      '#a3d010',
      '#7fa30a',
      '#5c7706',
      '#3b4d03',
    ],
  },
  black: '#050506',
  white: '#f5f5f2',
  fontFamily:
    "Inter, 'Helvetica Neue', 'Segoe UI', Roboto, system-ui, -apple-system, 'Noto Sans', Arial, sans-serif",
  headings: {
    fontFamily:
      "'Helvetica Neue', Inter, 'Segoe UI', Roboto, system-ui, -apple-system, 'Noto Sans', Arial, sans-serif",
    fontWeight: '900',
  },
  defaultRadius: 'md',
  autoContrast: true,
  luminanceThreshold: 0.4,
  cursorType: 'pointer',
  // Asked for reduced motion, a modal (a menu, a collapse) appears and goes in one step, in place.
  respectReducedMotion: true,
  components: {
    Modal: { defaultProps: { transitionProps: { transition: MODAL_TRANSITION, duration: 200 } } },
  },
});

/**
 * The app is dark only, and Mantine's provider must never say otherwise. With `forceColorScheme` alone it still
 * writes the *stored* scheme (light by default) on <html> in a layout effect and corrects it in a passive one; when a
 * Suspense boundary shows its content again (a console page's code arriving) React re-runs only the layout effect,
 * and the console stayed in light colours on its dark background (black text, seen by axe). This manager has no
 * other answer than dark.
 */
export const darkOnly: MantineColorSchemeManager = {
  get: () => 'dark',
  set: () => {},
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {},
};
