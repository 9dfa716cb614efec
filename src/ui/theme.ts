import { createTheme } from '@mantine/core';

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
