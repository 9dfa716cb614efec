import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  myBookingsMachine,
  type CancelRequest,
  type HistoryPage,
} from '../../machines/myBookings.machine.ts';
import type { Booking } from '../../machines/myBookings.selectors.ts';
import { CHANGED_BOOKINGS, FIRST_BOOKINGS, LONG_HISTORY, pastBooking } from './bookings-fixtures.ts';

import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof myBookingsMachine>;
type Snapshot = SnapshotFrom<typeof myBookingsMachine>;

const FIRST = FIRST_BOOKINGS;
const CHANGED = CHANGED_BOOKINGS;
const LONG = LONG_HISTORY;
const LISTS: Booking[][] = [FIRST, CHANGED, [], LONG];
// Older pages: one with more behind it, the last one.
const OLDER: HistoryPage[] = [
  { bookings: [pastBooking(5), pastBooking(4)], nextCursor: '1793786400000.104' },
  { bookings: [pastBooking(1)], nextCursor: null },
];

const AGAIN = { branch_id: 1, date: '2026-12-08', time_slot_id: 77, start_time: '2026-12-08T10:00:00+00:00' };

const EVENTS = [
  ...LISTS.map((output) => ({ type: 'xstate.done.actor.loadBookings', output })),
  ...OLDER.map((output) => ({ type: 'xstate.done.actor.loadHistory', output })),
  { type: 'xstate.error.actor.loadHistory', error: new ApiError('service_unavailable') },
  { type: 'history.more' },
  { type: 'xstate.error.actor.loadBookings', error: new ApiError('internal_error') },
  { type: 'xstate.done.actor.cancelBookings' },
  {
    type: 'xstate.error.actor.cancelBookings',
    error: new ApiError('refund_changed', 'The refund is now €5.'),
  },
  { type: 'xstate.error.actor.cancelBookings', error: new ApiError('service_unavailable') },
  { type: 'booking.toggle', id: 1 },
  { type: 'booking.toggle', id: 2 },
  { type: 'booking.toggle', id: 3 },
  { type: 'selection.clear' },
  { type: 'dialog.open' },
  { type: 'dialog.cancel' },
  { type: 'cancellation.confirm' },
  { type: 'bookings.reload' },
  { type: 'code.resend', id: 1 },
  { type: 'code.resend', id: 2 },
  { type: 'xstate.done.actor.resendCode' },
  { type: 'xstate.error.actor.resendCode', error: new ApiError('rate_limited', 'Too many attempts.') },
  // "Book again" (issue 30): a past booking of the long history, an active one (refused), and the answers.
  { type: 'booking.again', id: 110 },
  { type: 'booking.again', id: 1 },
  { type: 'xstate.done.actor.findBookAgainSlot', output: AGAIN },
  { type: 'xstate.error.actor.findBookAgainSlot', error: new ApiError('no_free_week', 'No week is free.') },
] as unknown as Event[];

const coverage = coverageOf(myBookingsMachine);
afterAll(() => coverage.save());

const listName = (bookings: Booking[]) =>
  bookings === FIRST
    ? 'first'
    : bookings === CHANGED
      ? 'changed'
      : `${bookings.map((item) => item.id).join(',')}`;

