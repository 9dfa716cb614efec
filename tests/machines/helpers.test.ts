import { describe, expect, it } from 'vitest';
import { priceRange, truncateDescription, type Branch } from '../../machines/branches.ts';
import { modalSearchSchema, usesSearchAlias } from '../../machines/modal-search.ts';
import { arrangeModals, needsLogin } from '../../machines/startup.machine.ts';
import { refundPolicyText, refundTiers, type RefundSentence } from '../../machines/refund.ts';
import { lowestRefundThreshold, refundSchedule } from '../../machines/refund-schedule.ts';

function branch(active: boolean, prices: number[]): Branch {
  return {
    id: 1,
    name: 'B',
    order: 1,
    image: '',
    images_urls: [],
    location: '',
    active_with_smart_lock: active,
    descriptions_data: { pt: '', en: '', fr: '', de: '', sk: '' },
    min_and_max_price_eur_long_cached: prices,
    time_zone: 'Europe/Lisbon',
    slot_minutes: 60,
    latitude: 0,
    longitude: 0,
    map_url: null,
  };
}

describe('branch description truncation', () => {
  it('keeps a description of 142 characters or fewer as it is', () => {
    const text = 'a'.repeat(142);
    expect(truncateDescription(text)).toBe(text);
  });

  it("cuts a longer description to 142 characters and adds '...'", () => {
    const text = 'b'.repeat(150);
    expect(truncateDescription(text)).toBe(`${'b'.repeat(142)}...`);
  });

  it('counts accented letters and emoji as single characters', () => {
    const text = 'ç'.repeat(141) + '💪💪';
    expect(truncateDescription(text)).toBe(`${'ç'.repeat(141)}💪...`);
  });
});

describe('pricing range', () => {
  it('takes the minimum of the minimum prices and the minimum of the maximum prices', () => {
    expect(priceRange([branch(true, [25, 45]), branch(true, [20, 60])])).toEqual({ min: 20, max: 45 });
  });

  it('ignores branches that are not active', () => {
    expect(priceRange([branch(true, [25, 45]), branch(false, [5, 10])])).toEqual({ min: 25, max: 45 });
  });

  it('has no range without an active branch', () => {
    expect(priceRange([branch(false, [5, 10])])).toBeNull();
    expect(priceRange([])).toBeNull();
  });
});

describe('refund policy text', () => {
  const english = (tier: RefundSentence) =>
    tier.kind === 'always'
      ? `Always ${tier.percent}% is refunded.`
      : `${tier.kind === 'above' ? 'Above' : 'Below'} ${tier.hours} ${tier.hours === 1 ? 'hour' : 'hours'}, ${tier.percent}% is refunded.`;

  it('sorts the tiers by hour threshold, descending, with the ratio as a percent', () => {
    expect(refundTiers({ '0': 0, '48': 1, '24': 0.5 })).toEqual([
      { hours: 48, percent: 100 },
      { hours: 24, percent: 50 },
      { hours: 0, percent: 0 },
    ]);
  });

  it("renders 'Above N hour(s), P% is refunded.' for each tier, joined by spaces", () => {
    expect(refundPolicyText({ '48': 1, '24': 0.5, '0': 0 }, english)).toBe(
      'Above 48 hours, 100% is refunded. Above 24 hours, 50% is refunded. Below 24 hours, 0% is refunded.',
    );
    expect(refundPolicyText({ '1': 0.25 }, english)).toBe('Above 1 hour, 25% is refunded.');
  });

  it("reads the 0 threshold as 'less than' the next one up, never 'more than 0 hours'", () => {
    expect(refundPolicyText({ '24': 1, '0': 0.5 }, english)).toBe(
      'Above 24 hours, 100% is refunded. Below 24 hours, 50% is refunded.',
    );
    expect(refundPolicyText({ '0': 0.8 }, english)).toBe('Always 80% is refunded.');
  });

  it('sorts thresholds numerically, not as text', () => {
    expect(refundTiers({ '100': 1, '9': 0.3 }).map((tier) => tier.hours)).toEqual([100, 9]);
  });

  it('avoids floating-point noise in the percent', () => {
    expect(refundTiers({ '12': 0.29 })[0]?.percent).toBe(29);
  });
});

