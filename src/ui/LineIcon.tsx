import type { ReactNode } from 'react';

/**
 * The product's line icons: drawn on a 24-unit grid in the text colour, hidden from assistive technology (the
 * control that holds one carries the accessible name). `path` is the data of an icon drawn as one path;
 * `children` are the shapes of one that needs others.
 */
export function LineIcon({ size, path, children }: { size: number; path?: string; children?: ReactNode }) {
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
      {path && <path d={path} />}
      {children}
    </svg>
  );
}
