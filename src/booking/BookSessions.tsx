import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMemo } from 'react';
import { FIELD_LIMITS } from '../../machines/field-limits.ts';
import type { Branch } from '../../machines/branches.ts';
import { SERIES_WEEKS, type WeeklyOccurrence } from '../../machines/booking.machine.ts';
import { couponTerms, slotDiscount } from '../../machines/booking.selectors.ts';
import {
  calendarCells,
  deviceOffsetDiffers,
  discountedCents,
  groupByDate,
  toCents,
  totalEuros,
  type TimeSlot,
} from '../../machines/booking.pricing.ts';
import { formatEuros } from '../i18n/format.ts';
import type { Locale } from '../i18n/locales.ts';
import { slotTimes } from '../account/time.ts';
import { SubmitForm } from '../ui/SubmitForm.tsx';
import { deviceTimeZone, formatDay, formatMonth, formatShortDay, weekdayNames } from './dates.ts';
import { moveInGrid } from './roving.ts';
import { bookingFlow } from './useBooking.tsx';

export function Price({
  slot,
  discount,
  locale,
}: {
  slot: TimeSlot;
  discount: number | null;
  locale: Locale;
}) {
  const { t } = useLingui();
  const final = discountedCents(slot.basic_price_eur, discount);
  const original = toCents(slot.basic_price_eur);
  const discounted = final !== original;
  // A struck price is not read as struck: a screen reader said "9 € 8,10 €". Was and now are said (issue 30).
  return (
    <span>
      {discounted && (
        <>
          <span className="visually-hidden">{t`Preço antes do desconto:`} </span>
          <s className="price--original">{formatEuros(original / 100, locale)}</s>
          <span className="visually-hidden">, {t`com desconto:`} </span>
        </>
      )}
      <span>{formatEuros(final / 100, locale)}</span>
    </span>
  );
}

type CalendarEvent =
  { type: 'month.previous' } | { type: 'month.next' } | { type: 'date.select'; date: string };

/** The month grid of the booking flows: a day can be picked when the flow's machine accepts it (`canSelect`). */
export function MonthCalendar({
  month,
  date,
  canSelect,
  send,
  locale,
}: {
  month: string;
  date: string;
  canSelect: (date: string) => boolean;
  send: (event: CalendarEvent) => void;
  locale: Locale;
}) {
  const { t } = useLingui();
  const weekdays = weekdayNames(locale);
  const cells = calendarCells(month);
  // The grid's one tab stop: the chosen day when it is in view, else the first day that can be chosen.
  const focusCell = cells.includes(date) && canSelect(date) ? date : cells.find(canSelect);
  const monthStep = (type: 'month.previous' | 'month.next', label: string, glyph: string) => (
    <ActionIcon variant="subtle" aria-label={label} onClick={() => send({ type })} size="lg">
      {glyph}
    </ActionIcon>
  );
  return (
    <section aria-label={t`Calendário`}>
      <div className="calendar__head">
        {monthStep('month.previous', t`Mês anterior`, '‹')}
        <span className="calendar__month" aria-live="polite">
          {formatMonth(month, locale)}
        </span>
        {monthStep('month.next', t`Mês seguinte`, '›')}
      </div>
      <div
        className="calendar__grid"
        role="group"
        aria-label={formatMonth(month, locale)}
        onKeyDown={moveInGrid}
      >
        {weekdays.map((weekday) => (
          <abbr key={weekday.long} title={weekday.long} className="calendar__weekday">
            {weekday.short}
          </abbr>
        ))}
        {cells.map((cell) => {
          const classes = ['calendar__day'];
          if (!cell.startsWith(month)) classes.push('calendar__day--other-month');
          if (cell === date) classes.push('calendar__day--selected');
          return (
            <button
              key={cell}
              type="button"
              className={classes.join(' ')}
              disabled={!canSelect(cell)}
              tabIndex={cell === focusCell ? 0 : -1}
              aria-pressed={cell === date}
              aria-label={formatDay(cell, locale)}
              onClick={() => send({ type: 'date.select', date: cell })}
            >
              {Number(cell.slice(8, 10))}
            </button>
          );
        })}
      </div>
    </section>
  );
}

