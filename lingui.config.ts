import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

// Portuguese is the source locale: every message is written in pt and translated into the others.
export default defineConfig({
  sourceLocale: 'pt',
  locales: ['pt', 'en', 'fr', 'de', 'sk'],
  fallbackLocales: { default: 'pt' },
  catalogs: [
    {
      path: '<rootDir>/locales/{locale}/messages',
      include: ['<rootDir>/src'],
    },
  ],
  format: formatter({ lineNumbers: false }),
  orderBy: 'messageId',
});
