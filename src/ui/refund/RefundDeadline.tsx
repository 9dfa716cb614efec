import './refund-deadline.css';
import { useLingui } from '@lingui/react/macro';
import { lowestRefundThreshold, refundSchedule } from '../../../machines/refund-schedule.ts';
import { shortDateTime } from '../../account/time.ts';
import type { Locale } from '../../i18n/locales.ts';

// Shown by the booking modal and by My bookings: its texts are in both features' catalogs (lingui.config.ts), so
// each modal has them with its own.

/**
 * Issue 30: what cancelling a booking will refund, and until when, read before paying (the booking summary, from
 * the live policy) and in My bookings (from the policy the booking was made under): "Free cancellation until
 * Thu 3 Dec, 6:00 pm, then 50% until Fri 4 Dec, 6:00 pm, then no refund." A booking already in its no-refund
 * window says so plainly. Times are the branch's.
 */
export function useRefundDeadlineText() {
  const { t } = useLingui();
  return (
    ratios: Record<string, number>,
    start: string,
    timeZone: string,
    locale: Locale,
    now: number,
  ): { text: string; refundable: boolean } | null => {
    const steps = refundSchedule(ratios, Date.parse(start), now);
    const [first, ...rest] = steps;
    if (!first) return null;
    if (first.percent === 0) {
      const hours = lowestRefundThreshold(ratios);
      return {
        text:
          hours === null || rest.length > 0
            ? t`Não reembolsável se cancelar agora.`
            : t`Começa em menos de ${hours} h: não é reembolsável.`,
        refundable: false,
      };
    }
    const when = (until: number) => shortDateTime(until, timeZone, locale);
    const parts = [
      first.percent === 100
        ? t`Cancelamento gratuito até ${when(first.until)}`
        : t`Reembolso de ${first.percent}% até ${when(first.until)}`,
      ...rest.map((step) =>
        step.percent === 0 ? t`depois sem reembolso` : t`depois ${step.percent}% até ${when(step.until)}`,
      ),
    ];
    return { text: `${parts.join(', ')}.`, refundable: true };
  };
}

export function RefundDeadline(props: {
  ratios: Record<string, number> | null;
  start: string;
  timeZone: string;
  locale: Locale;
  now: number;
}) {
  const deadlineText = useRefundDeadlineText();
  if (!props.ratios) return null;
  const deadline = deadlineText(props.ratios, props.start, props.timeZone, props.locale, props.now);
  if (!deadline) return null;
  return (
    <p className={`refund-deadline${deadline.refundable ? '' : ' refund-deadline--none'}`}>{deadline.text}</p>
  );
}
