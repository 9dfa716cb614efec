import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Anchor, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import type { SummaryError } from '../../machines/booking.machine.ts';
import {
  couponTerms,
  currentCover,
  isCoverSettled,
  isCoverUnread,
  isSeriesSelection,
  slotDiscount,
  usesCredit,
} from '../../machines/booking.selectors.ts';
import { groupByDate, totalEuros } from '../../machines/booking.pricing.ts';
import { formatEuros } from '../i18n/format.ts';
import type { Locale } from '../i18n/locales.ts';
import { slotTimes } from '../account/time.ts';
import { Price } from './BookSessions.tsx';
import { formatDay } from './dates.ts';
import { useRefundRatios } from '../ui/useRefundPolicyText.ts';
import { RefundDeadline } from '../ui/refund/RefundDeadline.tsx';
import { bookingFlow } from './useBooking.tsx';

/**
 * Issue 31: what the member's credit pays of the basket and what is left to pay, with the choice to use it; while
 * the cover is asked for, or when it could not be read, the summary says so.
 */
function CreditLines({ locale }: { locale: Locale }) {
  const { t } = useLingui();
  const [state, send] = bookingFlow.useFlow();
  const cover = currentCover(state.context);
  if (!isCoverSettled(state.context))
    return (
      <Text size="sm" c="gray.5" role="status">
        <Trans>A verificar o seu crédito…</Trans>
      </Text>
    );
  if (isCoverUnread(state.context))
    return (
      <Text size="sm" c="gray.5">
        <Trans>Não foi possível verificar o seu crédito: esta reserva é paga por inteiro.</Trans>
      </Text>
    );
  if (!cover || cover.credit_eur <= 0) return null;
  const paying = usesCredit(state.context);
  return (
    <Stack gap={4}>
      <Checkbox
        checked={state.context.useCredit}
        disabled={!state.can({ type: 'credit.toggle' })}
        onChange={() => send({ type: 'credit.toggle' })}
        label={t`Usar o meu crédito`}
      />
      {paying && (
        <>
          <Group justify="space-between">
            <Text>
              <Trans>Pago com crédito</Trans>
            </Text>
            <Text>{formatEuros(cover.credit_eur, locale)}</Text>
          </Group>
          <Group justify="space-between">
            <Text fw={800}>
              <Trans>A pagar</Trans>
            </Text>
            <Text fw={800}>{formatEuros(cover.due_eur, locale)}</Text>
          </Group>
        </>
      )}
    </Stack>
  );
}

function useSummaryErrorText() {
  const { t } = useLingui();
  return (error: SummaryError | null): string | null => {
    if (!error) return null;
    if (error.kind === 'server') return error.detail;
    if (error.kind === 'providerFailed') return t`O fornecedor de pagamentos não conseguiu iniciar.`;
    return t`Não foi possível confirmar a reserva. Tente novamente mais tarde.`;
  };
}

export function SummaryDialog({ locale, timeZone }: { locale: Locale; timeZone: string }) {
  const { t } = useLingui();
  const [state, send] = bookingFlow.useFlow();
  const errorText = useSummaryErrorText();
  const opened = state.matches('summary');
  const creating = state.matches({ summary: 'creating' });
  const { selected, termsAccepted, summaryError } = state.context;
  const error = errorText(summaryError);
  return (
    <Modal
      opened={opened}
      onClose={() => send({ type: 'summary.close' })}
      closeButtonProps={{ 'aria-label': t`Fechar` }}
      title={<span className="booking-title">{t`Resumo da reserva`}</span>}
      zIndex={300}
      size="md"
      centered
    >
      <Stack gap="md">
        {isSeriesSelection(state.context) && (
          <Text>
            <Plural
              value={selected.length}
              one="Uma série semanal de # semana, paga de uma vez."
              other="Uma série semanal de # semanas, paga de uma vez."
            />
          </Text>
        )}
        <SummarySlots locale={locale} timeZone={timeZone} />
        <Group justify="space-between">
          <Text fw={800}>
            <Trans>Total</Trans>
          </Text>
          <Text fw={800}>{formatEuros(totalEuros(selected, couponTerms(state.context)), locale)}</Text>
        </Group>
        <CreditLines locale={locale} />
        <Text c="red.4" role="alert" mih="1.5em">
          {error ?? ''}
        </Text>
        <Checkbox
          checked={termsAccepted}
          onChange={() => send({ type: 'terms.toggle' })}
          label={
            <Trans>
              Concordo com as{' '}
              <Anchor href={`/${locale}/rights`} target="_blank" rel="noopener">
                regras, termos e condições
              </Anchor>
            </Trans>
          }
        />
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => send({ type: 'summary.close' })}
            disabled={!state.can({ type: 'summary.close' })}
          >
            <Trans>Cancelar</Trans>
          </Button>
          <Button
            disabled={!state.can({ type: 'booking.confirm' })}
            loading={creating}
            onClick={() => send({ type: 'booking.confirm' })}
          >
            <Trans>Confirmar</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The chosen slots by date, each with its price and what cancelling it would refund until when, under the policy
 * in force now (issue 30). Mounted with the open summary only: the policy is asked for when it is read.
 */
function SummarySlots({ locale, timeZone }: { locale: Locale; timeZone: string }) {
  const [state] = bookingFlow.useFlow();
  const ratios = useRefundRatios();
  // The moment the summary opened: the deadlines are read from it.
  const [now] = useState(() => Date.now());
  return groupByDate(state.context.selected).map((group) => (
    <section key={group.date} aria-label={formatDay(group.date, locale)}>
      <Text className="summary-date">{formatDay(group.date, locale)}</Text>
      <Stack gap={4} mt={4}>
        {group.slots.map((slot) => (
          <div key={slot.id}>
            <Group justify="space-between">
              <Text>{slotTimes(slot, locale)}</Text>
              <Price slot={slot} discount={slotDiscount(state.context, slot)} locale={locale} />
            </Group>
            <RefundDeadline
              ratios={ratios}
              start={slot.start_time}
              timeZone={timeZone}
              locale={locale}
              now={now}
            />
          </div>
        ))}
      </Stack>
    </section>
  ));
}
