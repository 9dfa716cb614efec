import { useLingui } from '@lingui/react/macro';
import { type AdminBooking, type MemberDetail } from '../../../machines/adminConsole.actors.ts';
import { timeOnly, timeRange } from '../../account/time.ts';
import { formatEuros, intlTag } from '../../i18n/format.ts';
import { useAdminLocale } from '../context.tsx';

// How the console writes money, figures and times (the console's locale, each branch's zone), and a file download.

export function useMoney() {
  const lang = useAdminLocale();
  return (euros: number) => formatEuros(euros, lang);
}

/** Ratios as percentages, hours, and report periods (a day, or the first day of a week or month) in the console's language. */
export function useFigures() {
  const tag = intlTag(useAdminLocale());
  const percentFormat = new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 1 });
  const numberFormat = new Intl.NumberFormat(tag, { maximumFractionDigits: 2 });
  const dayFormat = new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return {
    percent: (ratio: number) => percentFormat.format(ratio),
    number: (value: number) => numberFormat.format(value),
    period: (isoDay: string) => dayFormat.format(new Date(`${isoDay}T00:00:00Z`)),
  };
}

/** The ISO weekdays' names in the console's language (1 Monday .. 7 Sunday). */
export function useWeekdayNames(style: 'long' | 'short') {
  const format = new Intl.DateTimeFormat(intlTag(useAdminLocale()), { weekday: style, timeZone: 'UTC' });
  // 1 January 2024 was a Monday.
  return (day: number) => format.format(new Date(Date.UTC(2024, 0, day)));
}

/** An amount in a currency's minor unit, in the console's language (the currency's own decimals). */
export function useMinorUnits() {
  const lang = useAdminLocale();
  return (cents: number, currency: string) => {
    const format = new Intl.NumberFormat(intlTag(lang), { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(cents / 10 ** digits);
  };
}

export function useTimes() {
  const lang = useAdminLocale();
  return {
    range: (start: string, end: string, zone: string) => timeRange(start, end, zone, lang),
    time: (iso: string, zone: string) => timeOnly(iso, zone, lang),
    instant: (iso: string) =>
      new Date(iso).toLocaleString(lang === 'en' ? 'en-GB' : lang, {
        dateStyle: 'short',
        timeStyle: 'short',
      }),
  };
}

export function memberName(member: AdminBooking['member']): string {
  if (!member) return '—';
  const name = `${member.first_name} ${member.last_name}`.trim();
  return name || member.email || member.phone_number || '—';
}

/** Saves text as a file the operator downloads (CSV reports, a member's data export). */
export function download(name: string, type: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export type Movement = MemberDetail['payments'][number];

/** What each movement of money was for, in the console's language. */
export function useMoneyPurposes(): Record<Movement['purpose'], string> {
  const { t } = useLingui();
  return {
    booking: t`reserva`,
    move_difference: t`diferença de uma mudança`,
    cancellation: t`cancelamento pelo cliente`,
    move_to_cheaper_slot: t`mudança para um horário mais barato`,
    closure: t`encerramento`,
    operator: t`decisão de um operador`,
    account_deletion: t`conta eliminada`,
    late_payment: t`pagamento tardio`,
    move_late_payment: t`pagamento tardio de uma mudança`,
    credit_pack: t`pacote de crédito vendido`,
    gift_voucher: t`vale de oferta vendido`,
  };
}
