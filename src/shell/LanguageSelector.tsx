import { useLingui } from '@lingui/react/macro';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useRuntime } from '../app/context.tsx';
import { DropdownMenu, MenuItem } from '../ui/DropdownMenu.tsx';
import { rememberLocale } from '../i18n/i18n.ts';
import { LOCALE_NAMES, LOCALES, switchLocaleInPath, type Locale } from '../i18n/locales.ts';
import { useLocale } from './navigation.ts';
import { LineIcon } from '../ui/LineIcon.tsx';
import { SHELL_ICONS } from './icons.ts';

/**
 * Switching replaces the leading locale segment, keeps the rest, saves the cookie (and, logged in, the account's
 * language) and re-validates the token.
 */
function useSwitchLocale() {
  const navigate = useNavigate();
  const location = useLocation();
  const { session } = useRuntime();
  return useCallback(
    (locale: Locale) => {
      rememberLocale(locale);
      // A logged-in member's account takes the language too, so the e-mails and SMS that follow use it.
      session.send({ type: 'locale.change', locale });
      void navigate({
        href: `${switchLocaleInPath(location.pathname, locale)}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`,
        resetScroll: false,
      }).then(() => session.send({ type: 'token.validate' }));
    },
    [navigate, location, session],
  );
}

type Variant = 'desktop' | 'mobile' | 'settings' | 'bottom';

/** The language selector in its variants: a menu (desktop, native bottom bar), a row (mobile), a list (settings). */
export function LanguageSelector({ variant }: { variant: Variant }) {
  const { t } = useLingui();
  const current = useLocale();
  const switchLocale = useSwitchLocale();
  const label = t`Idioma`;

  if (variant === 'mobile' || variant === 'settings') {
    return (
      <div className={`language-list language-list--${variant}`} role="group" aria-label={label}>
        {LOCALES.map((locale) => (
          <button
            key={locale}
            type="button"
            lang={locale}
            className="language-list__option"
            aria-pressed={locale === current}
            onClick={() => switchLocale(locale)}
          >
            <span className="language-list__code">{locale.toUpperCase()}</span>
            {variant === 'settings' && <span className="language-list__name">{LOCALE_NAMES[locale]}</span>}
          </button>
        ))}
      </div>
    );
  }

  return (
    <DropdownMenu
      label={`${label}: ${current.toUpperCase()}, ${LOCALE_NAMES[current]}`}
      triggerClassName={variant === 'bottom' ? 'bottom-bar__button' : 'language-button'}
      direction={variant === 'bottom' ? 'up' : 'down'}
      trigger={
        <>
          <LineIcon size={18} path={SHELL_ICONS.language} />
          <span>{current.toUpperCase()}</span>
        </>
      }
    >
      {(close) =>
        LOCALES.map((locale) => (
          <MenuItem
            key={locale}
            lang={locale}
            current={locale === current}
            hint={locale.toUpperCase()}
            onSelect={() => {
              close();
              switchLocale(locale);
            }}
          >
            {LOCALE_NAMES[locale]}
          </MenuItem>
        ))
      }
    </DropdownMenu>
  );
}
