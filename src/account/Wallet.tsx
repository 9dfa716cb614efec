import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Group, Modal, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, type ChangeEvent } from 'react';
import { createWalletActors } from '../../machines/wallet.actors.ts';
import {
  GIFT_LIMITS,
  shownGiftProblems,
  type GiftField,
  type GiftProblem,
} from '../../machines/wallet.gift.ts';
import {
  walletMachine,
  type CreditPack,
  type CreditScope,
  type CreditUnit,
  type GiftVoucher,
  type WalletLot,
  type WalletMovement,
} from '../../machines/wallet.machine.ts';
import { isSpendable, movementsWithLots, weekdayRuns } from '../../machines/wallet.selectors.ts';
import { createFlowBinding } from '../app/binding.tsx';
import { useFeedbackText } from '../auth/feedback.tsx';
import { dateTimeFormat, formatEuros, intlTag } from '../i18n/format.ts';
import { loadFeatureMessages } from '../i18n/i18n.ts';
import type { Locale } from '../i18n/locales.ts';
import { useLocale } from '../shell/navigation.ts';
import { Checkout } from '../booking/Checkout.tsx';
import { SubmitForm } from '../ui/SubmitForm.tsx';
import { creditDate, creditDateTime } from './time.ts';

/**
 * An amount of credit as the member reads it: '10 horas', '2,5 horas', '50 €' (the payment result says it so too,
 * src/booking/PaymentResult.tsx). Its callers read the catalog (`useLingui`), so they re-render on a new language.
 */
function creditAmount(unit: CreditUnit, amount: number, locale: Locale): string {
  return unit === 'eur' ? formatEuros(amount, locale) : plural(amount, { one: '# hora', other: '# horas' });
}

/** The wallet tab's binding (machines/wallet.machine.ts): the member's credit and the packs on sale. */
const walletFlow = createFlowBinding(walletMachine, (runtime) =>
  walletMachine.provide({ actors: createWalletActors(runtime.api) }),
);

// The checkout's texts are the booking feature's: they load when a pack is bought, before the checkout shows. (The
// checkout's code comes with the account modal: loaded apart, it would split the booking modal's chunks.)
const CheckoutWithTexts = lazy(async () => {
  await loadFeatureMessages('booking');
  return { default: Checkout };
});

/**
 * Where and when credit may be spent, in one short sentence: 'Em Avenidas Novas, de segunda-feira a sexta-feira,
 * das 07:00 às 12:00.' Three days or more in a row are a range; fewer are named each.
 */
function useScopeText() {
  const { t } = useLingui();
  return (scope: CreditScope, locale: Locale): string => {
    const list = (items: string[]) =>
      new Intl.ListFormat(intlTag(locale), { style: 'long', type: 'conjunction' }).format(items);
    const branches = scope.branches ? list(scope.branches.map((branch) => branch.name)) : null;
    const where = branches ? t`Em ${branches}` : t`Em todos os espaços`;
    // 1 June 2026 is a Monday: the ISO weekdays 1..7 are its first seven days.
    const weekday = dateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
    const names = Array.from({ length: 7 }, (_, index) => weekday.format(Date.UTC(2026, 5, 1 + index, 12)));
    const days = scope.weekdays
      ? list(
          weekdayRuns(scope.weekdays).flatMap(([first, last]) => {
            const from = names[first - 1]!;
            const to = names[last - 1]!;
            if (last - first >= 2) return [t`de ${from} a ${to}`];
            return first === last ? [from] : [from, to];
          }),
        )
      : t`todos os dias`;
    const from = scope.from_time ?? '00:00';
    const to = scope.to_time ?? '24:00';
    const hours =
      scope.from_time === null && scope.to_time === null ? t`a qualquer hora` : t`das ${from} às ${to}`;
    return t`${where}, ${days}, ${hours}.`;
  };
}

