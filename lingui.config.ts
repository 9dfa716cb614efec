import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

// Portuguese is the source locale: every message is written in pt and translated into the others.
export default defineConfig({
  sourceLocale: 'pt',
  locales: ['pt', 'en', 'fr', 'de', 'sk'],
  fallbackLocales: { default: 'pt' },
  // The legal texts are long and only the rights page needs them: they live in their own catalog.
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: ['<rootDir>/src/rights/legal'],
    },
    {
      path: '<rootDir>/locales/{locale}/legal',
      include: ['<rootDir>/src/rights/legal'],
    },
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
