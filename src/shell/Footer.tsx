import { Trans } from '@lingui/react/macro';
import { useRuntime } from '../app/context.tsx';
import { SocialLink } from './SocialLink.tsx';
import { Logo } from './TopBar.tsx';
import { useLocale } from './navigation.ts';
import { PageLink } from './PageLink.tsx';

export function Footer() {
  const { config, site } = useRuntime();
  const { company } = site;
  const locale = useLocale();
  const year = new Date().getFullYear();
  const vendor = config.poweredBy.name;
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__brand">
          <span className="brand">
            <Logo />
          </span>
          <p className="footer__tagline">
            <Trans>Ginásios privados, abertos 24/7. Sem mensalidades.</Trans>
          </p>
        </div>
        <nav className="footer__links">
          <PageLink href={`/${locale}/rights#cookies-notice`}>
            <Trans>Aviso de cookies e termos</Trans>
          </PageLink>
          {company.email && <a href={`mailto:${company.email}`}>{company.email}</a>}
          <SocialLink />
        </nav>
        <p className="footer__legal">
          <span>
            © {year} {company.name}. <Trans>Todos os direitos reservados.</Trans>
          </span>
          <a href={config.poweredBy.url} target="_blank" rel="noopener noreferrer">
            <Trans>Tecnologia: {vendor}</Trans>
          </a>
        </p>
      </div>
    </footer>
  );
}