function Lot({ lot, locale }: { lot: WalletLot; locale: Locale }) {
  const { t } = useLingui();
  const scopeText = useScopeText();
  const remaining = creditAmount(lot.unit, lot.remaining, locale);
  const initial = creditAmount(lot.unit, lot.initial, locale);
  const until = creditDate(lot.expires_at, locale);
  return (
    <li className="wallet-item" aria-label={lot.name}>
      <Group justify="space-between" align="baseline" gap="xs">
        <Text fw={600}>{lot.name}</Text>
        {lot.expired ? (
          <Badge color="gray" variant="light">
            {t`expirado`}
          </Badge>
        ) : (
          isSpendable(lot) && (
            <Badge color="lime" variant="light">
              {t`disponível`}
            </Badge>
          )
        )}
      </Group>
      <Text size="sm">{t`Resta ${remaining} de ${initial}`}</Text>
      <Text size="sm" c="gray.4">
        {lot.expired ? t`Expirou a ${until}` : t`Válido até ${until}`}
      </Text>
      <Text size="sm" c="gray.4">
        {scopeText(lot.scope, locale)}
      </Text>
    </li>
  );
}

/** What a movement did to the wallet, as the member reads it in the history. */
function useMovementText() {
  const { t } = useLingui();
  return (kind: WalletMovement['kind']): string =>
    ({
      grant: t`Comprado`,
      spend: t`Gasto numa reserva`,
      return: t`Devolvido por um cancelamento`,
      release: t`Devolvido: a reserva não foi paga a tempo`,
      expire: t`Expirado`,
    })[kind];
}

function Movements({
  movements,
  locale,
}: {
  movements: ReturnType<typeof movementsWithLots>;
  locale: Locale;
}) {
  const { t } = useLingui();
  const movementText = useMovementText();
  if (movements.length === 0)
    return (
      <Text c="gray.5">
        <Trans>Ainda não há movimentos.</Trans>
      </Text>
    );
  return (
    <ul className="wallet-list" aria-label={t`Movimentos`}>
      {movements.map(({ movement, lot }) => {
        // Bought and given back add to the wallet; spent and expired take from it.
        const sign = movement.kind === 'spend' || movement.kind === 'expire' ? '−' : '+';
        return (
          <li key={movement.id} className="wallet-movement">
            <Text size="sm" c="gray.4">
              {creditDateTime(movement.at, locale)}
            </Text>
            <Text size="sm">
              {movementText(movement.kind)}
              {lot ? ` · ${lot.name}` : ''}
              {movement.booking_id !== null ? ` · #${movement.booking_id}` : ''}
            </Text>
            <Text size="sm" fw={600}>
              {sign}
              {creditAmount(movement.unit, movement.amount, locale)}
              {movement.unit === 'hours' ? ` (${formatEuros(movement.value_eur, locale)})` : ''}
            </Text>
          </li>
        );
      })}
    </ul>
  );
}

function Pack({ pack, locale }: { pack: CreditPack; locale: Locale }) {
  const { t } = useLingui();
  const scopeText = useScopeText();
  const send = walletFlow.useSend();
  const canBuy = walletFlow.useCan({ type: 'pack.buy', packId: pack.id });
  const buying = walletFlow.useSelector(
    (state) => state.context.buying === pack.id && state.matches('purchasing'),
  );
  const credit = creditAmount(pack.unit, pack.credit, locale);
  const days = pack.validity_days;
  const name = pack.name;
  return (
    <li className="wallet-item" aria-label={name}>
      <Group justify="space-between" align="baseline" gap="xs">
        <Text fw={600}>{name}</Text>
        <Text fw={800}>{formatEuros(pack.price_eur, locale)}</Text>
      </Group>
      <Text size="sm">
        {plural(days, {
          one: `${credit}, válido # dia após a compra`,
          other: `${credit}, válido # dias após a compra`,
        })}
      </Text>
      <Text size="sm" c="gray.4">
        {scopeText(pack.scope, locale)}
      </Text>
      <Group justify="flex-end">
        <Button
          size="xs"
          aria-label={t`Comprar ${name}`}
          disabled={!canBuy}
          loading={buying}
          onClick={() => send({ type: 'pack.buy', packId: pack.id })}
        >
          <Trans>Comprar</Trans>
        </Button>
      </Group>
    </li>
  );
}

