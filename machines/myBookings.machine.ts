import { assign, setup } from 'xstate';
import { placeholder } from './placeholder.ts';
import { hasErrorCode } from './api.ts';
import { failureFeedback, type Feedback } from './feedback.ts';
import { listOf, sumEuros, type Booking } from './myBookings.selectors.ts';
import { machineTypes } from './machine-types.ts';

/**
 * How many bookings of the history (past, cancelled, expired) the server answers with the upcoming ones, and per
 * further page (the contract's `history_limit` default).
 */
export const HISTORY_PAGE = 20;

/** A page of older history: its bookings, and the cursor of the next one (null when none is left). */
export type HistoryPage = { bookings: Booking[]; nextCursor: string | null };

/**
 * The contract's cursor just past a booking of the history: its start (epoch milliseconds) and id. The server
 * answers the history newest first, so the oldest one held is where the next page starts.
 */
function historyCursor(bookings: readonly Booking[]): string | null {
  const oldest = bookings
    .filter((booking) => listOf(booking) !== 'active')
    .map((booking) => ({ start: Date.parse(booking.time_slot_data.start_time), id: booking.id }))
    .sort((a, b) => a.start - b.start || a.id - b.id)[0];
  return oldest ? `${oldest.start}.${oldest.id}` : null;
}

export type CancellationContext = {
  bookings: Booking[];
  /** Ids of the selected bookings; only cancelable ones can be selected (docs/decisions.md, 'Bookings and payments'). */
  selected: number[];
  error: Feedback | null;
  /** The answer to "Send my code again", shown beside that booking's code. */
  codeNotice: { bookingId: number; feedback: Feedback; sent: boolean } | null;
  /** What the last cancellation ended and refunded, said once it is done (issue 30), until a dialog opens. */
  cancelled: { count: number; refundEur: number } | null;
  /** Where older history starts, while some may be left to load on demand ('Show older bookings'). */
  olderHistory: string | null;
  /** "Book again" of a past or cancelled booking: the one being looked up, and why it could not be (issue 30). */
  again: { bookingId: number; feedback: Feedback | null } | null;
};

/** The slot that books a booking again: the same branch and time on the next free week. */
export type BookAgainSlot = { branch_id: number; date: string; time_slot_id: number; start_time: string };

export type CancellationEvent =
  | { type: 'booking.toggle'; id: number }
  | { type: 'selection.clear' }
  | { type: 'dialog.open' }
  | { type: 'dialog.cancel' }
  | { type: 'cancellation.confirm' }
  | { type: 'bookings.reload' }
  | { type: 'history.more' }
  | { type: 'code.resend'; id: number }
  | { type: 'booking.again'; id: number };

export type CancelRequest = { booking: { booking_id: number; expected_refund_eur: number }[] };

function keepCancelable(selected: number[], bookings: Booking[]): number[] {
  const cancelable = new Set(
    bookings.filter((booking) => booking.is_cancelable).map((booking) => booking.id),
  );
  return selected.filter((id) => cancelable.has(id));
}

/**
 * The door codes to show first (never inside a collapsed group): one per code, from the bookings whose code is
 * readable (30 minutes before the start to the end), with the window it opens the door in.
 */
export function visibleDoorCodes(
  bookings: readonly Booking[],
): { bookingId: number; code: string; validFrom: string; validUntil: string; booking: Booking }[] {
  const seen = new Set<string>();
  const codes = [];
  for (const booking of bookings) {
    const { lock_code: code, lock_code_valid_from: validFrom, lock_code_valid_until: validUntil } = booking;
    if (!code || !validFrom || !validUntil || booking.status !== 'confirmed') continue;
    const key = `${booking.time_slot_data.branch_data.id}:${code}:${validFrom}`;
    if (seen.has(key)) continue;
    seen.add(key);
    codes.push({ bookingId: booking.id, code, validFrom, validUntil, booking });
  }
  return codes;
}

/** The selected bookings, in list order. */
export function selectedBookings(context: CancellationContext): Booking[] {
  const ids = new Set(context.selected);
  return context.bookings.filter((booking) => ids.has(booking.id));
}

/** A load that failed: only logged (the lists stay as they were), on to `target`. */
function loadFailedTo<T extends string>(target: T) {
  return {
    target,
    actions: {
      type: 'logLoadFailure',
      params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
    },
  } as const;
}

