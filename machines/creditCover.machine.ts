import { assign, fromCallback, sendParent, setup, type EventObject } from 'xstate';
import { machineTypes } from './machine-types.ts';
import { placeholder } from './placeholder.ts';
import type { components } from '../openapi/schema.gen.ts';

/** What the member's credit would pay of a basket (`previewCreditCover`), slot by slot, and what is left to pay. */
export type CreditCover = components['schemas']['CreditCover'];
/** A basket as the cover preview takes it: its slots and the applied coupon's id. */
export type CoverRequest = { time_slot_id: number[]; coupon_code: number | null };

/** The booking flow's basket changed (`key` names it; null: nothing to cover, no member or no slot). */
export type BasketChanged = { type: 'basket.changed'; key: string | null; basket: CoverRequest | null };
/** The cover of the basket `key` names, told to the booking flow; null when it could not be read. */
export type CoverChanged = { type: 'cover.changed'; key: string; cover: CreditCover | null };

/** How long the basket must rest before its cover is asked for: a member picking several slots asks once. */
export const COVER_DELAY_MS = 300;

type CoverContext = { key: string | null; basket: CoverRequest | null };

const BASKET_CHANGED = [
  {
    guard: 'hasBasket' as const,
    // The machine's own transition into its child: the waiting state is left and entered again, so its delay
    // starts again (and an answer under way is dropped).
    target: '#creditCover.waiting',
    actions: 'remember' as const,
  },
  { target: '#creditCover.idle', actions: 'remember' as const },
];

/**
 * The member's credit against the booking flow's basket (issue 31), a child of the booking flow: each basket it
 * is told of is asked about once it has rested a moment (a newer basket meanwhile starts the wait again and drops
 * the answer under way), and the answer, or that there is none, is told back with the basket's key.
 */
export const creditCoverMachine = setup({
  types: machineTypes<CoverContext, BasketChanged>(),
  actors: {
    previewCreditCover: placeholder<CreditCover, CoverRequest>('previewCreditCover'),
  },
  actions: {
    remember: assign(({ event }) => ({ key: event.key, basket: event.basket })),
    // Tells the booking flow (the parent); a test of this machine alone provides its own.
    tell: sendParent((_, cover: CoverChanged) => cover),
  },
  guards: {
    hasBasket: ({ event }) => event.key !== null && event.basket !== null,
  },
}).createMachine({
  id: 'creditCover',
  context: { key: null, basket: null },
  initial: 'idle',
  on: { 'basket.changed': BASKET_CHANGED },
  states: {
    idle: {},
    waiting: {
      after: { [COVER_DELAY_MS]: 'previewing' },
    },
    previewing: {
      invoke: {
        id: 'previewCreditCover',
        src: 'previewCreditCover',
        input: ({ context }) => context.basket!,
        onDone: {
          target: 'idle',
          actions: {
            type: 'tell',
            params: ({ context, event }) => ({
              type: 'cover.changed' as const,
              key: context.key!,
              cover: event.output,
            }),
          },
        },
        // Unread, the booking is paid as if there were no credit (the summary says so).
        onError: {
          target: 'idle',
          actions: {
            type: 'tell',
            params: ({ context }) => ({ type: 'cover.changed' as const, key: context.key!, cover: null }),
          },
        },
      },
    },
  },
});

/**
 * The booking flow's declaration of its cover: the app provides `creditCoverMachine` over the API client with
 * `.provide()`; a flow run without it (a test of something else) hears at once, for every basket, that its
 * cover could not be read, and books as before the wallet.
 */
export const withoutCreditCover = fromCallback<EventObject>(({ receive, sendBack }) => {
  receive((event) => {
    const { key } = event as BasketChanged;
    if (key !== null) sendBack({ type: 'cover.changed', key, cover: null } satisfies CoverChanged);
  });
});
