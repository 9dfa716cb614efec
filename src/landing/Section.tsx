import type { ReactNode } from 'react';

export function Section({
  id,
  eyebrow,
  title,
  intro,
  children,
  className,
}: {
  id: string;
  eyebrow?: ReactNode;
  title?: ReactNode;
  intro?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const headingId = `${id}-title`;
  return (
    <section id={id} className={`section ${className ?? ''}`} aria-labelledby={title ? headingId : undefined}>
      <div className="section__inner">
        {(eyebrow || title || intro) && (
          <header className="section__header">
            {eyebrow && <p className="eyebrow">{eyebrow}</p>}
            {title && (
              <h2 id={headingId} className="section__title">
                {title}
              </h2>
            )}
            {intro && <p className="section__intro">{intro}</p>}
          </header>
        )}
        {children}
      </div>
    </section>
  );
}

/**
 * A card of a section's list (a feature, a step): its marker (an icon, a number), title and text. `block` is the
 * card's CSS block (landing.css), whose `__marker`, `__title` and `__text` style its parts.
 */
export function SectionCard({
  block,
  marker,
  title,
  children,
}: {
  block: 'feature' | 'step';
  marker: ReactNode;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <li className={block}>
      <span className={`${block}__marker`} aria-hidden="true">
        {marker}
      </span>
      <h3 className={`${block}__title`}>{title}</h3>
      <p className={`${block}__text`}>{children}</p>
    </li>
  );
}
