import { createTheme, type MantineColorSchemeManager } from '@mantine/core';

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
