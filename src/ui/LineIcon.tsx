import type { ReactNode } from 'react';

/**
 * The product's line icons: drawn on a 24-unit grid in the text colour, hidden from assistive technology (the
 * control that holds one carries the accessible name). `children` are the icon's shapes.
 */
export function LineIcon({ size, children }: { size: number; children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
    >
      {children}
    </svg>
  );
}
