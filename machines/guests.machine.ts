import { assign, setup } from 'xstate';
import { failureFeedback, sanitisePhone, type Feedback } from './feedback.ts';
import { machineTypes } from './machine-types.ts';
import { placeholder } from './placeholder.ts';
import type { components } from '../openapi/schema.gen.ts';

/** A guest of a booking as the server lists them (`BookingGuest`): never their code, which is theirs. */
export type Guest = components['schemas']['BookingGuest'];
export type GuestForm = { name: string; phone: string; email: string };
export type NewGuest = { name: string; phone_number: string | null; email: string | null };

export type GuestsContext = {
  bookingId: number;
  guests: Guest[];
  form: GuestForm;
  error: Feedback | null;
  /** The guest being removed, while the call runs. */
  removing: number | null;
};

export type GuestsEvent =
  | { type: 'guests.open' }
  | { type: 'guests.close' }
  | { type: 'guests.retry' }
  | { type: 'guest.input'; field: keyof GuestForm; value: string }
  | { type: 'guest.add' }
  | { type: 'guest.remove'; id: number };

const EMPTY_FORM: GuestForm = { name: '', phone: '', email: '' };

/** The guest the form describes, or why not: a name and a valid phone number or an e-mail (the server checks too). */
export function newGuestOf(form: GuestForm): NewGuest | null {
  const name = form.name.trim();
  const email = form.email.trim();
  const phone = form.phone.trim() === '' ? null : sanitisePhone(form.phone);
  if (name === '' || (email === '' && form.phone.trim() === '')) return null;
  if (form.phone.trim() !== '' && phone === null) return null;
  return { name, phone_number: phone, email: email === '' ? null : email };
}

/**
 * A booking's guests (issue 31), in a dialog from My bookings: read when it opens; a guest added with a name and a
 * phone number or an e-mail (each gets a door code of their own by the server), or removed (their code revoked at
 * once). One call at a time; the list follows each answer. A failed read offers to try again.
 */
export const guestsMachine = setup({
  types: machineTypes<GuestsContext, GuestsEvent, { bookingId: number }>(),
  actors: {
    listGuests: placeholder<Guest[], { bookingId: number }>('listGuests'),
    addGuest: placeholder<Guest, { bookingId: number; guest: NewGuest }>('addGuest'),
    removeGuest: placeholder<void, { bookingId: number; guestId: number }>('removeGuest'),
  },
  guards: {
    formComplete: ({ context }) => newGuestOf(context.form) !== null,
    phoneInvalid: ({ context }) =>
      context.form.phone.trim() !== '' && sanitisePhone(context.form.phone) === null,
  },
}).createMachine({
  id: 'guests',
  context: ({ input }) => ({
    bookingId: input.bookingId,
    guests: [],
    form: EMPTY_FORM,
    error: null,
    removing: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'guests.open': { target: 'loading', actions: assign({ error: null, form: EMPTY_FORM }) } },
    },
    loading: {
      invoke: {
        id: 'listGuests',
        src: 'listGuests',
        input: ({ context }) => ({ bookingId: context.bookingId }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ guests: event.output })) },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({ error: failureFeedback(event.error, 'generic') })),
        },
      },
      on: { 'guests.close': 'closed' },
    },
    failed: {
      on: {
        'guests.retry': { target: 'loading', actions: assign({ error: null }) },
        'guests.close': 'closed',
      },
    },
    ready: {
      on: {
        'guest.input': {
          actions: assign(({ context, event }) => ({
            form: { ...context.form, [event.field]: event.value },
            error: null,
          })),
        },
        'guest.add': [
          { guard: 'phoneInvalid', actions: assign({ error: { key: 'invalid-phone-number' } }) },
          { guard: 'formComplete', target: 'adding', actions: assign({ error: null }) },
        ],
        'guest.remove': {
          target: 'removing',
          actions: assign(({ event }) => ({ removing: event.id, error: null })),
        },
        'guests.close': 'closed',
      },
    },
    adding: {
      invoke: {
        id: 'addGuest',
        src: 'addGuest',
        input: ({ context }) => ({ bookingId: context.bookingId, guest: newGuestOf(context.form)! }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            guests: [...context.guests, event.output],
            form: EMPTY_FORM,
          })),
        },
        onError: {
          target: 'ready',
          actions: assign(({ event }) => ({ error: failureFeedback(event.error, 'can-not-add-guest') })),
        },
      },
    },
    removing: {
      invoke: {
        id: 'removeGuest',
        src: 'removeGuest',
        input: ({ context }) => ({ bookingId: context.bookingId, guestId: context.removing! }),
        onDone: {
          target: 'ready',
          actions: assign(({ context }) => ({
            guests: context.guests.filter((guest) => guest.id !== context.removing),
            removing: null,
          })),
        },
        onError: {
          target: 'ready',
          actions: assign(({ event }) => ({
            removing: null,
            error: failureFeedback(event.error, 'can-not-remove-guest'),
          })),
        },
      },
    },
  },
});
