import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../ui/Button.tsx';
import { useActorSelector, useBranches, useLoggedIn, useRuntime } from '../app/context.tsx';
import { DropdownMenu, MenuItem } from '../ui/DropdownMenu.tsx';
import { SECTION_IDS, useGoToSection, useOpenModal } from './navigation.ts';
import { LineIcon } from '../ui/LineIcon.tsx';
import { SHELL_ICONS } from './icons.ts';

/**
 * 'Book now' opens the booking modal directly with one or no active branch (docs/decisions.md; with none, the modal
 * says 'No active branch found'), else scrolls to the branches.
 */
export function useBookNow() {
  const { active, ready } = useBranches();
  const openModal = useOpenModal();
  const goToSection = useGoToSection();
  return {
    available: ready,
    bookNow: () =>
      active.length <= 1
        ? openModal({ modal: 'booking', tab: 'bookSessions', branchId: active[0]?.id })
        : goToSection(SECTION_IDS.branches),
  };
}

/** The top bar's right-hand actions: 'login-or-register' when logged out; 'book-now' and the user menu when logged in. */
export function AccountActions() {
  const { t } = useLingui();
  const loggedIn = useLoggedIn();
  const openModal = useOpenModal();
  const { available, bookNow } = useBookNow();
  const { session } = useRuntime();
  const firstName = useActorSelector(session, (state) => state.context.user?.first_name ?? null);

  if (!loggedIn) {
    return (
      <Button className="top-bar__cta" onClick={() => openModal({ modal: 'auth', tab: 'login' })}>
        <Trans>Entrar ou registar</Trans>
      </Button>
    );
  }

  return (
    <>
      {available && (
        <Button className="top-bar__cta" onClick={bookNow}>
          <Trans>Reservar agora</Trans>
        </Button>
      )}
      <DropdownMenu
        // The accessible name starts with the visible name on the button (WCAG 2.5.3, label in name).
        label={firstName ? t`${firstName} — menu da conta` : t`Menu da conta`}
        triggerClassName="user-button"
        trigger={
          <>
            <LineIcon size={20} path={SHELL_ICONS.profile} />
            {firstName && <span className="user-button__name">{firstName}</span>}
          </>
        }
      >
        {(close) => (
          <>
            <MenuItem
              onSelect={() => {
                close();
                openModal({ modal: 'account', tab: 'myBookings' });
              }}
            >
              <Trans>As minhas reservas</Trans>
            </MenuItem>
            <MenuItem
              onSelect={() => {
                close();
                openModal({ modal: 'account', tab: 'profile' });
              }}
            >
              <Trans>Perfil</Trans>
            </MenuItem>
            <div className="dropdown__separator" role="separator" />
            <MenuItem
              onSelect={() => {
                close();
                session.send({ type: 'logout' });
              }}
            >
              <Trans>Terminar sessão</Trans>
            </MenuItem>
          </>
        )}
      </DropdownMenu>
    </>
  );
}
