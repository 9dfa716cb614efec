import { useId, useState, type ReactNode } from 'react';

export type AccordionItem = { value: string; title: ReactNode; content: ReactNode };

/** Disclosure items of which at most one is open: opening one closes the other. */
export function Accordion({ items, className }: { items: AccordionItem[]; className?: string }) {
  const [open, setOpen] = useState<string | null>(null);
  const baseId = useId();
  return (
    <div className={`accordion ${className ?? ''}`}>
      {items.map((item) => {
        const expanded = open === item.value;
        const buttonId = `${baseId}-${item.value}-button`;
        const panelId = `${baseId}-${item.value}-panel`;
        return (
          <div key={item.value} className="accordion__item" data-open={expanded || undefined}>
            <h3 className="accordion__heading">
              <button
                type="button"
                id={buttonId}
                className="accordion__control"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen(expanded ? null : item.value)}
              >
                <span>{item.title}</span>
                <span className="accordion__chevron" aria-hidden="true" />
              </button>
            </h3>
            <div
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              className="accordion__panel"
              hidden={!expanded}
            >
              {item.content}
            </div>
          </div>
        );
      })}
    </div>
  );
}
