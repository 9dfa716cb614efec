import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useLocale } from './navigation.ts';

export function NotFound() {
  const locale = useLocale();
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
