import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

// Portuguese is the source locale: every message is written in pt and translated into the others.
export default defineConfig({
  sourceLocale: 'pt',
  locales: ['pt', 'en', 'fr', 'de', 'sk'],
  fallbackLocales: { default: 'pt' },
  // The legal texts are long and only the rights page needs them: they live in their own catalog. The
  // modals' texts load with their modals (src/i18n/i18n.ts, loadFeatureMessages), not with the landing page.
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: [
        '<rootDir>/src/rights/legal',
        '<rootDir>/src/auth',
        '<rootDir>/src/account',
        '<rootDir>/src/booking',
        '<rootDir>/src/admin',
        '<rootDir>/src/ui/refund',
      ],
    },
    {
      path: '<rootDir>/locales/{locale}/legal',
      include: ['<rootDir>/src/rights/legal'],
    },
    {
      path: '<rootDir>/locales/{locale}/account',
      include: ['<rootDir>/src/auth', '<rootDir>/src/account', '<rootDir>/src/ui/refund'],
    },
    {
      path: '<rootDir>/locales/{locale}/booking',
      include: ['<rootDir>/src/booking', '<rootDir>/src/ui/refund'],
    },
    {
      // The operator console (issue 18): loaded with its chunk, never by member pages.
      path: '<rootDir>/locales/{locale}/admin',
      include: ['<rootDir>/src/admin'],
    },
    {
      // The server's texts (e-mails, SMS, error details, the door and outbox pages, operator alerts, console
      // labels): explicit ids, read and compiled by server/kernel/i18n.ts when a language is first used.
      path: '<rootDir>/locales/{locale}/server',
      include: ['<rootDir>/server'],
    },
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
