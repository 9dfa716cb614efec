import { describe, expect, it } from 'vitest';
import { renderLocalCheckoutPage } from '../../server/booking/checkout/local-page.ts';

describe('the local test checkout page', () => {
  const page = (locale: 'pt' | 'fr' | 'en') =>
    renderLocalCheckoutPage({ locale, nonce: 'n0nce', amountCents: 2500, open: true });

  it('writes the French colon after a (no-break) space, and the others without one', () => {
    expect(page('fr')).toMatch(/Montant\u00a0: <strong>/);
    expect(page('pt')).toMatch(/Montante: <strong>/);
    expect(page('en')).toMatch(/Amount: <strong>/);
  });
});
