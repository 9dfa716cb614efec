import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { createWalletActors } from '../../machines/wallet.actors.ts';
import {
  walletMachine,
  type CreditPack,
  type CreditScope,
  type CreditUnit,
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

function WalletView() {
  const { t } = useLingui();
  const locale = useLocale();
  const feedbackText = useFeedbackText();
  const [state, send] = walletFlow.useFlow();
  const { wallet, packs, error, clientSecret } = state.context;
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

/** The wallet tab (issue 31): the member's credit, lot by lot, its movements, and the packs on sale. */
export const Wallet = walletFlow.withProvider(WalletView);
