import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { activateLocale, i18n } from './i18n/i18n.ts';
import { localeFromPath } from './i18n/locales.ts';
import './styles.css';

const locale = localeFromPath(window.location.pathname);
if (window.location.pathname === '/') window.history.replaceState(null, '', `/${locale}`);

await activateLocale(locale);
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <App locale={locale} />
    </I18nProvider>
  </StrictMode>,
);
