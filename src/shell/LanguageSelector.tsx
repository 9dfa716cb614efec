import { useLingui } from '@lingui/react/macro';
import { DropdownMenu, MenuItem } from '../ui/DropdownMenu.tsx';
import { LOCALE_NAMES, LOCALES } from '../i18n/locales.ts';
import { useLocale, useSwitchLocale } from './navigation.ts';
import { LineIcon } from '../ui/LineIcon.tsx';
import { SHELL_ICONS } from './icons.ts';

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
