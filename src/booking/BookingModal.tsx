import './mantine-styles.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Modal, Stack, Tabs, Text } from '@mantine/core';
import { lazy, Suspense, useLayoutEffect } from 'react';
import type { Branch } from '../../machines/branches.ts';
import { bookingTab, type BookingTab } from '../../machines/modal-search.ts';
import { useBranches, useLoggedIn } from '../app/context.tsx';
import { useModalSearch, useOpenLogin, useUpdateModalSearch } from '../auth/useModalSearch.ts';
import { useLocale } from '../shell/navigation.ts';
import { MantineLayer } from '../ui/MantineLayer.tsx';
import { BookSessions } from './BookSessions.tsx';
import { Checkout } from './Checkout.tsx';
import { todayIn } from './dates.ts';
import { bookingFlow } from './useBooking.tsx';

// The information tab (with the HTML sanitiser) loads when it is first shown: booking is the default tab.
const BranchInformation = lazy(async () => ({
  default: (await import('./BranchInformation.tsx')).BranchInformation,
}));

// The summary (with its terms checkbox and the refund deadlines) loads when the first slot is chosen, before it
// is asked for: the modal's first load stays light (tests/ui/bundle-budgets.test.ts).
const SummaryDialog = lazy(async () => ({ default: (await import('./SummaryDialog.tsx')).SummaryDialog }));

// Moving a booking is rarer than booking: its flow loads when a move is opened.
const MoveFlow = lazy(async () => ({ default: (await import('./MoveBooking.tsx')).MoveFlow }));

/**
 * Rendered inside the live modal: once its content is in the page (before the browser paints it), `onShown` takes
 * away the modal of the first HTML (src/booking/BookingModalShell.tsx) that stood in its place.
 */
function Shown({ onShown }: { onShown: () => void }) {
  useLayoutEffect(onShown, [onShown]);
  return null;
}

function BookingFlow({
  branch,
  tab,
  hidden,
  onShown,
}: {
  branch: Branch;
  tab: BookingTab;
  hidden: boolean;
  onShown: () => void;
}) {
  const { t } = useLingui();
  const locale = useLocale();
  const updateSearch = useUpdateModalSearch();
  const openLogin = useOpenLogin();
  const [state, send] = bookingFlow.useFlow();

  // "Book again"'s day and slot go with the modal: the next opening starts on today.
  const close = () =>
    updateSearch((previous) => ({
      ...previous,
      booking_tab: undefined,
      booking_branch_id: undefined,
      booking_date: undefined,
      booking_slot_id: undefined,
    }));
  const dialogOpen = state.matches('summary') || state.matches('payment') || state.matches('confirmed');
  const branchName = branch.name;

  return (
    <>
      <Modal
        opened={!hidden}
        onClose={() => void close()}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        closeOnEscape={!dialogOpen}
        title={<span className="booking-title">{branchName}</span>}
        size="xl"
        zIndex={200}
      >
        <Shown onShown={onShown} />
        <Tabs
          value={tab}
          onChange={(value) => {
            const next = bookingTab.safeParse(value);
            if (next.success) void updateSearch((previous) => ({ ...previous, booking_tab: next.data }));
          }}
        >
          <Tabs.List mb="md">
            <Tabs.Tab value="bookSessions">{t`Reservar sessões`}</Tabs.Tab>
            <Tabs.Tab value="branchInformation">{t`Informação do espaço`}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="bookSessions">
            <BookSessions branch={branch} locale={locale} onLogin={openLogin} />
          </Tabs.Panel>
          <Tabs.Panel value="branchInformation">
            <Suspense fallback={null}>
              <BranchInformation branch={branch} locale={locale} />
            </Suspense>
          </Tabs.Panel>
        </Tabs>
      </Modal>
      {(state.context.selected.length > 0 || state.matches('summary')) && (
        <Suspense fallback={null}>
          <SummaryDialog locale={locale} timeZone={branch.time_zone} />
        </Suspense>
      )}
      <Modal
        opened={state.matches('payment')}
        onClose={() => send({ type: 'payment.close' })}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        title={<span className="booking-title">{t`Pagamento`}</span>}
        zIndex={300}
        size="lg"
        centered
      >
        {state.context.clientSecret && (
          <Checkout
            clientSecret={state.context.clientSecret}
            failed={state.matches({ payment: 'failed' })}
            onFailed={() => send({ type: 'payment.failed' })}
          />
        )}
      </Modal>
      <Modal
        opened={state.matches('confirmed')}
        onClose={() => send({ type: 'payment.close' })}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        title={<span className="booking-title">{t`Pagamento concluído`}</span>}
        zIndex={300}
        centered
      >
        <Stack>
          <Text>
            <Trans>A sua reserva está confirmada.</Trans>
          </Text>
          <Button onClick={() => send({ type: 'payment.close' })}>
            <Trans>Fechar</Trans>
          </Button>
        </Stack>
      </Modal>
    </>
  );
}

/**
 * docs/decisions.md, 'Client': the branch/booking modal, opened by booking_tab and booking_branch_id. `hidden`: the auth modal
 * is open over it (its flow keeps its state). `onShown`: called once the live modal is in the page.
 */
export default function BookingModal({ hidden, onShown }: { hidden: boolean; onShown: () => void }) {
  const { t } = useLingui();
  const search = useModalSearch();
  const { active, ready } = useBranches();
  const updateSearch = useUpdateModalSearch();
  const openLogin = useOpenLogin();
  const loggedIn = useLoggedIn();
  if (!ready || !search.booking_tab) return null;
  // An unknown or inactive id falls back to the first active branch.
  const branch = active.find((candidate) => candidate.id === search.booking_branch_id) ?? active[0];
  return (
    <MantineLayer>
      {branch && search.move_booking_id !== undefined ? (
        <Suspense fallback={null}>
          <MoveFlow
            key={search.move_booking_id}
            branch={branch}
            bookingId={search.move_booking_id}
            hidden={hidden}
          />
        </Suspense>
      ) : branch ? (
        <bookingFlow.Provider
          key={branch.id}
          input={{
            branchId: branch.id,
            loggedIn,
            fallbackToday: todayIn(branch.time_zone),
            openOn: search.booking_date ?? null,
            preselectSlotId: search.booking_slot_id ?? null,
          }}
          ports={{ openLogin }}
        >
          <BookingFlow branch={branch} tab={search.booking_tab} hidden={hidden} onShown={onShown} />
        </bookingFlow.Provider>
      ) : (
        <Modal
          opened={!hidden}
          onClose={() =>
            void updateSearch((previous) => ({
              ...previous,
              booking_tab: undefined,
              booking_branch_id: undefined,
              booking_date: undefined,
              booking_slot_id: undefined,
            }))
          }
          closeButtonProps={{ 'aria-label': t`Fechar` }}
          title={<span className="booking-title">{t`Reservar`}</span>}
        >
          <Shown onShown={onShown} />
          <Alert color="red" role="alert">
            <Trans>Nenhum espaço ativo encontrado</Trans>
          </Alert>
        </Modal>
      )}
    </MantineLayer>
  );
}
