import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from '@tanstack/react-router';
import { Fragment, useEffect, type ReactNode } from 'react';
import { useRuntime } from '../app/context.tsx';
import { scrollToElement } from '../shell/navigation.ts';
import { useRefundPolicyText } from '../ui/useRefundPolicyText.ts';
import { parseLegalText } from './legal-text.ts';
import { useLegalTexts, type LegalSectionId } from './legal/texts.ts';
import './rights.css';

/** docs/decisions.md, 'Client': the button bar scrolls each section to 80 px below the top of the window. */
const RIGHTS_SCROLL_OFFSET = 80;

function LegalBody({ text }: { text: string }) {
  return (
    <div className="legal__body">
      {parseLegalText(text).map((block, index) => (
        <Fragment key={index}>
          {block.kind === 'heading' && (
            <h3 className="legal__heading">
              <span className="legal__number">{block.number}.</span> {block.text}
            </h3>
          )}
          {block.kind === 'list' && (
            <ul className="legal__list">
              {block.items.map((item, itemIndex) => (
                <li key={itemIndex}>{item}</li>
              ))}
            </ul>
          )}
          {block.kind === 'paragraph' && <p className="legal__paragraph">{block.text}</p>}
        </Fragment>
      ))}
    </div>
  );
}

function scrollToLegalSection(id: string) {
  const element = document.getElementById(id);
  if (element) scrollToElement(element, RIGHTS_SCROLL_OFFSET);
}

export function Rights() {
  const { t } = useLingui();
  const { site } = useRuntime();
  const { company } = site;
  const { hash } = useLocation();
  const refundRatiosText = useRefundPolicyText() ?? site.refundPolicyUntilKnown;
  const texts = useLegalTexts({
    companyName: company.name,
    companyNIF: company.tax_id,
    contactEmail: company.email.replace('@', '%40'),
    refundRatiosText,
  });
  const sections: { id: LegalSectionId; label: ReactNode; title: ReactNode }[] = [
    { id: 'op-rules', label: <Trans>Regras</Trans>, title: <Trans>Regras de utilização</Trans> },
    { id: 'terms-and-conditions', label: <Trans>Termos</Trans>, title: <Trans>Termos e condições</Trans> },
    { id: 'gdpr', label: <Trans>Privacidade</Trans>, title: <Trans>Política de privacidade (RGPD)</Trans> },
    { id: 'cookies-notice', label: <Trans>Cookies</Trans>, title: <Trans>Aviso de cookies</Trans> },
  ];

  useEffect(() => {
    if (hash) requestAnimationFrame(() => scrollToLegalSection(hash));
  }, [hash]);

  return (
    <div className="rights">
      <header className="rights__header">
        <p className="eyebrow">{company.name}</p>
        <h1 className="rights__title">
          <Trans>Regras, termos e privacidade</Trans>
        </h1>
        <p className="rights__intro">
          <Trans>
            Tudo o que precisa de saber para treinar nos nossos espaços: as regras da casa, as condições das
            reservas e como tratamos os seus dados.
          </Trans>
        </p>
      </header>
      <nav className="rights__bar" aria-label={t`Secções desta página`}>
        {sections.map((section) => (
          <button
            key={section.id}
            type="button"
            className="rights__bar-button"
            onClick={() => scrollToLegalSection(section.id)}
          >
            {section.label}
          </button>
        ))}
      </nav>
      {sections.map((section) => (
        <section key={section.id} id={section.id} className="legal" aria-labelledby={`${section.id}-title`}>
          <h2 id={`${section.id}-title`} className="legal__title">
            {section.title}
          </h2>
          <LegalBody text={texts[section.id]} />
        </section>
      ))}
    </div>
  );
}
