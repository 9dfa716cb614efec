import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../server/kernel/clock.ts';
import { lisbonSlot } from './bookings-fixtures.ts';
import {
  bookAndPayOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
  type Schemas,
} from './support/accounts.ts';
import { createBranch, slotsGeneratedUntil } from './support/fixtures.ts';

// Issue 30, item 4: "Book again" finds the same branch and local time on the nearest week after the booking that
// is not past and has that slot free, for the normal booking flow to open on. Nothing is held.

describe('book again (pglite)', () => {
  let started: AccountApp;
  const clock = fixedClock('2026-03-20T10:30:00Z');
  let branchId: number;

  beforeAll(async () => {
    started = await startAccountApp('pglite', {}, clock);
  });
  afterAll(() => started?.close());

  beforeEach(async () => {
    clock.set('2026-03-20T10:30:00Z');
    branchId = await createBranch(started.app.db);
    // The slots below stand for the generated ones: generated through the end of April.
    await slotsGeneratedUntil(started.app.db, branchId, '2026-04-30');
  });

  const again = (caller: ReturnType<typeof newClient>, token: string, bookingId: number) =>
    caller.get(`/api/bookings/${bookingId}/again`, token);

  async function member() {
    const caller = newClient(started.app);
    const account = await verifiedAccount(caller, started.app);
    return { caller, token: account.token, email: account.email, password: account.password };
  }

  async function bookingIdOf(caller: ReturnType<typeof newClient>, token: string, slotId: number) {
    const mine = (await caller.get('/api/bookings/my-bookings', token)).json<Schemas['Booking'][]>();
    const slots = await started.app.db.selectFrom('bookings').select(['id', 'slot_id']).execute();
    const ids = new Set(mine.map((booking) => booking.id));
    return slots.find((row) => row.slot_id === slotId && ids.has(row.id))!.id;
  }

  it('answers the next week’s slot at the same local time, across the change to summer time, skipping a taken week', async () => {
    const ana = await member();
    // Monday 23 March, 10:00 in Lisbon (UTC+0); the 30th is in summer time (UTC+1), still 10:00 there.
    const first = await lisbonSlot(started.app.db, branchId, '2026-03-23T10:00');
    const nextWeek = await lisbonSlot(started.app.db, branchId, '2026-03-30T10:00');
    await lisbonSlot(started.app.db, branchId, '2026-03-30T11:00');
    const inTwoWeeks = await lisbonSlot(started.app.db, branchId, '2026-04-06T10:00');
    await bookAndPayOverHttp(ana.caller, ana.token, first);
    const booking = await bookingIdOf(ana.caller, ana.token, first);

    const answer = await again(ana.caller, ana.token, booking);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      branch_id: branchId,
      date: '2026-03-30',
      time_slot_id: nextWeek,
      start_time: '2026-03-30T10:00:00+01:00',
    });

    // Someone else takes the 30th: the week after is answered.
    const rui = await member();
    await bookAndPayOverHttp(rui.caller, rui.token, nextWeek);
    expect((await again(ana.caller, ana.token, booking)).json()).toMatchObject({
      date: '2026-04-06',
      time_slot_id: inTwoWeeks,
    });

    // Weeks later, the booking long past: the first week not before today (signed in again, days later).
    clock.set('2026-04-05T12:00:00Z');
    const login = await ana.caller.login(ana.email, ana.password);
    const token = login.json<{ access_token: string }>().access_token;
    expect((await again(ana.caller, token, booking)).json()).toMatchObject({ date: '2026-04-06' });
    clock.set('2026-04-06T12:00:00Z');
    const none = await again(ana.caller, token, booking);
    expect(none.statusCode).toBe(404);
    expect(none.json<ErrorBody>()).toMatchObject({ code: 'no_free_week' });
    expect(none.json<ErrorBody>().detail).toBe(
      'Este horário não está livre em nenhuma das próximas semanas. Escolha outro no calendário.',
    );

    // Nothing was held by asking.
    expect(
      await started.app.db.selectFrom('bookings').select('id').where('slot_id', '=', inTwoWeeks).execute(),
    ).toEqual([]);
  });

  it('refuses another member’s booking, and a branch that takes no bookings', async () => {
    const ana = await member();
    const slot = await lisbonSlot(started.app.db, branchId, '2026-03-23T10:00');
    await lisbonSlot(started.app.db, branchId, '2026-03-30T10:00');
    await bookAndPayOverHttp(ana.caller, ana.token, slot);
    const booking = await bookingIdOf(ana.caller, ana.token, slot);

    const rui = await member();
    const foreign = await again(rui.caller, rui.token, booking);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<ErrorBody>().code).toBe('booking_not_found');
    expect((await again(rui.caller, '', booking)).statusCode).toBe(401);

    await started.app.db
      .updateTable('branches')
      .set({ active_with_smart_lock: false })
      .where('id', '=', branchId)
      .execute();
    const closed = await again(ana.caller, ana.token, booking);
    expect(closed.statusCode).toBe(409);
    expect(closed.json<ErrorBody>().code).toBe('branch_not_bookable');
  });
});
