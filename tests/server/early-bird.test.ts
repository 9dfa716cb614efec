import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBranch, insertBooking, insertSlot } from './support/fixtures.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import {
  newClient,
  outboxTo,
  registration,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type Schemas,
} from './support/accounts.ts';

// The early-bird coupon (EARLY_BIRD_COUPON_CODE, EARLYBIRD by default) is offered to the members it applies to:
// their profile lists it with the uses left, and their verification e-mail states its code and terms.

const OPENING = '2026-04-01T00:00:00Z';

describe.each(PGLITE_ONLY)('the early-bird coupon on %s', (target) => {
  let server: AccountApp;
  let couponId: number;

  beforeAll(async () => {
    server = await startAccountApp(target);
    ({ id: couponId } = await server.app.db
      .insertInto('coupons')
      .values({
        code: 'EARLYBIRD',
        discount: 0.1,
        valid_from: '2026-01-01T00:00:00Z',
        max_redemptions_per_user: 3,
        registered_before: OPENING,
      })
      .returning('id')
      .executeTakeFirstOrThrow());
  });
  afterAll(async () => server?.close());

  async function offeredCoupon(token: string) {
    const me = await newClient(server.app).get('/api/auth/me', token);
    expect(me.statusCode).toBe(200);
    return me.json<Schemas['User']>().offered_coupon;
  }

  it('is offered to an account made before the opening, with its uses left, and named in its e-mail', async () => {
    const client = newClient(server.app);
    const account = await verifiedAccount(client, server.app, { locale: 'en' });
    expect(await offeredCoupon(account.token)).toEqual({
      id: couponId,
      code: 'EARLYBIRD',
      discount: 0.1,
      remaining_uses: 3,
    });
    const emails = (await outboxTo(server.app, account.email)).filter((m) => m.channel === 'email');
    expect(emails.map((m) => m.text).join('\n')).toContain(
      'As an early member, the code EARLYBIRD gives you 10% off the next 3 slots you book.',
    );
  });

  it('states its terms in the language of the account', async () => {
    const account = registration({ locale: 'fr' });
    await newClient(server.app).json('POST', '/api/auth/register', account);
    const [email] = await outboxTo(server.app, account.email);
    expect(email?.text).toContain(
      'le code EARLYBIRD vous donne 10 % de réduction sur les 3 prochains créneaux que vous réservez',
    );
  });

  it('is not offered once the member has used it on three slots', async () => {
    const account = await verifiedAccount(newClient(server.app), server.app);
    const user = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', account.email.toLowerCase())
      .executeTakeFirstOrThrow();
    const branchId = await createBranch(server.app.db);
    for (const hour of [10, 11, 12]) {
      const slotId = await insertSlot(server.app.db, {
        branchId,
        start: `2026-04-02T${hour}:00:00Z`,
        end: `2026-04-02T${hour + 1}:00:00Z`,
        localDate: '2026-04-02',
      });
      const bookingId = await insertBooking(server.app.db, { slotId, status: 'confirmed', userId: user.id });
      await server.app.db
        .insertInto('coupon_redemptions')
        .values({ coupon_id: couponId, user_id: user.id, booking_id: bookingId })
        .execute();
      if (hour === 11) expect(await offeredCoupon(account.token)).toMatchObject({ remaining_uses: 1 });
    }
    expect(await offeredCoupon(account.token)).toBeNull();
  });

  it('is neither offered nor mentioned to an account made on or after the opening', async () => {
    const before = server.clock.now();
    server.clock.set(OPENING);
    try {
      const account = await verifiedAccount(newClient(server.app), server.app, { locale: 'en' });
      expect(await offeredCoupon(account.token)).toBeNull();
      const texts = (await outboxTo(server.app, account.email)).map((m) => m.text).join('\n');
      expect(texts).not.toContain('EARLYBIRD');
    } finally {
      server.clock.set(before);
    }
  });
});