describe('my bookings machine, model-based', () => {
  const paths = generatePaths(myBookingsMachine, {
    events: EVENTS,
    serializeState: (state) =>
      [
        JSON.stringify(state.value),
        `list:${listName(state.context.bookings)}`,
        `selected:${[...state.context.selected].sort().join(',')}`,
        `error:${state.context.error !== null}`,
        `code:${state.context.codeNotice ? `${state.context.codeNotice.bookingId}/${state.context.codeNotice.sent}` : '-'}`,
        `older:${state.context.olderHistory}`,
        `cancelled:${state.context.cancelled !== null}`,
        `again:${JSON.stringify(state.context.again)}`,
      ].join(' '),
    maxStatesForSimplePaths: 0,
  });

  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const sent: CancelRequest[] = [];
      const resent: unknown[] = [];
      const asked: unknown[] = [];
      const opened: unknown[] = [];
      let logged = 0;
      let loadFailures = 0;
      let previous: Snapshot | null = null;
      await replayPath(myBookingsMachine, path, {
        scripted: ['loadBookings', 'cancelBookings', 'resendCode', 'loadHistory', 'findBookAgainSlot'],
        coverage,
        provide: {
          actions: {
            logLoadFailure: () => (logged += 1),
            openBooking: (_: unknown, params: { slot: unknown }) => opened.push(params.slot),
          },
        },
        onCall: (id, input) => {
          if (id === 'cancelBookings') sent.push(input as CancelRequest);
          if (id === 'resendCode') resent.push(input);
          if (id === 'findBookAgainSlot') asked.push(input);
        },
        check: (snapshot, step) => {
          const type = step.event.type as string;
          const { bookings, selected, error } = snapshot.context;
          // Only bookings on the list and cancelable can be selected, each once.
          const cancelable = new Set(bookings.filter((item) => item.is_cancelable).map((item) => item.id));
          expect(selected.every((id) => cancelable.has(id))).toBe(true);
          expect(new Set(selected).size).toBe(selected.length);
          // A failed load (first page or older history) is logged, once per failure, and is never shown to the user (docs/decisions.md, 'Client').
          if (type === 'xstate.error.actor.loadBookings') loadFailures += 1;
          if (type === 'xstate.error.actor.loadHistory') loadFailures += 1;
          expect(logged).toBe(loadFailures);
          // An error is only ever shown inside the dialog.
          if (!snapshot.matches('dialog')) expect(error).toBeNull();
          // At most one call at a time.
          expect(Object.keys(snapshot.children).length).toBeLessThanOrEqual(1);
          // Confirming sends exactly the selected cancelable bookings, in list order, with their refundable
          // amount as the expected refund; nothing else ever reaches the cancel call.
          if (type === 'cancellation.confirm' && snapshot.matches({ dialog: 'cancelling' }) && previous) {
            const before = previous.context;
            expect(sent.at(-1)).toEqual({
              booking: before.bookings
                .filter((item) => item.is_cancelable && before.selected.includes(item.id))
                .map((item) => ({ booking_id: item.id, expected_refund_eur: item.refundable_eur })),
            });
            expect(sent.at(-1)?.booking.length).toBeGreaterThan(0);
          }
          const confirms = path.steps
            .slice(0, path.steps.indexOf(step) + 1)
            .filter((item) => (item.event.type as string) === 'cancellation.confirm').length;
          expect(sent.length).toBeLessThanOrEqual(confirms);
          // A successful cancellation clears the selection and reloads the list.
          if (type === 'xstate.done.actor.cancelBookings') {
            expect(selected).toEqual([]);
            expect(snapshot.matches('loading')).toBe(true);
            // And says what it ended and refunded (issue 30): the bookings the request named, their refunds.
            const request = sent.at(-1)!;
            expect(snapshot.context.cancelled).toEqual({
              count: request.booking.length,
              refundEur: request.booking.reduce((sum, item) => sum + item.expected_refund_eur, 0),
            });
          }
          // Opening the dialog again puts the last notice away.
          if (type === 'dialog.open' && snapshot.matches('dialog'))
            expect(snapshot.context.cancelled).toBeNull();
          // "Send my code again" only for a booking whose code is shown, and only that booking's.
          // A full first window of history offers older bookings, from just past the oldest one held; a page
          // adds its bookings (each once) and says whether more is left.
          if (type === 'xstate.done.actor.loadBookings') {
            expect(snapshot.context.olderHistory).toBe(
              bookings === LONG ? `${Date.parse('2026-11-10T10:00:00Z')}.110` : null,
            );
          }
          if (type === 'history.more' && snapshot.matches('loadingHistory') && previous) {
            expect(previous.context.olderHistory).not.toBeNull();
          }
          if (type === 'xstate.done.actor.loadHistory') {
            const page = (step.event as unknown as { output: HistoryPage }).output;
            expect(snapshot.context.olderHistory).toBe(page.nextCursor);
            expect(new Set(bookings.map((item) => item.id)).size).toBe(bookings.length);
            expect(bookings.map((item) => item.id)).toEqual(
              expect.arrayContaining(page.bookings.map((item) => item.id)),
            );
          }
          if (type === 'code.resend' && snapshot.matches('resendingCode')) {
            const shown = snapshot.context.bookings.find(
              (item) => item.id === snapshot.context.codeNotice?.bookingId,
            );
            expect(shown?.lock_code).not.toBeNull();
            expect(resent.at(-1)).toEqual({ booking_id: shown!.id });
          }
          if (type === 'xstate.done.actor.resendCode') expect(snapshot.context.codeNotice?.sent).toBe(true);
          // "Book again" only for a booking of the history, that booking's; the booking flow opens on the slot
          // found, once per answer; a refusal stays beside that booking.
          if (type === 'booking.again' && snapshot.matches('findingAgain')) {
            const asking = bookings.find((item) => item.id === snapshot.context.again?.bookingId);
            expect(asking?.is_in_past || asking?.status !== 'confirmed').toBe(true);
            expect(asked.at(-1)).toEqual({ booking_id: asking!.id });
          }
          // An active booking is not booked again (booking 1 is active on every list that holds it).
          if (
            type === 'booking.again' &&
            (step.event as { id?: number }).id === 1 &&
            previous?.matches('ready')
          )
            expect(snapshot.matches('findingAgain')).toBe(false);
          expect(opened.length).toBe(
            path.steps
              .slice(0, path.steps.indexOf(step) + 1)
              .filter((item) => (item.event.type as string) === 'xstate.done.actor.findBookAgainSlot').length,
          );
          if (type === 'xstate.done.actor.findBookAgainSlot') {
            expect(opened.at(-1)).toEqual(AGAIN);
            expect(snapshot.context.again).toBeNull();
          }
          if (type === 'xstate.error.actor.findBookAgainSlot') {
            expect(snapshot.context.again).toMatchObject({
              bookingId: 110,
              feedback: { text: 'No week is free.' },
            });
          }
          if (type === 'xstate.error.actor.resendCode') {
            expect(snapshot.context.codeNotice).toMatchObject({
              sent: false,
              feedback: { text: 'Too many attempts.' },
            });
          }
          previous = snapshot;
        },
      });
    });
  }
});

describe('my bookings machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