function Calendar({ locale }: { locale: Locale }) {
  const send = bookingFlow.useSend();
  const month = bookingFlow.useSelector((state) => state.context.month);
  const date = bookingFlow.useSelector((state) => state.context.date);
  const cells = useMemo(() => calendarCells(month), [month]);
  // The days of the month in view that the machine takes now, as one value: the 42 days render again when that
  // changes, not at every step of the flow (each slot loaded, each slot chosen).
  const selectable = bookingFlow.useSelector((state) =>
    cells.filter((cell) => state.can({ type: 'date.select', date: cell })).join(' '),
  );
  const selectableDays = useMemo(() => new Set(selectable.split(' ')), [selectable]);
  return (
    <MonthCalendar
      month={month}
      date={date}
      canSelect={(cell) => selectableDays.has(cell)}
      send={send}
      locale={locale}
    />
  );
}

function Coupon() {
  const { t } = useLingui();
  const send = bookingFlow.useSend();
  const coupon = bookingFlow.useSelector((state) => state.context.coupon);
  const couponError = bookingFlow.useSelector((state) => state.context.couponError);
  const couponInput = bookingFlow.useSelector((state) => state.context.couponInput);
  const checking = bookingFlow.useSelector((state) => state.matches({ browsing: { coupon: 'checking' } }));
  const canApply = bookingFlow.useCan({ type: 'coupon.apply' });
  const error = couponError
    ? couponError.kind === 'invalid'
      ? couponError.detail
      : t`Não foi possível verificar o código do cupão. Tente novamente mais tarde.`
    : null;
  if (coupon) {
    const code = coupon.code;
    const percent = Math.round(coupon.discount * 100);
    return (
      <Group gap="sm" align="center">
        <Text>
          {coupon.offered ? (
            <Trans>
              Cupão de cliente fundador {code} aplicado automaticamente: {percent}% de desconto.
            </Trans>
          ) : (
            <Trans>
              Cupão {code} aplicado: {percent}% de desconto.
            </Trans>
          )}{' '}
          {coupon.remaining_uses !== null && (
            <Plural
              value={coupon.remaining_uses}
              one="Vale para o próximo horário que reservar."
              other="Vale para os próximos # horários que reservar."
            />
          )}
        </Text>
        <Button variant="subtle" onClick={() => send({ type: 'coupon.remove' })}>
          <Trans>Remover cupão</Trans>
        </Button>
      </Group>
    );
  }
  return (
    <SubmitForm onSubmit={() => send({ type: 'coupon.apply' })}>
      <Group gap="sm" align="flex-start">
        <TextInput
          label={t`Código de cupão`}
          value={couponInput}
          maxLength={FIELD_LIMITS.couponCode}
          onChange={(event) => send({ type: 'coupon.input', value: event.currentTarget.value })}
          error={error}
          autoComplete="off"
        />
        <Button type="submit" mt={25} disabled={!canApply} loading={checking}>
          <Trans>Aplicar</Trans>
        </Button>
      </Group>
    </SubmitForm>
  );
}

function Slots({ locale }: { locale: Locale }) {
  const { t } = useLingui();
  const [state, send] = bookingFlow.useFlow();
  const { slots, selected } = state.context;
  // The grid's one tab stop: the first chosen slot of the day, else its first slot that can be chosen.
  const focusSlot =
    slots.find((slot) => selected.some((candidate) => candidate.id === slot.id)) ??
    slots.find((slot) => state.can({ type: 'slot.toggle', slot }));
  // While the branch's date is still loading there is no list yet either, not an empty day.
  if (state.matches('loadingToday') || state.matches({ browsing: { slots: 'loading' } })) {
    return (
      <Text c="dimmed" role="status">
        <Trans>A carregar os horários…</Trans>
      </Text>
    );
  }
  if (state.matches({ browsing: { slots: 'failed' } })) {
    return (
      <Alert color="red" role="alert">
        <Trans>Não foi possível obter os horários. Tente novamente mais tarde.</Trans>
      </Alert>
    );
  }
  if (slots.length === 0) {
    return (
      <Text c="dimmed">
        <Trans>Não há horários neste dia.</Trans>
      </Text>
    );
  }
  return (
    <div className="slot-grid" role="group" aria-label={t`Horários`} onKeyDown={moveInGrid}>
      {slots.map((slot) => {
        const chosen = selected.some((candidate) => candidate.id === slot.id);
        return (
          <button
            key={slot.id}
            type="button"
            className="slot"
            aria-pressed={chosen}
            tabIndex={slot.id === focusSlot?.id ? 0 : -1}
            disabled={!state.can({ type: 'slot.toggle', slot })}
            onClick={() => send({ type: 'slot.toggle', slot })}
          >
            <span className="slot__time">{slotTimes(slot, locale)}</span>
            <Price slot={slot} discount={slotDiscount(state.context, slot)} locale={locale} />
          </button>
        );
      })}
    </div>
  );
}

