import type { ReactNode } from 'react';
import { isPlainClick, useNavigation } from './navigation.ts';

/**
 * A link to another page of the app: a real href (it works before the app's code and in a new tab), followed by
 * the app's own navigation on a plain click, the page got ready on a sign of intent as the router's links do.
 */
export function PageLink({ href, children }: { href: string; children: ReactNode }) {
  const { go, preload } = useNavigation();
  const ready = () => preload(href);
  return (
    <a
      href={href}
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        go({ kind: 'page', href });
      }}
      onPointerEnter={ready}
      onFocus={ready}
      onTouchStart={ready}
    >
      {children}
    </a>
  );
}
