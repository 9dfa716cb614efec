import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import { intlTag } from '../i18n/format.ts';
import { useAdminLocale } from './context.tsx';

// Dates are typed and shown as the console's language writes them (26/03/2026 in pt, 26.03.2026 in de,
// 26. 3. 2026 in sk), taken from Intl; the value stays ISO ('YYYY-MM-DD', 'YYYY-MM-DDTHH:mm') for the machines
// and the contract. Native date inputs follow the browser's language instead, whatever the console's; Mantine's
// date inputs (@mantine/dates) cost the booking modal 10 KiB through the chunks it shares with the console.

type Part = 'day' | 'month' | 'year';

const dayFormat = (tag: string) =>
  new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });

/** The order the language writes day, month and year in. */
function partOrder(tag: string): Part[] {
  return dayFormat(tag)
    .formatToParts(new Date(Date.UTC(2026, 2, 26)))
    .map((part) => part.type)
    .filter((type): type is Part => type === 'day' || type === 'month' || type === 'year');
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function formatValue(value: string, tag: string, withTime: boolean): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(value);
  if (!match) return '';
  const [, year, month, day, hour, minute] = match;
  const date = dayFormat(tag).format(new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))));
  return withTime && hour !== undefined ? `${date} ${hour}:${minute}` : date;
}

/** The ISO value of what was typed in the language's order, or null while it is not a whole, real date. */
function parseText(text: string, tag: string, withTime: boolean): string | null {
  const numbers = (text.match(/\d+/g) ?? []).map(Number);
  if (numbers.length !== (withTime ? 5 : 3)) return null;
  const parts = Object.fromEntries(partOrder(tag).map((part, index) => [part, numbers[index]!])) as Record<
    Part,
    number
  >;
  const { day, month, year } = parts;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    year < 1000 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return null;
  const iso = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  if (!withTime) return iso;
  const [hour, minute] = [numbers[3]!, numbers[4]!];
  if (hour > 23 || minute > 59) return null;
  return `${iso}T${pad(hour)}:${pad(minute)}`;
}

type FieldProps = Omit<TextInputProps, 'value' | 'onChange' | 'defaultValue'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
};

/**
 * The text being typed is the field's own (a half-typed date is no value yet); the value, ISO, is the page's
 * or its machine's, and a value set from outside (a reset) is shown again.
 */
function LocalisedDateField({ value, onChange, withTime, ...props }: FieldProps & { withTime: boolean }) {
  const tag = intlTag(useAdminLocale());
  const [text, setText] = useState(() => formatValue(value, tag, withTime));
  // A value or language changed from outside is shown again (React's "adjusting state on a prop change").
  const [shownFor, setShownFor] = useState(`${value}|${tag}`);
  if (shownFor !== `${value}|${tag}`) {
    setShownFor(`${value}|${tag}`);
    if ((parseText(text, tag, withTime) ?? '') !== value || !shownFor.endsWith(`|${tag}`))
      setText(formatValue(value, tag, withTime));
  }
  const example = formatValue(withTime ? '2026-12-31T18:30' : '2026-12-31', tag, withTime);
  return (
    <TextInput
      inputMode="numeric"
      autoComplete="off"
      description={example}
      value={text}
      onChange={(event) => {
        const typed = event.currentTarget.value;
        setText(typed);
        const parsed = parseText(typed, tag, withTime);
        if (parsed !== null) onChange(parsed);
        else if (typed.trim() === '') onChange('');
      }}
      onBlur={() => {
        const parsed = parseText(text, tag, withTime);
        if (parsed !== null) setText(formatValue(parsed, tag, withTime));
      }}
      {...props}
    />
  );
}

/** A day, `YYYY-MM-DD` ('' when empty), typed as the console's language writes it. */
export function DayField(props: FieldProps) {
  return <LocalisedDateField {...props} withTime={false} />;
}

/** A wall-clock moment, `YYYY-MM-DDTHH:mm` like a datetime-local input ('' when empty). */
export function DayTimeField(props: FieldProps) {
  return <LocalisedDateField {...props} withTime />;
}
