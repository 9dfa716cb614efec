import './mantine-styles.ts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Modal, Stack, Tabs, Text } from '@mantine/core';
import { lazy, Suspense, useDeferredValue, useLayoutEffect } from 'react';
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
  // Only what the frame shows is read here: reading the whole state would render the modal, its tabs and the
  // calendar again at every step of the flow (each slot loaded, each coupon checked).
  const send = bookingFlow.useSend();
  const dialogOpen = bookingFlow.useSelector(
    (state) => state.matches('summary') || state.matches('payment') || state.matches('confirmed'),
  );
  const summaryWanted = bookingFlow.useSelector(
    (state) => state.context.selected.length > 0 || state.matches('summary'),
  );
  const paying = bookingFlow.useSelector((state) => state.matches('payment'));
  const paymentFailed = bookingFlow.useSelector((state) => state.matches({ payment: 'failed' }));
  const confirmed = bookingFlow.useSelector((state) => state.matches('confirmed'));
  const clientSecret = bookingFlow.useSelector((state) => state.context.clientSecret);

  // "Book again"'s day and slot go with the modal: the next opening starts on today.
  const close = () =>
    updateSearch((previous) => ({
      ...previous,
      booking_tab: undefined,
      booking_branch_id: undefined,
      booking_date: undefined,
      booking_slot_id: undefined,
    }));
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
        // In place, not in a portal: a portal renders its content only in a second, synchronous pass after it
        // mounts, which would undo the background render of the modal's content (BookingModal, below).
        withinPortal={false}
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
            {/* Mantine keeps every panel mounted: this one's content waits until its tab is shown. */}
            {tab === 'branchInformation' && (
              <Suspense fallback={null}>
                <BranchInformation branch={branch} locale={locale} />
              </Suspense>
            )}
          </Tabs.Panel>
        </Tabs>
      </Modal>
      {summaryWanted && (
        <Suspense fallback={null}>
          <SummaryDialog locale={locale} timeZone={branch.time_zone} />
        </Suspense>
      )}
      <Modal
        opened={paying}
        onClose={() => send({ type: 'payment.close' })}
        closeButtonProps={{ 'aria-label': t`Fechar` }}
        title={<span className="booking-title">{t`Pagamento`}</span>}
        zIndex={300}
        size="lg"
        centered
      >
        {clientSecret && (
          <Checkout
            clientSecret={clientSecret}
            failed={paymentFailed}
            onFailed={() => send({ type: 'payment.failed' })}
          />
        )}
      </Modal>
      <Modal
        opened={confirmed}
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
  // The modal's first render (Mantine's modal and tabs, the calendar, the flow's machine) is React's work of tens
  // of milliseconds on a phone. It is rendered in the background instead of in the update that mounts it: React
  // then yields to the browser every few milliseconds, so the page keeps answering while it renders (issue 33).
  // Until it is there, the first HTML's modal (or nothing, after a click) stands in its place.
  const rendered = useDeferredValue(true, false);
  if (!rendered || !ready || !search.booking_tab) return null;
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
