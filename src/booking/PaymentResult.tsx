import './mantine-styles.ts';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useOpenLogin, useUpdateModalSearch } from '../auth/useModalSearch.ts';
import type {
  PaymentContext,
  SessionBooking,
  SessionCreditPack,
  SessionGiftVoucher,
} from '../../machines/payment.machine.ts';
import {
  bookedSlots,
  giftOutcome,
  packOutcome,
  paymentOutcome,
  refundedSlots,
} from '../../machines/payment.selectors.ts';
import { creditDate, longDateTime, timeRange } from '../account/time.ts';
import { formatEuros } from '../i18n/format.ts';
import { useLocale } from '../shell/navigation.ts';
import { MantineLayer } from '../ui/MantineLayer.tsx';
import { Checkout } from './Checkout.tsx';
import { paymentFlow } from './usePayment.tsx';

/** Each slot with its date, time (in its branch's zone) and branch. */
function SlotList({ slots, label }: { slots: readonly SessionBooking[]; label: string }) {
  const locale = useLocale();
  return (
    <ul className="payment-result-slots" aria-label={label}>
      {slots.map((slot) => (
        <li key={slot.id}>
          {timeRange(slot.start_time, slot.end_time, slot.time_zone, locale)}, {slot.branch_name}
        </li>
      ))}
    </ul>
  );
}

type Awaiting = NonNullable<PaymentContext['awaitingPayment']>;

/** A Multibanco voucher's facts: where to pay it, how much, until when. */
function VoucherFacts({
  voucher,
  amount,
  heldUntil,
}: {
  voucher: Voucher;
  amount: string;
  heldUntil: string;
}) {
  const { t } = useLingui();
  return (
    <>
      <Text>{t`Pague esta referência Multibanco num multibanco ou no seu banco online:`}</Text>
      <dl className="booking-facts" aria-label={t`Referência Multibanco`}>
        <dt>{t`Entidade`}</dt>
        <dd>
          <strong>{voucher.entity}</strong>
        </dd>
        <dt>{t`Referência`}</dt>
        <dd>
          <strong>{voucher.reference}</strong>
        </dd>
        <dt>{t`Montante`}</dt>
        <dd>
          <strong>{amount}</strong>
        </dd>
        <dt>{t`Válida até`}</dt>
        <dd>{heldUntil}</dd>
      </dl>
    </>
  );
}

type Voucher = NonNullable<Awaiting['voucher']>;

/** What a Multibanco voucher's payer must pay, where and until when; or the MB WAY request still to approve. */
function AwaitingPayment({ awaiting, zone }: { awaiting: Awaiting; zone: string }) {
  const { t } = useLingui();
  const locale = useLocale();
  const amount = formatEuros(awaiting.amount_eur, locale);
  if (!awaiting.voucher) {
    return (
      <Text>{t`Aprove o pedido MB WAY de ${amount} no seu telemóvel. As horas ficam reservadas até lá; enviaremos um e-mail quando a reserva estiver confirmada.`}</Text>
    );
  }
  const voucher = awaiting.voucher;
  const heldUntil = longDateTime(awaiting.held_until, zone, locale);
  return (
    <Stack gap="xs">
      <VoucherFacts voucher={voucher} amount={amount} heldUntil={heldUntil} />
      <Text>{t`As horas ficam reservadas até ${heldUntil}. Sem código da porta nem fatura antes de o pagamento chegar; depois disso, enviamos tudo por e-mail. Também encontra esta referência em As minhas reservas.`}</Text>
      {voucher.voucher_url && (
        <Anchor href={voucher.voucher_url} target="_blank" rel="noreferrer">
          {t`Ver o talão Multibanco`}
        </Anchor>
      )}
    </Stack>
  );
}

/**
 * A prepaid pack's checkout (issue 31): its credit is in the wallet until its expiry, or it waits for its money (a
 * Multibanco voucher to pay, an MB WAY request to approve).
 */
function PackResult({ pack, awaiting }: { pack: SessionCreditPack; awaiting: Awaiting | null }) {
  const { t } = useLingui();
  const locale = useLocale();
  const name = pack.name;
  if (pack.expires_at !== null) {
    // As the wallet says it (src/account/Wallet.tsx): '10 horas', '50 €'.
    const amount = pack.credit;
    const credit =
      pack.unit === 'eur' ? formatEuros(amount, locale) : plural(amount, { one: '# hora', other: '# horas' });
    const until = creditDate(pack.expires_at, locale);
    return <Text>{t`O pacote «${name}» está na sua carteira: ${credit} até ${until}.`}</Text>;
  }
  return (
    <Stack gap="xs">
      <Text>{t`O pacote «${name}» está à espera do pagamento: o crédito fica na sua carteira assim que o pagamento chegar.`}</Text>
      <AwaitingMoney awaiting={awaiting} />
    </Stack>
  );
}