// Issue 30: the refund deadlines a member sees before paying and in My bookings, from the same rule the server
// refunds by (a threshold of h hours applies while at least h hours are left).
describe('refund schedule', () => {
  const HOUR = 3_600_000;
  const start = Date.UTC(2026, 11, 3, 18);
  const policy = { '48': 1, '24': 0.5, '0': 0 };

  it('gives each step its refund and when it ends, the last at the start', () => {
    expect(refundSchedule(policy, start, start - 72 * HOUR)).toEqual([
      { percent: 100, until: start - 48 * HOUR },
      { percent: 50, until: start - 24 * HOUR },
      { percent: 0, until: start },
    ]);
  });

  it('leaves out the steps already over, and is empty once the booking started', () => {
    expect(refundSchedule(policy, start, start - 30 * HOUR)).toEqual([
      { percent: 50, until: start - 24 * HOUR },
      { percent: 0, until: start },
    ]);
    expect(refundSchedule(policy, start, start - HOUR)).toEqual([{ percent: 0, until: start }]);
    expect(refundSchedule(policy, start, start)).toEqual([]);
  });

  it('refunds nothing below the lowest threshold when 0 is not one, and merges equal steps', () => {
    expect(refundSchedule({ '24': 1 }, start, start - 48 * HOUR)).toEqual([
      { percent: 100, until: start - 24 * HOUR },
      { percent: 0, until: start },
    ]);
    expect(refundSchedule({ '48': 1, '24': 1, '0': 0.5 }, start, start - 72 * HOUR)).toEqual([
      { percent: 100, until: start - 24 * HOUR },
      { percent: 50, until: start },
    ]);
  });

  it('names the lowest threshold above 0 hours', () => {
    expect(lowestRefundThreshold(policy)).toBe(24);
    expect(lowestRefundThreshold({ '0': 0.8 })).toBeNull();
  });
});

describe('modal query parameters', () => {
  it('keeps valid values and drops everything malformed', () => {
    expect(
      modalSearchSchema.parse({
        auth_tab: 'register',
        booking_tab: 'nope',
        booking_branch_id: '3',
        verify_email: 'not-an-email',
        booking_date: '2026-02-30',
      }),
    ).toEqual({ auth_tab: 'register', booking_branch_id: 3 });
  });

  it('reads tokens and codes that the router parsed as numbers as strings', () => {
    expect(modalSearchSchema.parse({ reset_token: 123456, verify_email_code: 42 })).toEqual({
      reset_token: '123456',
      verify_email_code: '42',
    });
  });

  it("accepts 'my-bookings' as an alias of the myBookings tab, to be rewritten", () => {
    expect(modalSearchSchema.parse({ account_tab: 'my-bookings' })).toEqual({ account_tab: 'myBookings' });
    expect(usesSearchAlias({ account_tab: 'my-bookings' })).toBe(true);
    expect(usesSearchAlias({ account_tab: 'myBookings' })).toBe(false);
  });

  it('rejects branch ids that are not positive integers', () => {
    expect(modalSearchSchema.parse({ booking_branch_id: -1 })).toEqual({});
    expect(modalSearchSchema.parse({ booking_branch_id: 1.5 })).toEqual({});
    expect(modalSearchSchema.parse({ booking_branch_id: 7 })).toEqual({ booking_branch_id: 7 });
  });

  it('puts at most one modal in front: auth before payment before booking before account', () => {
    expect(arrangeModals({ auth_tab: 'login', booking_tab: 'bookSessions' }, true)).toEqual({
      modal: 'auth',
      behind: 'booking',
    });
    expect(arrangeModals({ stripe_session_id: 'cs_1', booking_tab: 'bookSessions' }, true)).toEqual({
      modal: 'payment',
      behind: null,
    });
    expect(arrangeModals({ booking_tab: 'bookSessions', account_tab: 'profile' }, true).modal).toBe(
      'booking',
    );
    expect(arrangeModals({ account_tab: 'profile' }, true).modal).toBe('account');
    expect(arrangeModals({ account_tab: 'profile' }, false).modal).toBeNull();
    expect(arrangeModals({}, true)).toEqual({ modal: null, behind: null });
  });

  it('asks a logged-out visitor who wants the account to log in, unless the auth modal is already open', () => {
    expect(needsLogin({ account_tab: 'profile' }, false)).toBe(true);
    expect(needsLogin({ account_tab: 'profile', auth_tab: 'register' }, false)).toBe(false);
    expect(needsLogin({ account_tab: 'profile' }, true)).toBe(false);
    expect(needsLogin({}, false)).toBe(false);
  });
});