/** "Usar um vale": a gift voucher's code (prefilled from the recipient's link) redeemed into the wallet. */
function RedeemVoucher({ locale }: { locale: Locale }) {
  const { t } = useLingui();
  const feedbackText = useFeedbackText();
  const send = walletFlow.useSend();
  const code = walletFlow.useSelector((state) => state.context.code);
  const redeemError = walletFlow.useSelector((state) => state.context.redeemError);
  const redeemed = walletFlow.useSelector((state) => state.context.redeemed);
  const redeeming = walletFlow.useSelector((state) => state.matches('redeeming'));
  const canRedeem = walletFlow.useCan({ type: 'voucher.redeem' });
  const amount = redeemed ? creditAmount(redeemed.unit, redeemed.initial, locale) : '';
  const until = redeemed ? creditDate(redeemed.expires_at, locale) : '';
  return (
    <section aria-labelledby="wallet-redeem">
      <Title order={3} size="h5" id="wallet-redeem" mb="xs">
        <Trans>Usar um vale</Trans>
      </Title>
      <SubmitForm onSubmit={() => send({ type: 'voucher.redeem' })}>
        <Group align="flex-start" gap="xs">
          <TextInput
            label={t`Código do vale`}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={GIFT_LIMITS.code}
            value={code}
            onChange={(event) => send({ type: 'voucher.input', value: event.currentTarget.value })}
            error={redeemError ? feedbackText(redeemError) : undefined}
            errorProps={{ role: 'alert' }}
            style={{ flex: '1 1 14rem' }}
          />
          <Button type="submit" mt={25} loading={redeeming} disabled={!canRedeem}>
            <Trans>Usar o vale</Trans>
          </Button>
        </Group>
      </SubmitForm>
      {redeemed && (
        <Text c="lime.4" role="status" mt="xs">
          {t`O vale de ${amount} está na sua carteira até ${until}.`}
        </Text>
      )}
    </section>
  );
}

/** What is wrong with a gift voucher's field, as the member reads it beside the field. */
function useGiftProblemText() {
  const { t } = useLingui();
  const min = GIFT_LIMITS.minEuros;
  const max = GIFT_LIMITS.maxEuros;
  return (field: GiftField, problem: GiftProblem): string => {
    if (field === 'amount')
      return problem === 'missing'
        ? t`Indique o valor do vale.`
        : problem === 'out-of-range'
          ? t`O valor tem de ser de ${min} € a ${max} €.`
          : problem === 'not-cents'
            ? t`O valor só pode ter cêntimos (duas casas decimais).`
            : t`Escreva o valor em euros, por exemplo 25 ou 25,50.`;
    if (field === 'name')
      return problem === 'missing' ? t`Indique o nome de quem recebe o vale.` : t`O nome é demasiado longo.`;
    if (field === 'email')
      return problem === 'missing'
        ? t`Indique o e-mail de quem recebe o vale.`
        : t`Este e-mail não é válido.`;
    return t`A mensagem é demasiado longa.`;
  };
}

