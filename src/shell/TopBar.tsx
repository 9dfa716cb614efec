import { Trans, useLingui } from '@lingui/react/macro';
import { Burger } from '../ui/Burger.tsx';
import { Button } from '../ui/Button.tsx';
import { useClickOutside, useDisclosure } from '@mantine/hooks';
import type { MouseEvent, ReactNode } from 'react';
import { useActorSelector, useBranches, useLoggedIn, useRuntime } from '../app/context.tsx';
import { AccountActions, useBookNow } from './AccountActions.tsx';
import { LanguageSelector } from './LanguageSelector.tsx';
import { SECTION_IDS, useGoToSection, useLocale, useOpenModal, type SectionId } from './navigation.ts';
import { SocialLink } from './SocialLink.tsx';
import { useTopBarFit } from './useTopBarFit.ts';

type SectionLink = { section: SectionId; label: ReactNode };

/** docs/decisions.md, 'Client': branches before FAQ only with at least one branch; pricing last only with an active branch. */
function useSectionLinks(): SectionLink[] {
  const { branches, active } = useBranches();
  const links: SectionLink[] = [
    { section: SECTION_IDS.why, label: <Trans>Porquê nós</Trans> },
    { section: SECTION_IDS.ai, label: <Trans>Treinador IA</Trans> },
    { section: SECTION_IDS.how, label: <Trans>Como funciona</Trans> },
  ];
  if (branches.length > 0) links.push({ section: SECTION_IDS.branches, label: <Trans>Espaços</Trans> });
  links.push({ section: SECTION_IDS.faq, label: <Trans>Perguntas</Trans> });
  if (active.length > 0) links.push({ section: SECTION_IDS.pricing, label: <Trans>Preços</Trans> });
  return links;
}

function SectionLinks({ className, onNavigate }: { className: string; onNavigate?: () => void }) {
  const locale = useLocale();
  const goToSection = useGoToSection();
  const links = useSectionLinks();
  return (
    <ul className={className}>
      {links.map(({ section, label }) => (
        <li key={section}>
          <a
            href={`/${locale}#${section}`}
            onClick={(event: MouseEvent) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              onNavigate?.();
              goToSection(section);
            }}
          >
            {label}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function Logo() {
  const { site } = useRuntime();
  return (
    <>
      <img className="brand__mark" src="/logo.svg" alt="" width="36" height="36" />
      <span className="brand__name">{site.company.name}</span>
    </>
  );
}

export function TopBar() {
  const { t } = useLingui();
  const locale = useLocale();
  const goToSection = useGoToSection();
  const [menuOpen, menu] = useDisclosure(false);
  const panel = useClickOutside<HTMLDivElement>(() => menu.close());
  const loggedIn = useLoggedIn();
  const openModal = useOpenModal();
  const { available, bookNow } = useBookNow();
  const { session } = useRuntime();
  const userName = useActorSelector(session, (state) => state.context.user?.first_name ?? null);

  const { branches, active } = useBranches();
  const header = useTopBarFit<HTMLElement>([
    locale,
    loggedIn,
    userName,
    available,
    branches.length > 0,
    active.length > 0,
  ]);

  const act = (action: () => void) => () => {
    menu.close();
    action();
  };

  return (
    <header className="top-bar" ref={header}>
      <div className="top-bar__inner" ref={panel}>
        <a
          className="brand"
          href={`/${locale}#home`}
          onClick={(event) => {
            event.preventDefault();
            menu.close();
            goToSection(SECTION_IDS.home);
          }}
        >
          <Logo />
        </a>
        <nav className="top-bar__nav" aria-label={t`Secções`}>
          <SectionLinks className="top-bar__links" />
        </nav>
        <div className="top-bar__actions">
          <SocialLink />
          <LanguageSelector variant="desktop" />
          <div className="top-bar__account">
            <AccountActions />
          </div>
          <Burger
            className="top-bar__burger"
            opened={menuOpen}
            onClick={menu.toggle}
            label={menuOpen ? t`Fechar menu` : t`Abrir menu`}
            controls="mobile-menu"
          />
        </div>
        {menuOpen && (
          <div id="mobile-menu" className="mobile-menu">
            <nav aria-label={t`Secções`}>
              <SectionLinks className="mobile-menu__links" onNavigate={menu.close} />
            </nav>
            <div className="mobile-menu__account">
              {loggedIn ? (
                <>
                  {userName && <p className="mobile-menu__greeting">{userName}</p>}
                  {available && (
                    <Button className="mobile-menu__cta" onClick={act(bookNow)}>
                      <Trans>Reservar agora</Trans>
                    </Button>
                  )}
                  <button
                    type="button"
                    onClick={act(() => openModal({ modal: 'account', tab: 'myBookings' }))}
                  >
                    <Trans>As minhas reservas</Trans>
                  </button>
                  <button type="button" onClick={act(() => openModal({ modal: 'account', tab: 'profile' }))}>
                    <Trans>Perfil</Trans>
                  </button>
                  <button type="button" onClick={act(() => session.send({ type: 'logout' }))}>
                    <Trans>Terminar sessão</Trans>
                  </button>
                </>
              ) : (
                <Button
                  className="mobile-menu__cta"
                  onClick={act(() => openModal({ modal: 'auth', tab: 'login' }))}
                >
                  <Trans>Entrar ou registar</Trans>
                </Button>
              )}
            </div>
            <div className="mobile-menu__footer">
              <LanguageSelector variant="mobile" />
              <SocialLink />
            </div>
          </div>
        )}
      </div>
    </header>
  );
}
