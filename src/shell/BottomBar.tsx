import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useLoggedIn } from '../app/context.tsx';
import { LanguageSelector } from './LanguageSelector.tsx';
import { useOpenModal } from './navigation.ts';
import { LineIcon } from '../ui/LineIcon.tsx';
import { SHELL_ICONS } from './icons.ts';

function BarButton({
  icon,
  label,
  onClick,
}: {
  icon: keyof typeof SHELL_ICONS;
  label: ReactNode;
  onClick: () => void;
}) {
  return (
    <button type="button" className="bottom-bar__button" onClick={onClick}>
      <LineIcon size={22} path={SHELL_ICONS[icon]} />
      <span>{label}</span>
    </button>
  );
}

/** Native navigation: My Bookings, Profile and Settings when logged in; Login or Register and Language when not. */
export function BottomBar() {
  const { t } = useLingui();
  const loggedIn = useLoggedIn();
  const openModal = useOpenModal();
  return (
    <nav className="bottom-bar" aria-label={t`Navegação principal`}>
      {loggedIn ? (
        <>
          <BarButton
            icon="bookings"
            label={<Trans>Reservas</Trans>}
            onClick={() => openModal({ modal: 'account', tab: 'myBookings' })}
          />
          <BarButton
            icon="profile"
            label={<Trans>Perfil</Trans>}
            onClick={() => openModal({ modal: 'account', tab: 'profile' })}
          />
          <BarButton
            icon="settings"
            label={<Trans>Definições</Trans>}
            onClick={() => openModal({ modal: 'account', tab: 'settings' })}
          />
        </>
      ) : (
        <>
          <BarButton
            icon="login"
            label={<Trans>Entrar ou registar</Trans>}
            onClick={() => openModal({ modal: 'auth', tab: 'login' })}
          />
          <LanguageSelector variant="bottom" />
        </>
      )}
    </nav>
  );
}