/** "Oferecer um vale": a gift voucher for someone, its fields checked as they are left, then the checkout. */
function GiftForm() {
  const { t } = useLingui();
  const feedbackText = useFeedbackText();
  const problemText = useGiftProblemText();
  const send = walletFlow.useSend();
  const gift = walletFlow.useSelector((state) => state.context.gift);
  const problems = walletFlow.useSelector((state) => shownGiftProblems(state.context));
  const giftError = walletFlow.useSelector((state) => state.context.giftError);
  const buying = walletFlow.useSelector((state) => state.matches('buyingGift'));
  const canBuy = walletFlow.useCan({ type: 'gift.buy' });
  const field = (name: GiftField) => {
    const problem = problems[name];
    return {
      value: gift[name],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
        send({ type: 'gift.change', field: name, value: event.currentTarget.value }),
      onBlur: () => send({ type: 'gift.leave', field: name }),
      error: problem ? problemText(name, problem) : undefined,
      errorProps: { role: 'alert' },
    };
  };
  const used = gift.message.length;
  const max = GIFT_LIMITS.message;
  const min = GIFT_LIMITS.minEuros;
  const top = GIFT_LIMITS.maxEuros;
  return (
    <section aria-labelledby="wallet-gift">
      <Title order={3} size="h5" id="wallet-gift" mb="xs">
        <Trans>Oferecer um vale</Trans>
      </Title>
      <Text size="sm" c="gray.4" mb="xs">
        <Trans>
          Enviamos o vale por e-mail a quem o recebe, com a sua mensagem, assim que o pagamento chegar. É
          válido durante um ano em todos os espaços.
        </Trans>
      </Text>
      <SubmitForm onSubmit={() => send({ type: 'gift.buy' })} noValidate>
        <Stack gap="xs">
          <TextInput
            label={t`Valor (€)`}
            description={t`De ${min} € a ${top} €.`}
            inputMode="decimal"
            autoComplete="off"
            maxLength={10}
            {...field('amount')}
          />
          <TextInput
            label={t`Nome de quem recebe`}
            autoComplete="off"
            maxLength={GIFT_LIMITS.name}
            {...field('name')}
          />
          <TextInput
            label={t`E-mail de quem recebe`}
            type="email"
            autoComplete="off"
            maxLength={GIFT_LIMITS.email}
            {...field('email')}
          />
          <Textarea
            label={t`Mensagem (opcional)`}
            description={t`${used} de ${max} caracteres`}
            maxLength={max}
            rows={3}
            {...field('message')}
          />
          {giftError && (
            <Text c="red.4" role="alert">
              {feedbackText(giftError)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={buying} disabled={!canBuy}>
              <Trans>Oferecer o vale</Trans>
            </Button>
          </Group>
        </Stack>
      </SubmitForm>
    </section>
  );
}

/** Where a gift voucher the member bought stands, in words. */
function useVoucherStatusText() {
  const { t } = useLingui();
  return (status: GiftVoucher['status']): string =>
    ({
      unpaid: t`por pagar`,
      issued: t`enviado, por usar`,
      redeemed: t`usado`,
      expired: t`expirado`,
    })[status];
}

/** "Vales oferecidos": the gift vouchers the member bought, newest first, each with where it stands. */
function GiftVouchers({ vouchers, locale }: { vouchers: GiftVoucher[]; locale: Locale }) {
  const { t } = useLingui();
  const statusText = useVoucherStatusText();
  return (
    <section aria-labelledby="wallet-vouchers">
      <Title order={3} size="h5" id="wallet-vouchers" mb="xs">
        <Trans>Vales oferecidos</Trans>
      </Title>
      {vouchers.length === 0 ? (
        <Text c="gray.5">
          <Trans>Ainda não ofereceu nenhum vale.</Trans>
        </Text>
      ) : (
        <ul className="wallet-list" aria-label={t`Vales oferecidos`}>
          {vouchers.map((voucher) => {
            const code = voucher.code;
            const until = voucher.expires_at ? creditDate(voucher.expires_at, locale) : null;
            return (
              <li key={voucher.id} className="wallet-item">
                <Group justify="space-between" align="baseline" gap="xs">
                  <Text fw={600}>{voucher.recipient_name}</Text>
                  <Text fw={800}>{formatEuros(voucher.amount_eur, locale)}</Text>
                </Group>
                <Text size="sm" c="gray.4">
                  {voucher.recipient_email}
                </Text>
                <Group gap="xs">
                  <Badge color={voucher.status === 'issued' ? 'lime' : 'gray'} variant="light">
                    {statusText(voucher.status)}
                  </Badge>
                </Group>
                {voucher.status === 'issued' && code !== null && until !== null && (
                  <Text size="sm">{t`Código: ${code}, válido até ${until}`}</Text>
                )}
                {voucher.status === 'expired' && until !== null && (
                  <Text size="sm" c="gray.4">
                    {t`Expirou a ${until}`}
                  </Text>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function WalletView() {
  const { t } = useLingui();
  const locale = useLocale();
  const feedbackText = useFeedbackText();
  const [state, send] = walletFlow.useFlow();
  const { wallet, packs, vouchers, error, clientSecret } = state.context;
  if (state.matches('loading') && !wallet)
    return (
      <Text c="gray.5" role="status">
        <Trans>A carregar a carteira…</Trans>
      </Text>
    );
  if (state.matches('failed'))
    return (
      <Group gap="sm">
        <Text c="red.4" role="alert">
          {error ? feedbackText(error) : null}
        </Text>
        <Button variant="default" size="xs" onClick={() => send({ type: 'wallet.retry' })}>
          <Trans>Tentar novamente</Trans>
        </Button>
      </Group>
    );
  return (
    <Stack gap="lg">
      {error && (
        <Alert color="red" variant="light" role="alert">
          {feedbackText(error)}
        </Alert>
      )}
      <section aria-labelledby="wallet-lots">
        <Title order={3} size="h5" id="wallet-lots" mb="xs">
          <Trans>O meu crédito</Trans>
        </Title>
        {wallet && wallet.lots.length > 0 ? (
          <ul className="wallet-list" aria-label={t`Créditos`}>
            {wallet.lots.map((lot) => (
              <Lot key={lot.id} lot={lot} locale={locale} />
            ))}
          </ul>
        ) : (
          <Text c="gray.5">
            <Trans>Ainda não tem crédito. Compre um pacote e pague as suas reservas com ele.</Trans>
          </Text>
        )}
      </section>
      <RedeemVoucher locale={locale} />
      <section aria-labelledby="wallet-packs">
        <Title order={3} size="h5" id="wallet-packs" mb="xs">
          <Trans>Pacotes à venda</Trans>
        </Title>
        {packs.length > 0 ? (
          <ul className="wallet-list" aria-label={t`Pacotes à venda`}>
            {packs.map((pack) => (
              <Pack key={pack.id} pack={pack} locale={locale} />
            ))}
          </ul>
        ) : (
          <Text c="gray.5">
            <Trans>De momento não há pacotes à venda.</Trans>
          </Text>
        )}
      </section>
      <GiftForm />
      <GiftVouchers vouchers={vouchers} locale={locale} />
      <section aria-labelledby="wallet-movements">
        <Title order={3} size="h5" id="wallet-movements" mb="xs">
          <Trans>Movimentos</Trans>
        </Title>
        <Movements movements={wallet ? movementsWithLots(wallet) : []} locale={locale} />
      </section>
      <Modal
        opened={state.matches('checkout')}
        onClose={() => send({ type: 'checkout.close' })}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        title={<span className="auth-modal__title">{t`Pagamento`}</span>}
        zIndex={300}
        size="lg"
        centered
      >
        {clientSecret && (
          <Suspense fallback={null}>
            <CheckoutWithTexts
              clientSecret={clientSecret}
              failed={state.matches({ checkout: 'failed' })}
              onFailed={() => send({ type: 'payment.failed' })}
            />
          </Suspense>
        )}
      </Modal>
    </Stack>
  );
}

/**
 * The wallet tab (issue 31): the member's credit, lot by lot, its movements, the packs on sale, and gift vouchers
 * to redeem, to give and given. A recipient's e-mail links here with `voucher=CODE`, which prefills the code: read
 * from the address as loaded, here, so the landing page's search schema (machines/modal-search.ts) stays as small.
 */
export function Wallet() {
  const voucher = useRouterState({
    select: (state) => (state.location.search as Record<string, unknown>).voucher,
  });
  return (
    <walletFlow.Provider input={{ voucher }}>
      <WalletView />
    </walletFlow.Provider>
  );
}