/** What a pack's or a gift voucher's payer still has to do: the Multibanco voucher to pay, the MB WAY request. */
function AwaitingMoney({ awaiting }: { awaiting: Awaiting | null }) {
  const { t } = useLingui();
  const locale = useLocale();
  if (!awaiting) return null;
  const amount = formatEuros(awaiting.amount_eur, locale);
  if (!awaiting.voucher) return <Text>{t`Aprove o pedido MB WAY de ${amount} no seu telemóvel.`}</Text>;
  return (
    <>
      <VoucherFacts
        voucher={awaiting.voucher}
        amount={amount}
        heldUntil={longDateTime(awaiting.held_until, 'Europe/Lisbon', locale)}
      />
      {awaiting.voucher.voucher_url && (
        <Anchor href={awaiting.voucher.voucher_url} target="_blank" rel="noreferrer">
          {t`Ver o talão Multibanco`}
        </Anchor>
      )}
    </>
  );
}

/**
 * A gift voucher's checkout (issue 31): sent to its recipient with its code and expiry, or waiting for its money
 * (sent once it arrives).
 */
function GiftResult({ gift, awaiting }: { gift: SessionGiftVoucher; awaiting: Awaiting | null }) {
  const { t } = useLingui();
  const locale = useLocale();
  const recipient = gift.recipient_name;
  const email = gift.recipient_email;
  const amount = formatEuros(gift.amount_eur, locale);
  const code = gift.code;
  if (code !== null) {
    const until = gift.expires_at ? creditDate(gift.expires_at, locale) : '';
    return (
      <Text>{t`Enviámos a ${recipient} (${email}) o vale de ${amount}. Código: ${code}, válido até ${until}.`}</Text>
    );
  }
  return (
    <Stack gap="xs">
      <Text>{t`O vale de ${amount} para ${recipient} está à espera do pagamento: enviamo-lo a ${email} assim que o pagamento chegar.`}</Text>
      <AwaitingMoney awaiting={awaiting} />
    </Stack>
  );
}

/** The result of a return from the checkout (docs/decisions.md, 'Bookings and payments'). */
export default function PaymentResult({ sessionId, hidden }: { sessionId: string; hidden: boolean }) {
  const openLogin = useOpenLogin();
  return (
    <paymentFlow.Provider input={{ sessionId }} ports={{ openLogin }}>
      <PaymentDialog hidden={hidden} openLogin={openLogin} />
    </paymentFlow.Provider>
  );
}