/**
 * Issue 30: what is in the basket, across dates (the grid shows only the day in view): each chosen slot with
 * its date, time and price, removable here; how many, and the total with the coupon.
 */
function Basket({ locale }: { locale: Locale }) {
  const { t } = useLingui();
  const [state, send] = bookingFlow.useFlow();
  const { selected, series } = state.context;
  if (selected.length === 0 && !series) return null;
  const count = selected.length;
  const total = formatEuros(totalEuros(selected, couponTerms(state.context)), locale);
  return (
    <section className="basket" aria-labelledby="basket-title">
      <Group justify="space-between" align="baseline">
        <Title order={4} size="h5" id="basket-title">
          <Plural value={count} one="# horário escolhido" other="# horários escolhidos" />
        </Title>
        <Text fw={800}>
          <Trans>Total: {total}</Trans>
        </Text>
      </Group>
      {series ? (
        <SeriesWeeks weeks={series.occurrences} locale={locale} />
      ) : (
        <ul className="basket__list">
          {groupByDate(selected).flatMap((group) =>
            group.slots.map((slot) => {
              const when = `${formatShortDay(group.date, locale)}, ${slotTimes(slot, locale)}`;
              return (
                <li key={slot.id} className="basket__item">
                  <span className="basket__when">{when}</span>
                  <Price slot={slot} discount={slotDiscount(state.context, slot)} locale={locale} />
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={t`Remover ${when}`}
                    disabled={!state.can({ type: 'slot.toggle', slot })}
                    onClick={() => send({ type: 'slot.toggle', slot })}
                  >
                    <span aria-hidden="true">×</span>
                  </ActionIcon>
                </li>
              );
            }),
          )}
        </ul>
      )}
      <RepeatWeekly />
    </section>
  );
}

/** Why a week of a series cannot be booked, as the member reads it beside the week. */
function useWeekProblem() {
  const { t } = useLingui();
  return (problem: NonNullable<WeeklyOccurrence['problem']>): string =>
    ({
      taken: t`já reservado`,
      closed: t`espaço fechado neste dia`,
      past: t`já passou`,
      no_slot: t`sem horário a esta hora neste dia`,
      beyond_horizon: t`ainda não aberto a reservas`,
    })[problem];
}

/**
 * Issue 31: the weeks of the series being chosen, each kept (in the basket) or dropped with its checkbox; a week
 * that cannot be booked says why and cannot be kept.
 */
function SeriesWeeks({ weeks, locale }: { weeks: WeeklyOccurrence[]; locale: Locale }) {
  const { t } = useLingui();
  const [state, send] = bookingFlow.useFlow();
  const problemText = useWeekProblem();
  return (
    <Stack gap={6} className="basket__list" role="group" aria-label={t`Semanas da série`}>
      {weeks.map((occurrence) => {
        const { week, slot, problem } = occurrence;
        const day = formatShortDay(occurrence.date, locale);
        if (!slot || problem) {
          const why = problemText(problem ?? 'no_slot');
          return (
            <Text key={week} c="gray.5" size="sm">
              <Trans>
                Semana {week}: {day}, {why}
              </Trans>
            </Text>
          );
        }
        const times = slotTimes(slot, locale);
        // A native checkbox: Mantine's would add a kilobyte to what opening the booking modal loads.
        return (
          <label key={week} className="series-week">
            <input
              type="checkbox"
              className="series-week__box"
              checked={state.context.selected.some((chosen) => chosen.id === slot.id)}
              disabled={!state.can({ type: 'slot.toggle', slot })}
              onChange={() => send({ type: 'slot.toggle', slot })}
            />
            <span>{t`Semana ${week}: ${day}, ${times}`}</span>
            <Price slot={slot} discount={slotDiscount(state.context, slot)} locale={locale} />
          </label>
        );
      })}
      <Text size="sm" c="gray.5">
        <Trans>
          Cada semana é uma reserva própria, com o seu código da porta e o seu reembolso se a cancelar.
        </Trans>
      </Text>
    </Stack>
  );
}

