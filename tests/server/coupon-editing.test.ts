import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { loggedInOperator } from './support/operators.ts';

// Issue 32, item 4: an owner edits a coupon's discount, dates, caps and 'for accounts registered before' (the
// early-bird opening date) through the one coupon use case; a refused setting is named beside its field.

describe('coupons edited in the console (pglite)', () => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;

  beforeAll(async () => {
    server = await startAccountApp('pglite');
    owner = await loggedInOperator(server.app, server.clock, 'coupon-owner@gym.example', 'owner');
  }, 120_000);
  afterAll(async () => server?.close());

  const create = (body: object) => owner.client.json('POST', '/api/admin/coupons', body, owner.token);
  const edit = (code: string, body: object, locale = 'en') =>
    owner.client.call({
      method: 'PATCH',
      url: `/api/admin/coupons/${code}`,
      payload: body,
      headers: { authorization: `Bearer ${owner.token}`, locale },
    });

  it('an edited coupon answers its new discount, dates and caps, and the audit log keeps before and after', async () => {
    expect((await create({ code: 'SPRING', discount: 0.1 })).statusCode).toBe(201);
    const edited = await edit('spring', {
      discount: 0.25,
      valid_from: '2026-03-21T00:00:00Z',
      valid_until: '2026-04-30T23:59:59Z',
      max_uses: 40,
      max_uses_per_user: 2,
      registered_before: '2026-03-25T00:00:00Z',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<Schemas['AdminCoupon']>()).toMatchObject({
      code: 'SPRING',
      discount: 0.25,
      valid_from: '2026-03-21T00:00:00.000Z',
      valid_until: '2026-04-30T23:59:59.000Z',
      max_uses: 40,
      max_uses_per_user: 2,
      registered_before: '2026-03-25T00:00:00.000Z',
    });
    const list = await owner.client.get('/api/admin/coupons', owner.token);
    expect(list.json<Schemas['AdminCoupon'][]>().find((coupon) => coupon.code === 'SPRING')).toMatchObject({
      discount: 0.25,
      max_uses: 40,
    });
    const audit = await server.app.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'coupon.update')
      .where('entity_id', '=', 'SPRING')
      .executeTakeFirstOrThrow();
    expect(audit.before).toMatchObject({ discount: 0.1, max_uses: null, registered_before: null });
    expect(audit.after).toMatchObject({ discount: 0.25, max_uses: 40 });
    // null lifts a limit again.
    const lifted = await edit('SPRING', { max_uses: null, valid_until: null });
    expect(lifted.json<Schemas['AdminCoupon']>()).toMatchObject({ max_uses: null, valid_until: null });
  });

  it('moving the registered-before date decides which members may use it', async () => {
    const member = await verifiedAccount(newClient(server.app), server.app);
    expect((await create({ code: 'EARLY', discount: 0.1, max_uses_per_user: 3 })).statusCode).toBe(201);
    const lookUp = () => newClient(server.app).get('/api/bookings/coupon-code/EARLY', member.token);
    // The member registered at the test clock's now: an opening date at that moment leaves them out.
    await edit('EARLY', { registered_before: server.clock.now().toString() });
    expect((await lookUp()).statusCode).toBe(404);
    await edit('EARLY', { registered_before: '2026-04-01T00:00:00Z' });
    expect((await lookUp()).statusCode).toBe(200);
  });

  it('a refused discount, validity or code is named beside its field, in the caller language', async () => {
    await create({ code: 'FIELDS', discount: 0.1, valid_from: '2026-03-20T00:00:00Z' });
    const tooMuch = await edit('FIELDS', { discount: 1.5 });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json<ErrorBody>().fields?.map((problem) => problem.field)).toEqual(['discount']);
    const nothing = await edit('FIELDS', { discount: 0 });
    expect(nothing.json<ErrorBody>().fields?.map((problem) => problem.field)).toEqual(['discount']);
    const backwards = await edit('FIELDS', { valid_until: '2026-03-19T00:00:00Z' }, 'pt');
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json<ErrorBody>().fields).toEqual([{ field: 'valid_until', problem: 'invalid' }]);
    expect(backwards.json<ErrorBody>().detail).toMatch(/^Pedido inválido/);
    const badCode = await create({ code: 'Á', discount: 0.1 });
    expect(badCode.statusCode).toBe(422);
    expect(badCode.json<ErrorBody>().fields?.map((problem) => problem.field)).toEqual(['code']);
    const taken = await create({ code: 'fields', discount: 0.2 });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<ErrorBody>().code).toBe('coupon_exists');
    // Nothing refused was kept.
    const list = await owner.client.get('/api/admin/coupons', owner.token);
    expect(list.json<Schemas['AdminCoupon'][]>().find((coupon) => coupon.code === 'FIELDS')).toMatchObject({
      discount: 0.1,
      valid_until: null,
    });
  });

  it('an unknown coupon is not found', async () => {
    const missing = await edit('NOSUCH', { discount: 0.2 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<ErrorBody>().code).toBe('coupon_not_found');
  });
});
