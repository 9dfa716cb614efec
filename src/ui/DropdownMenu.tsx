import { useClickOutside } from '@mantine/hooks';
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

type Props = {
  /** The accessible name of the button that opens the menu. */
  label: string;
  trigger: ReactNode;
  triggerClassName: string;
  /** Opens above the trigger (the native bottom bar) or below it. */
  direction?: 'down' | 'up';
  align?: 'start' | 'end';
  children: (close: () => void) => ReactNode;
};

/**
 * A small menu button: opens on click, closes on an outside click, on Escape and after a choice;
 * arrow keys move between the items. Light enough for the landing page's first paint.
 */
export function DropdownMenu({
  label,
  trigger,
  triggerClassName,
  direction = 'down',
  align = 'end',
  children,
}: Props) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonId = useId();
  const container = useClickOutside<HTMLDivElement>(() => setOpen(false));
  // `close` goes to the items, which render with it: the button is found by its id, not through a ref.
  const close = () => {
    setOpen(false);
    document.getElementById(buttonId)?.focus();
  };

  const items = () =>
    Array.from(container.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    if (!open) {
      setOpen(true);
      requestAnimationFrame(() => items()[0]?.focus());
      return;
    }
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLElement);
    const step = event.key === 'ArrowDown' ? 1 : -1;
    all[(index + step + all.length) % all.length]?.focus();
  };

  return (
    <div className="dropdown" ref={container} onKeyDown={onKeyDown}>
      <button
        id={buttonId}
        type="button"
        className={triggerClassName}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        {trigger}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          className={`dropdown__menu dropdown__menu--${direction} dropdown__menu--${align}`}
        >
          {children(close)}
        </div>
      )}
    </div>
  );
}

export function MenuItem({
  onSelect,
  children,
  current,
  lang,
  hint,
}: {
  onSelect: () => void;
  children: ReactNode;
  current?: boolean;
  lang?: string;
  hint?: ReactNode;
}) {
  // An item that states a choice (the language menu) is a radio item: `current` is its checked state.
  const choice = current !== undefined;
  return (
    <button
      type="button"
      role={choice ? 'menuitemradio' : 'menuitem'}
      lang={lang}
      className="dropdown__item"
      aria-checked={choice ? current : undefined}
      onClick={onSelect}
    >
      <span>{children}</span>
      {hint && <span className="dropdown__hint">{hint}</span>}
    </button>
  );
}