/** Repeats the one chosen slot on the same weekday and time for a number of weeks, or stops repeating it. */
function RepeatWeekly() {
  const { t } = useLingui();
  const [state, send] = bookingFlow.useFlow();
  const { series, seriesWeeks, seriesFailed } = state.context;
  const previewing = state.matches({ browsing: { series: 'previewing' } });
  const canPreview = state.can({ type: 'series.preview' });
  if (!canPreview && !previewing && !series) return null;
  return (
    <Stack gap="xs" mt="xs">
      <SubmitForm onSubmit={() => send({ type: 'series.preview' })}>
        <Stack gap="xs">
          <TextInput
            type="number"
            inputMode="numeric"
            label={t`Repetir todas as semanas, durante (semanas)`}
            value={String(seriesWeeks)}
            min={SERIES_WEEKS.min}
            max={SERIES_WEEKS.max}
            step={1}
            maw={320}
            onChange={(event) => {
              const weeks = Number(event.currentTarget.value);
              if (event.currentTarget.value !== '') send({ type: 'series.weeks', weeks });
            }}
          />
          <Group gap="sm">
            <Button type="submit" variant="light" disabled={!canPreview} loading={previewing}>
              {series ? t`Atualizar as semanas` : t`Ver as semanas`}
            </Button>
            {series && (
              <Button variant="subtle" onClick={() => send({ type: 'series.stop' })}>
                <Trans>Não repetir</Trans>
              </Button>
            )}
          </Group>
        </Stack>
      </SubmitForm>
      {seriesFailed && (
        <Text c="red.4" size="sm" role="alert">
          <Trans>Não foi possível obter as semanas. Tente novamente mais tarde.</Trans>
        </Text>
      )}
    </Stack>
  );
}

export function BookSessions({
  branch,
  locale,
  onLogin,
}: {
  branch: Branch;
  locale: Locale;
  onLogin: () => void;
}) {
  const branchName = branch.name;
  const send = bookingFlow.useSend();
  const loggedIn = bookingFlow.useSelector((state) => state.context.loggedIn);
  const date = bookingFlow.useSelector((state) => state.context.date);
  const slotsFailed = bookingFlow.useSelector((state) => state.matches({ browsing: { slots: 'failed' } }));
  const canClear = bookingFlow.useCan({ type: 'selection.clear' });
  const canOpenSummary = bookingFlow.useCan({ type: 'summary.open' });
  const showWarning = deviceOffsetDiffers(branch.time_zone, deviceTimeZone());
  return (
    <div className="booking-layout">
      <Stack gap="md">
        <img className="booking-main-image" src={branch.image} alt={branchName} width="640" height="480" />
        <Calendar locale={locale} />
        {showWarning && (
          <Alert color="yellow" variant="light">
            <Trans>Todos os horários são sempre no fuso horário da localização do espaço.</Trans>
          </Alert>
        )}
      </Stack>
      <Stack gap="md">
        <Title order={3} size="h4" className="summary-date">
          {formatDay(date, locale)}
        </Title>
        <Slots locale={locale} />
        {!slotsFailed &&
          (loggedIn ? (
            <>
              <Basket locale={locale} />
              <Coupon />
              <Group gap="sm">
                <Button
                  variant="default"
                  disabled={!canClear}
                  onClick={() => send({ type: 'selection.clear' })}
                >
                  <Trans>Desmarcar tudo</Trans>
                </Button>
                <Button disabled={!canOpenSummary} onClick={() => send({ type: 'summary.open' })}>
                  <Trans>Confirmar reserva</Trans>
                </Button>
              </Group>
            </>
          ) : (
            <Button className="booking-wrap-button" onClick={onLogin}>
              <Trans>Iniciar sessão para reservar em {branchName}</Trans>
            </Button>
          ))}
      </Stack>
    </div>
  );
}
