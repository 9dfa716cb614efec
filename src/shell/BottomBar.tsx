import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useLoggedIn } from '../app/context.tsx';
import { LanguageSelector } from './LanguageSelector.tsx';
import { useOpenModal } from './navigation.ts';
import { LineIcon } from '../ui/LineIcon.tsx';

function Icon({ path }: { path: string }) {
  return (
    <LineIcon size={22}>
      <path d={path} />
    </LineIcon>
  );
}

const ICONS = {
  bookings: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
  profile: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c0-4.4 3.6-7 8-7s8 2.6 8 7',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
  login: 'M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4M10 17l5-5-5-5M15 12H3',
};

function BarButton({
  icon,
  label,
  onClick,
}: {
  icon: keyof typeof ICONS;
  label: ReactNode;
  onClick: () => void;
}) {
  return (
    <button type="button" className="bottom-bar__button" onClick={onClick}>
      <Icon path={ICONS[icon]} />
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