/**
 * My bookings and their cancellation (docs/decisions.md, 'Client'): load the list, select cancelable bookings,
 * open the dialog, confirm. Confirming sends each booking's refundable amount as the expected refund; success
 * reloads the list and clears the selection; `refund_changed` or `booking_not_cancelable` (a figure changed) shows the server's message and reloads
 * the figures with the dialog still open. A failed load is only logged (docs/decisions.md, 'Client').
 */
export const myBookingsMachine = setup({
  types: machineTypes<CancellationContext, CancellationEvent>(),
  actors: {
    loadBookings: placeholder<Booking[]>('loadBookings'),
    cancelBookings: placeholder<void, CancelRequest>('cancelBookings'),
    resendCode: placeholder<void, { booking_id: number }>('resendCode'),
    loadHistory: placeholder<HistoryPage, { before: string }>('loadHistory'),
    findBookAgainSlot: placeholder<BookAgainSlot, { booking_id: number }>('findBookAgainSlot'),
  },
  guards: {
    isSelectable: ({ context }, params: { id: number }) =>
      context.bookings.some((booking) => booking.id === params.id && booking.is_cancelable),
    hasSelection: ({ context }) => context.selected.length > 0,
    hasOlderHistory: ({ context }) => context.olderHistory !== null,
    /** The server says when (T-30 to the end of the window); the button shows only with a readable code. */
    hasVisibleCode: ({ context }, params: { id: number }) =>
      context.bookings.some((booking) => booking.id === params.id && booking.lock_code !== null),
    /** A past, cancelled or expired booking can be booked again. */
    isRebookable: ({ context }, params: { id: number }) =>
      context.bookings.some((booking) => booking.id === params.id && listOf(booking) !== 'active'),
    isConflict: (_, params: { error: unknown }) =>
      hasErrorCode(params.error, 'refund_changed', 'booking_not_cancelable'),
  },
  actions: {
    // A (re)load answers the upcoming bookings and the newest page of the history: older pages come on demand.
    // It also puts away the last "Book again" refusal: the list it stood beside is gone.
    keepBookings: assign(({ context }, params: { bookings: Booking[] }) => ({
      bookings: params.bookings,
      again: null,
      selected: keepCancelable(context.selected, params.bookings),
      olderHistory:
        params.bookings.filter((booking) => listOf(booking) !== 'active').length >= HISTORY_PAGE
          ? historyCursor(params.bookings)
          : null,
    })),
    keepOlderHistory: assign(({ context }, params: { page: HistoryPage }) => {
      const known = new Set(context.bookings.map((booking) => booking.id));
      return {
        bookings: [...context.bookings, ...params.page.bookings.filter((booking) => !known.has(booking.id))],
        olderHistory: params.page.nextCursor,
      };
    }),
    clearSelection: assign({ selected: [], error: null }),
    noteCancelled: assign(({ context }) => {
      const ended = selectedBookings(context);
      return {
        cancelled: {
          count: ended.length,
          refundEur: sumEuros(ended.map((booking) => booking.refundable_eur)),
        },
      };
    }),
    cancelFailed: assign(({ event }) => ({
      error: failureFeedback((event as { error?: unknown }).error, 'can-not-cancel-bookings'),
    })),
    // Provided by the app: opens the booking flow on the slot's day with the slot chosen.
    openBooking: (_, _params: { slot: BookAgainSlot }) => {},
    // Provided by the app (docs/decisions.md, 'Client').
    logLoadFailure: (_, params: { error: unknown }) => {
      console.error('Could not load my bookings', params.error);
    },
  },
}).createMachine({
  id: 'myBookings',
  context: {
    bookings: [],
    selected: [],
    error: null,
    codeNotice: null,
    olderHistory: null,
    cancelled: null,
    again: null,
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadBookings',
        src: 'loadBookings',
        onDone: {
          target: 'ready',
          actions: { type: 'keepBookings', params: ({ event }) => ({ bookings: event.output }) },
        },
        onError: loadFailedTo('ready'),
      },
    },
    ready: {
      on: {
        'booking.toggle': {
          guard: { type: 'isSelectable', params: ({ event }) => ({ id: event.id }) },
          actions: assign(({ context, event }) => ({
            selected: context.selected.includes(event.id)
              ? context.selected.filter((id) => id !== event.id)
              : [...context.selected, event.id],
          })),
        },
        'selection.clear': { actions: 'clearSelection' },
        'dialog.open': {
          guard: 'hasSelection',
          target: 'dialog',
          actions: assign({ error: null, cancelled: null }),
        },
        'bookings.reload': { target: 'loading' },
        'history.more': { guard: 'hasOlderHistory', target: 'loadingHistory' },
        'code.resend': {
          guard: { type: 'hasVisibleCode', params: ({ event }) => ({ id: event.id }) },
          target: 'resendingCode',
          actions: assign(({ event }) => ({
            codeNotice: { bookingId: event.id, feedback: { key: 'code-sent-again' as const }, sent: false },
          })),
        },
        'booking.again': {
          guard: { type: 'isRebookable', params: ({ event }) => ({ id: event.id }) },
          target: 'findingAgain',
          actions: assign(({ event }) => ({ again: { bookingId: event.id, feedback: null } })),
        },
      },
    },
    // "Book again" (issue 30, item 4): the next free week's slot, then the booking flow opens on it; a week that
    // cannot be found says why beside the booking.
    findingAgain: {
      invoke: {
        id: 'findBookAgainSlot',
        src: 'findBookAgainSlot',
        input: ({ context }) => ({ booking_id: context.again?.bookingId ?? 0 }),
        onDone: {
          target: 'ready',
          actions: [
            assign({ again: null }),
            { type: 'openBooking', params: ({ event }) => ({ slot: event.output }) },
          ],
        },
        onError: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            again: context.again && {
              ...context.again,
              feedback: failureFeedback(event.error, 'can-not-book-again'),
            },
          })),
        },
      },
    },
    // 'Show older bookings': the next page of the history is added to the lists; a failure is only logged.
    loadingHistory: {
      invoke: {
        id: 'loadHistory',
        src: 'loadHistory',
        input: ({ context }) => ({ before: context.olderHistory ?? '' }),
        onDone: {
          target: 'ready',
          actions: { type: 'keepOlderHistory', params: ({ event }) => ({ page: event.output }) },
        },
        onError: loadFailedTo('ready'),
      },
    },
    // "Send my code again": the message goes out by e-mail and SMS; a refusal (too early, too late, too often)
    // shows the server's sentence.
    resendingCode: {
      invoke: {
        id: 'resendCode',
        src: 'resendCode',
        input: ({ context }) => ({ booking_id: context.codeNotice?.bookingId ?? 0 }),
        onDone: {
          target: 'ready',
          actions: assign(({ context }) => ({
            codeNotice: context.codeNotice && { ...context.codeNotice, sent: true },
          })),
        },
        onError: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            codeNotice: context.codeNotice && {
              ...context.codeNotice,
              feedback: failureFeedback(event.error, 'can-not-resend-code'),
            },
          })),
        },
      },
    },
    dialog: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'cancellation.confirm': {
              guard: 'hasSelection',
              target: 'cancelling',
              actions: assign({ error: null }),
            },
            // docs/decisions.md, 'Bookings and payments': Cancel clears the selection and the error.
            'dialog.cancel': { target: '#myBookings.ready', actions: 'clearSelection' },
          },
        },
        cancelling: {
          invoke: {
            id: 'cancelBookings',
            src: 'cancelBookings',
            input: ({ context }) => ({
              booking: selectedBookings(context).map((booking) => ({
                booking_id: booking.id,
                expected_refund_eur: booking.refundable_eur,
              })),
            }),
            onDone: { target: '#myBookings.loading', actions: ['noteCancelled', 'clearSelection'] },
            onError: [
              {
                guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
                target: 'refreshing',
                actions: 'cancelFailed',
              },
              { target: 'idle', actions: 'cancelFailed' },
            ],
          },
        },
        // The refund figures changed: show the new ones and let the user confirm again.
        refreshing: {
          invoke: {
            id: 'loadBookings',
            src: 'loadBookings',
            onDone: {
              target: 'idle',
              actions: { type: 'keepBookings', params: ({ event }) => ({ bookings: event.output }) },
            },
            onError: loadFailedTo('idle'),
          },
        },
      },
    },
  },
});
