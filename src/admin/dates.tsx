import '@mantine/dates/styles.css';
import { useLingui } from '@lingui/react/macro';
import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import 'dayjs/locale/de.js';
import 'dayjs/locale/en-gb.js';
import 'dayjs/locale/fr.js';
import 'dayjs/locale/pt.js';
import 'dayjs/locale/sk.js';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import localizedFormat from 'dayjs/plugin/localizedFormat.js';
import type { ReactNode } from 'react';
import type { Locale } from '../i18n/locales.ts';
import { useAdminLocale } from './context.tsx';

// Dates are typed and shown in the console's language ('L' is 26/03/2026 in pt, 26.03.2026 in de, 26. 3. 2026
// in sk); the value stays ISO ('YYYY-MM-DD'), as the machines and the contract keep it. Native date inputs
// follow the browser's language instead, whatever the console's.
dayjs.extend(customParseFormat);
dayjs.extend(localizedFormat);

/** dayjs's locale per console language: English is British, as everywhere else in the product. */
const DAYJS_LOCALES: Record<Locale, string> = { pt: 'pt', en: 'en-gb', fr: 'fr', de: 'de', sk: 'sk' };

export function ConsoleDates({ children }: { children: ReactNode }) {
  const lang = useAdminLocale();
  return (
    <DatesProvider settings={{ locale: DAYJS_LOCALES[lang], firstDayOfWeek: 1 }}>{children}</DatesProvider>
  );
}

type FieldProps = Omit<DateInputProps, 'value' | 'onChange' | 'defaultValue'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
};

function useCalendarLabels(): Pick<DateInputProps, 'ariaLabels' | 'nextLabel' | 'previousLabel'> {
  const { t } = useLingui();
  return {
    nextLabel: t`Seguinte`,
    previousLabel: t`Anterior`,
    ariaLabels: {
      monthLevelControl: t`Escolher o mês`,
      yearLevelControl: t`Escolher o ano`,
      nextMonth: t`Mês seguinte`,
      previousMonth: t`Mês anterior`,
      nextYear: t`Ano seguinte`,
      previousYear: t`Ano anterior`,
      nextDecade: t`Década seguinte`,
      previousDecade: t`Década anterior`,
    },
  };
}

/** A day, `YYYY-MM-DD` ('' when empty), typed or picked in the console's language. */
export function DayField({ value, onChange, ...props }: FieldProps) {
  return (
    <DateInput
      valueFormat="L"
      value={value === '' ? null : value}
      onChange={(next) => onChange(next ?? '')}
      {...useCalendarLabels()}
      {...props}
    />
  );
}

/** A wall-clock moment, `YYYY-MM-DDTHH:mm` like a datetime-local input ('' when empty). */
export function DayTimeField({ value, onChange, ...props }: FieldProps) {
  return (
    <DateInput
      withTime
      valueFormat="L LT"
      value={value === '' ? null : `${value.replace('T', ' ')}:00`}
      onChange={(next) => onChange(next ? next.slice(0, 16).replace(' ', 'T') : '')}
      {...useCalendarLabels()}
      {...props}
    />
  );
}
