import { useLingui } from '@lingui/react/macro';
import { ActionIcon, TextInput, type TextInputProps } from '@mantine/core';
import { useRef, useState } from 'react';
import { temporal } from '../../machines/temporal.ts';
import { intlTag } from '../i18n/format.ts';
import { LineIcon } from '../ui/LineIcon.tsx';
import { useAdminLocale } from './context.tsx';

// Dates are typed and shown as the console's language writes them (26/03/2026 in pt, 26.03.2026 in de,
// 26. 3. 2026 in sk), taken from Intl; the value stays ISO ('YYYY-MM-DD', 'YYYY-MM-DDTHH:mm') for the machines
// and the contract. Native date inputs follow the browser's language instead, whatever the console's; Mantine's
// date inputs (@mantine/dates) cost the booking modal 10 KiB through the chunks it shares with the console. The
// calendar beside a field is the browser's own (a native date input's picker, opened by a button): no script of
// ours, so nothing for the member's pages to load.

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

/** An ISO day or moment (`2026-03-26`, `2026-03-26T18:30`) as the language writes it; '' for anything else. */
export function formatLocalDate(value: string, tag: string, withTime: boolean): string {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?$/.test(value)) return '';
  const Temporal = temporal();
  let moment: InstanceType<typeof Temporal.PlainDateTime>;
  try {
    moment = Temporal.PlainDateTime.from(value);
  } catch {
    return ''; // 2026-02-31: no day
  }
  const day = moment.toPlainDate();
  const date = dayFormat(tag).format(new Date(Date.UTC(day.year, day.month - 1, day.day)));
  return withTime && value.includes('T')
    ? `${date} ${moment.toPlainTime().toString({ smallestUnit: 'minute' })}`
    : date;
}

/** The ISO value of what was typed in the language's order, or null while it is not a whole, real date. */
export function parseLocalDate(text: string, tag: string, withTime: boolean): string | null {
  const numbers = (text.match(/\d+/g) ?? []).map(Number);
  if (numbers.length !== (withTime ? 5 : 3)) return null;
  const { day, month, year } = Object.fromEntries(
    partOrder(tag).map((part, index) => [part, numbers[index]!]),
  ) as Record<Part, number>;
  if (year < 1000 || year > 9999) return null;
  const [hour, minute] = withTime ? [numbers[3]!, numbers[4]!] : [0, 0];
  try {
    // 'reject': 31/02 or 24:00 is no date, rather than the nearest one.
    const moment = temporal().PlainDateTime.from({ year, month, day, hour, minute }, { overflow: 'reject' });
    return withTime ? moment.toString({ smallestUnit: 'minute' }) : moment.toPlainDate().toString();
  } catch {
    return null;
  }
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
function LocalisedDateField({
  value,
  onChange,
  onBlur,
  withTime,
  ...props
}: FieldProps & { withTime: boolean }) {
  const { t } = useLingui();
  const tag = intlTag(useAdminLocale());
  const native = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(() => formatLocalDate(value, tag, withTime));
  // A value or language changed from outside is shown again (React's "adjusting state on a prop change").
  const [shownFor, setShownFor] = useState(`${value}|${tag}`);
  if (shownFor !== `${value}|${tag}`) {
    setShownFor(`${value}|${tag}`);
    if ((parseLocalDate(text, tag, withTime) ?? '') !== value || !shownFor.endsWith(`|${tag}`))
      setText(formatLocalDate(value, tag, withTime));
  }
  const example = formatLocalDate(withTime ? '2026-12-31T18:30' : '2026-12-31', tag, withTime);
  return (
    <TextInput
      inputMode="numeric"
      autoComplete="off"
      description={example}
      value={text}
      onChange={(event) => {
        const typed = event.currentTarget.value;
        setText(typed);
        const parsed = parseLocalDate(typed, tag, withTime);
        if (parsed !== null) onChange(parsed);
        else if (typed.trim() === '') onChange('');
      }}
      onBlur={(event) => {
        const parsed = parseLocalDate(text, tag, withTime);
        if (parsed !== null) setText(formatLocalDate(parsed, tag, withTime));
        onBlur?.(event);
      }}
      rightSectionPointerEvents="all"
      rightSection={
        <>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t`Escolher no calendário: ${props.label}`}
            disabled={props.disabled ?? false}
            onClick={() => native.current?.showPicker()}
          >
            <LineIcon size={18} path="M4 6h16v14H4zM4 10h16M8 3v4M16 3v4" />
          </ActionIcon>
          {/* Out of sight and of the tab order: the button above opens its picker. */}
          <input
            ref={native}
            type={withTime ? 'datetime-local' : 'date'}
            tabIndex={-1}
            aria-hidden="true"
            value={value}
            onChange={(event) => {
              onChange(event.currentTarget.value);
              setText(formatLocalDate(event.currentTarget.value, tag, withTime));
            }}
            style={{ position: 'absolute', right: 0, bottom: 0, width: 1, height: 1, opacity: 0, border: 0 }}
          />
        </>
      }
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
