import { vi } from 'vitest';

// Stripe.js cannot load in a component test (as in booking.model.test.tsx): `@stripe/stripe-js` is replaced, so
// every embedded checkout waits for Stripe.js, and `stripe.fail()` is Stripe.js failing to load (the app's
// `payment.failed`). Import this before the feature under test. The app keeps one Stripe.js per publishable key
// (src/booking/StripeCheckout.tsx): each render takes a fresh key (`stripe.nextKey()`), so its checkout waits
// for a load of its own.
let keys = 0;
export const stripe = {
  fail: () => {},
  nextKey: () => {
    keys += 1;
    return `pk_test_${keys}`;
  },
};

vi.mock('@stripe/stripe-js', () => ({
  loadStripe: () =>
    new Promise((resolve) => {
      stripe.fail = () => resolve(null);
    }),
}));
