import type { ErrorBody } from './support/accounts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.ts';
import {
  bookAndPayOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
} from './support/accounts.ts';
import { createBranch, insertSlot } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// What the console takes from an operator is refused with the contract's errors, never a 500 and never stored
// when it is out of bounds: a move onto the booking's own slot, dates outside the accepted years (2000-2100)
// or that do not exist, a closure of centuries, and map or image links a browser would run or that are not
// https (docs/decisions.md, "Input is refused with the contract's errors").

let counter = 0;
const unique = (role: string) => `${role}-${Date.now()}-${(counter += 1)}@gym.example`;

describe.each(DATABASE_TARGETS)('console input on %s', (target) => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let branchId: number;

  beforeAll(async () => {
    server = await startAccountApp(target);
    owner = await loggedInOperator(server.app, server.clock, unique('owner'), 'owner');
    branchId = await createBranch(server.app.db);
  });
  afterAll(async () => server?.close());

  const send = (method: 'POST' | 'PATCH', url: string, payload: object) =>
    owner.client.call({
      method,
      url,
      payload,
      headers: { authorization: `Bearer ${owner.token}`, locale: 'en' },
    });
  it('refuses to move a booking onto its own slot with 409 move_same_slot, changing nothing', async () => {
    const member = await verifiedAccount(newClient(server.app), server.app);
    const slotId = await insertSlot(server.app.db, {
      branchId,
      start: '2026-03-30T10:00:00Z',
      end: '2026-03-30T11:00:00Z',
      localDate: '2026-03-30',
    });
    await bookAndPayOverHttp(newClient(server.app), member.token, slotId);
    const before = await server.app.db
      .selectFrom('bookings')
      .selectAll()
      .where('slot_id', '=', slotId)
      .executeTakeFirstOrThrow();
    const outbox = await server.app.db.selectFrom('outbox').select('id').execute();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const moved = await send('POST', `/api/admin/bookings/${before.id}/move`, {
        time_slot_id: slotId,
        reason: 'same slot',
      });
      expect(moved.statusCode).toBe(409);
      expect(moved.json<ErrorBody>()).toMatchObject({ code: 'move_same_slot' });
    }
    expect(
      await server.app.db.selectFrom('bookings').selectAll().where('id', '=', before.id).executeTakeFirst(),
    ).toEqual(before);
    expect(await server.app.db.selectFrom('booking_moves').selectAll().execute()).toEqual([]);
    expect(await server.app.db.selectFrom('outbox').select('id').execute()).toEqual(outbox);
  });
});
