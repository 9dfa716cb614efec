import { Trans } from '@lingui/react/macro';
import { Link, useParams } from '@tanstack/react-router';
import { DEFAULT_LOCALE, isLocale } from '../i18n/locales.ts';

export function NotFound() {
  // Also shown by the root route, outside the page frame and its navigation.
  const { lang } = useParams({ strict: false });
  const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;
  return (
    <section className="not-found">
      <p className="eyebrow">404</p>
      <h1>
        <Trans>Esta página não existe.</Trans>
      </h1>
      <Link to="/$lang" params={{ lang: locale }} className="button-link">
        <Trans>Voltar ao início</Trans>
      </Link>
    </section>
  );
}