function PaymentDialog({ hidden, openLogin }: { hidden: boolean; openLogin: () => void }) {
  const { t } = useLingui();
  const locale = useLocale();
  const updateSearch = useUpdateModalSearch();
  const [state, send] = paymentFlow.useFlow();

  const close = () => {
    send({ type: 'result.close' });
    void updateSearch((previous) => ({ ...previous, stripe_session_id: undefined, booking_date: undefined }));
  };
  // A pack or a gift voucher bought: the result closes onto the wallet, where its credit or the voucher is.
  const openWallet = () => {
    send({ type: 'result.close' });
    void updateSearch((previous) => ({
      ...previous,
      stripe_session_id: undefined,
      booking_date: undefined,
      account_tab: 'wallet',
    }));
  };
  const status = state.context.status;

  let title = t`A verificar o pagamento`;
  let body = (
    <Group justify="center">
      <Loader aria-label={t`A verificar o pagamento`} />
    </Group>
  );
  const outcome = paymentOutcome(state.context);
  const refunded = refundedSlots(state.context);
  const refundedTotal = formatEuros(
    refunded.reduce((sum, slot) => sum + Math.round(slot.refunded_eur * 100), 0) / 100,
    locale,
  );
  const lateNote = (
    <Text>
      {t`O pagamento destas horas chegou depois de terminar a reserva temporária, por isso não ficaram reservadas. Reembolsámos ${refundedTotal} para o cartão usado no pagamento e enviámos-lhe um e-mail.`}
    </Text>
  );
  const moveDifference = state.context.moveDifferenceEur;
  const pack = packOutcome(state.context);
  const gift = giftOutcome(state.context);
  if (state.matches('result') && pack !== null) {
    title = pack === 'credited' ? t`Pacote comprado` : t`A aguardar pagamento`;
    body = <PackResult pack={state.context.creditPack!} awaiting={state.context.awaitingPayment ?? null} />;
  } else if (state.matches('result') && gift !== null) {
    title = gift === 'sent' ? t`Vale enviado` : t`A aguardar pagamento`;
    body = <GiftResult gift={state.context.giftVoucher!} awaiting={state.context.awaitingPayment ?? null} />;
  } else if (
    state.matches('result') &&
    status === 'complete' &&
    outcome === 'booked' &&
    moveDifference !== null
  ) {
    // A move's difference, paid: the booking now stands at its new time.
    const paid = formatEuros(moveDifference, locale);
    title = t`Reserva mudada`;
    body = (
      <>
        <Text>{t`A sua reserva foi mudada para:`}</Text>
        <SlotList slots={bookedSlots(state.context)} label={t`Nova hora da reserva`} />
        <Text>{t`Pagou a diferença de ${paid}. Enviámos-lhe o evento de calendário atualizado por e-mail.`}</Text>
        <Text>{t`Receberá o novo código da porta por e-mail e SMS 30 minutos antes do início. Também o encontra em As minhas reservas.`}</Text>
      </>
    );
  } else if (state.matches('result') && status === 'complete' && outcome === 'booked') {
    title = t`Pagamento concluído`;
    body = (
      <>
        <Text>{t`O seu pagamento foi efetuado com sucesso.`}</Text>
        <SlotList slots={bookedSlots(state.context)} label={t`Horas reservadas`} />
        <Text>{t`Receberá o código da porta por e-mail e SMS 30 minutos antes do início de cada reserva. Também o encontra em As minhas reservas.`}</Text>
        {refunded.length > 0 && (
          <>
            {lateNote}
            <SlotList slots={refunded} label={t`Horas reembolsadas`} />
          </>
        )}
      </>
    );
  } else if (state.matches('result') && status === 'complete' && outcome === 'refunded') {
    title = t`Pagamento reembolsado`;
    body = (
      <>
        {lateNote}
        <SlotList slots={refunded} label={t`Horas reembolsadas`} />
      </>
    );
  } else if (state.matches('result') && status === 'complete' && state.context.awaitingPayment) {
    title = t`A aguardar pagamento`;
    body = (
      <AwaitingPayment
        awaiting={state.context.awaitingPayment}
        // The times are the first booking's branch's, in its zone.
        zone={state.context.bookings[0]?.time_zone ?? 'Europe/Lisbon'}
      />
    );
  } else if (state.matches('result') && status === 'complete' && outcome === 'processing') {
    title = t`Pagamento em processamento`;
    body = (
      <Text>{t`O seu pagamento está a ser processado. Enviaremos um e-mail quando a reserva estiver confirmada.`}</Text>
    );
  } else if (state.matches('result') && status === 'complete') {
    title = t`Pagamento`;
    body = (
      <Text>{t`As reservas deste pagamento já não estão ativas. Veja o estado de cada uma em As minhas reservas.`}</Text>
    );
  } else if (state.matches('result') && status === 'expired') {
    title = t`Sessão de pagamento expirada`;
    body = <Text>{t`A sua sessão de pagamento expirou. Tente novamente.`}</Text>;
  } else if (state.matches('result') && status === 'open') {
    title = t`Pagamento pendente`;
    body = <Text>{t`O seu pagamento ainda está pendente. Conclua o processo.`}</Text>;
  } else if (state.matches('awaitingLogin')) {
    title = t`Inicie sessão`;
    body = <Text>{t`Inicie sessão para ver o estado do seu pagamento.`}</Text>;
  } else if (state.matches('failed')) {
    title = t`Não foi possível verificar o pagamento`;
    body = <Text>{t`Ocorreu um erro inesperado. Tente novamente.`}</Text>;
  } else if (state.matches('checkout') || state.matches('checkoutFailed')) {
    title = t`Pagamento`;
    body = state.context.clientSecret ? (
      <Checkout
        clientSecret={state.context.clientSecret}
        failed={state.matches('checkoutFailed')}
        onFailed={() => send({ type: 'payment.failed' })}
      />
    ) : (
      body
    );
  }
  const showButtons = !state.matches('checking') && !state.matches('checkout');

  return (
    <MantineLayer>
      <Modal
        opened={!hidden && !state.matches('closed')}
        onClose={close}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        title={<span className="booking-title">{title}</span>}
        size={state.matches('checkout') ? 'lg' : 'md'}
        zIndex={300}
        centered
      >
        <Stack>
          {body}
          {showButtons && (
            <Group justify="flex-end">
              {state.matches('awaitingLogin') && (
                <Button variant="default" onClick={openLogin}>
                  <Trans>Iniciar sessão</Trans>
                </Button>
              )}
              {(pack !== null || gift !== null) && state.matches('result') && (
                <Button variant="default" onClick={openWallet}>
                  <Trans>Ver a carteira</Trans>
                </Button>
              )}
              {state.can({ type: 'payment.retry' }) && (
                <Button onClick={() => send({ type: 'payment.retry' })}>
                  <Trans>Tentar novamente</Trans>
                </Button>
              )}
              <Button variant={state.can({ type: 'payment.retry' }) ? 'default' : 'filled'} onClick={close}>
                <Trans>Fechar</Trans>
              </Button>
            </Group>
          )}
        </Stack>
      </Modal>
    </MantineLayer>
  );
}
