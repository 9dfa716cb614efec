import { vi } from 'vitest';

// Stripe.js cannot load in a component test (as in booking.model.test.tsx): `@stripe/stripe-js` is replaced, so
// every embedded checkout waits for Stripe.js, and `stripe.fail()` is Stripe.js failing to load (the app's
// `payment.failed`). Import this before the feature under test. The app keeps one Stripe.js per publishable key
// (src/booking/StripeCheckout.tsx): each render takes a fresh key (`stripe.nextKey()`), so its checkout waits
// for a load of its own.

/** The loads of Stripe.js asked for, by publishable key: each waits until the test fails it. */
const loads = new Map<string, (value: null) => void>();
let keys = 0;

export const stripe = {
  nextKey: () => {
    keys += 1;
    return `pk_test_${keys}`;
  },
  /** Stripe.js fails to load for the current key's checkout, once that checkout (a lazy chunk) asked for it. */
  async fail(): Promise<void> {
    const key = `pk_test_${keys}`;
    // The first checkout of a file imports its chunk (and `@stripe/react-stripe-js`): slow on a busy machine.
    const deadline = Date.now() + 10_000;
    while (!loads.has(key)) {
      if (Date.now() > deadline) throw new Error(`the checkout never loaded Stripe.js (${key})`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    loads.get(key)!(null);
  },
};

vi.mock('@stripe/stripe-js', () => ({
  loadStripe: (key: string) => new Promise((resolve) => loads.set(key, resolve)),
}));

// The embedded checkout is a lazy chunk of the app (src/booking/Checkout.tsx): imported here once, so a path's
// checkout asks for Stripe.js as soon as it renders instead of after a cold import of the chunk and
// `@stripe/react-stripe-js` (which took more than `fail`'s 10 s once on a busy machine).
await import('../../../src/booking/StripeCheckout.tsx');
