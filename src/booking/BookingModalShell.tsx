// The booking modal as the first HTML shows it, before any JavaScript (docs/decisions.md, 'The booking modal by
// URL paints from the first HTML'): the frame, the branch's name, the tabs and the main image, laid out as the
// live modal lays them out (src/booking/booking-shell.css), so the image (the page's largest paint) shows as soon
// as the HTML and the preloaded image are there. The build renders it once per locale with placeholders
// (src/prerender.tsx); the server fills in the branch for an address that names one; the live modal removes it
// when it shows (src/app/first-html-modal.ts). Its close link works without JavaScript.
import { useLingui } from '@lingui/react/macro';
import { SHELL_ATTRIBUTE } from '../app/first-html-modal.ts';

/** The placeholders the server replaces (escaped) with the branch's name and main image (server/http/client.ts). */
const SHELL_BRANCH_NAME = '%BRANCH_NAME%';
const SHELL_BRANCH_IMAGE = '%BRANCH_IMAGE%';

export function BookingModalShell({ closeHref }: { closeHref: string }) {
  const { t } = useLingui();
  return (
    <div className="booking-shell" {...{ [SHELL_ATTRIBUTE]: '' }}>
      <div className="booking-shell__overlay" />
      <div className="booking-shell__inner">
        <section
          className="booking-shell__content"
          role="dialog"
          aria-modal="true"
          aria-labelledby="booking-shell-title"
        >
          <header className="booking-shell__header">
            <h2 id="booking-shell-title" className="booking-shell__title">
              {SHELL_BRANCH_NAME}
            </h2>
            <a className="booking-shell__close" href={closeHref} aria-label={t`Fechar`}>
              <svg viewBox="0 0 15 15" width="16" height="16" aria-hidden="true">
                <path
                  d="M11.78 4.03a.57.57 0 0 0-.81-.81L7.5 6.69 4.03 3.22a.57.57 0 0 0-.81.81L6.69 7.5l-3.47 3.47a.57.57 0 0 0 .81.81L7.5 8.31l3.47 3.47a.57.57 0 0 0 .81-.81L8.31 7.5l3.47-3.47Z"
                  fill="currentColor"
                />
              </svg>
            </a>
          </header>
          <div className="booking-shell__body">
            <div className="booking-shell__tabs">
              <span className="booking-shell__tab booking-shell__tab--active">{t`Reservar sessões`}</span>
              <span className="booking-shell__tab">{t`Informação do espaço`}</span>
            </div>
            <div className="booking-shell__layout">
              <img
                className="booking-main-image"
                src={SHELL_BRANCH_IMAGE}
                alt={SHELL_BRANCH_NAME}
                width="640"
                height="480"
              />
            </div>
          </div>
        </section>
      </div>
    </div>
  );
}
