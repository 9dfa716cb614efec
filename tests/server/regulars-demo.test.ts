import { describe, expect, it } from 'vitest';
import { walkRegulars, type RegularsFacts } from '../../scripts/regulars-demo.ts';
import { freshDatabaseConfig } from './support/databases.ts';

// The transcript of issue 31 (docs/regulars-transcript.txt) is written by scripts/regulars-demo.ts: the walk runs
// here too, on the run's migrated PGlite, so it cannot rot. It takes about 5 s of CPU; its timeout is for a loaded
// machine. Besides the walk's own checks (the ledger rows against what the members paid and were refunded, every lot
// against its movements), the facts each flow must show.

describe('the regulars transcript (scripts/regulars-demo.ts)', () => {
  it('walks the four flows: series, pack, voucher and guests, and their books balance', async () => {
    const lines: string[] = [];
    const database = await freshDatabaseConfig('pglite');
    let facts: RegularsFacts;
    try {
      facts = await walkRegulars({ database: database.config, say: (line) => lines.push(line) });
    } finally {
      await database.cleanup();
    }
    const transcript = lines.join('\n');

    expect(facts.checks.filter((check) => !check.ok)).toEqual([]);
    expect(facts.checks.length).toBeGreaterThan(15);
    for (const flow of ['## a.', '## b.', '## c.', '## d.', '## The books at the end'])
      expect(transcript).toContain(flow);

    // a. Monday 18:00 stays 18:00 across the change to summer time; the taken week is said before paying.
    expect(facts.series.occurrences).toEqual([
      { week: 1, start: '2026-03-23T18:00:00+00:00', problem: null, price_eur: 15 },
      { week: 2, start: '2026-03-30T18:00:00+01:00', problem: 'taken', price_eur: 15 },
      { week: 3, start: '2026-04-06T18:00:00+01:00', problem: null, price_eur: 15 },
      { week: 4, start: '2026-04-13T18:00:00+01:00', problem: null, price_eur: 20 },
    ]);
    expect(facts.series.checkoutCents).toBe(5000);
    // Week 1 at 50% (30 hours ahead), then weeks 3 and 4 ("this and the following") whole.
    expect(facts.series.refundsCents).toEqual([750, 1500, 2000]);
    // The operator's CLI names the series of each week (Ana's three weeks, newest first).
    expect(new Set(facts.series.seriesOnCli).size).toBe(1);
    expect(facts.series.seriesOnCli).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);

    // b. 10 € of credit and 5 € by card; cancelled at 50%: 5 € of credit back to the lot, once told of its expiry.
    expect(facts.pack.movements).toEqual(['grant 1000', 'spend 1000', 'return 500']);
    expect(facts.pack.lotRemainingAfterCancel).toBe(5);
    expect(facts.pack.expiryNotices).toBe(1);
    expect(facts.pack.creditOnCli).toBe('10.00');
    expect(transcript).toMatch(/credit-expiry job, 14 days and 1 hour before: 0 notice/);
    expect(transcript).toMatch(/expire 500 cents \| system/);

    // c. The voucher's code, redeemed once into the recipient's wallet.
    expect(facts.voucher.code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(facts.voucher.redeemedLotEur).toBe(40);

    // d. The member's code and one per guest on the fake Seam lock; each guest messaged at T-30; the removed
    // guest's code deleted from the lock; after the cancellation no code of the booking is left on it.
    expect(facts.guests.codesOnLockAfterAdding).toBe(3);
    expect(facts.guests.guestMessages).toEqual([
      'email rita@example.pt',
      'sms +351912000004',
      'email paulo@example.pt',
    ]);
    expect(facts.guests.removedGuestCodeOnLock).toBe(false);
    expect(facts.guests.codesOnLockAfterCancel).toBe(0);
    expect(facts.guests.guestsOnCli).toBe(2);
  }, 240_000);
});
