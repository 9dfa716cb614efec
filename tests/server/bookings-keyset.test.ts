import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../server/db/schema.ts';
import { startAccountApp, type AccountApp, type ErrorBody, type Schemas } from './support/accounts.ts';
import { DATABASE_TARGETS } from './support/databases.ts';
import { createBranch, createUser, insertBooking, insertSlot } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// Issue 33: the console's bookings search pages by cursor (a place in the list: start, then id, newest first)
// rather than by rows skipped, and counts the bookings it finds up to 1000. Walked forward and back, every page
// of every filter gives each booking once and in order, bookings of one slot (a live one beside cancelled and
// lapsed holds) included; a booking made while paging shifts nothing; a cursor that is not one is refused with
// its reason; staff stay on their branches whatever cursor they send.

type Page = Schemas['AdminBookingPage'];
type Made = { id: number; branch: number; zone: string; start: string; status: BookingStatus; email: string };

let counter = 0;
const unique = (role: string) => `${role}-${Date.now()}-${(counter += 1)}@gym.example`;
const cursorOf = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
/** Newest start first, then the highest id: the list's order. */
const byPlace = (a: Made, b: Made) => b.start.localeCompare(a.start) || b.id - a.id;
const localDate = (made: Made) =>
  Temporal.Instant.from(made.start).toZonedDateTimeISO(made.zone).toPlainDate().toString();

describe.each(DATABASE_TARGETS)('bookings search by cursor on %s', (target) => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let staff: Awaited<ReturnType<typeof loggedInOperator>>;
  let lisbon: number;
  let newYork: number;
  let seriesId: number;
  const made: Made[] = [];
  const ana = unique('ana');
  const bruno = unique('bruno');

  const get = (query: string, token = owner.token) => owner.client.get(`/api/admin/bookings?${query}`, token);
  async function pageOf(query: string, token = owner.token): Promise<Page> {
    const response = await get(query, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  }
  const and = (filters: string, more: string) => [filters, more].filter(Boolean).join('&');

  /** Every page from the first, following `next`; then from the last back, following `previous`. */
  async function walk(filters: string, pageSize: number, token = owner.token) {
    const forward: Page[] = [await pageOf(and(filters, `page_size=${pageSize}`), token)];
    while (forward.at(-1)!.next !== null) {
      const next = forward.at(-1)!.next!;
      forward.push(await pageOf(and(filters, `page_size=${pageSize}&after=${next}`), token));
    }
    const backward: Page[] = [forward.at(-1)!];
    while (backward.at(-1)!.previous !== null) {
      const previous = backward.at(-1)!.previous!;
      backward.push(await pageOf(and(filters, `page_size=${pageSize}&before=${previous}`), token));
    }
    return { forward, backward };
  }
  const ids = (pages: Page[]) => pages.flatMap((page) => page.items.map((booking) => booking.id));

  async function book(
    branch: number,
    zone: string,
    start: string,
    statuses: BookingStatus[],
    emails: string[],
    options: { series?: number } = {},
  ) {
    const end = Temporal.Instant.from(start).add({ hours: 1 }).toString();
    const existing = await server.app.db
      .selectFrom('slots')
      .select('id')
      .where('branch_id', '=', branch)
      .where('start_time', '=', new Date(start))
      .executeTakeFirst();
    const slotId =
      existing?.id ??
      (await insertSlot(server.app.db, {
        branchId: branch,
        start,
        end,
        localDate: Temporal.Instant.from(start).toZonedDateTimeISO(zone).toPlainDate().toString(),
      }));
    const added: Made[] = [];
    for (const [index, status] of statuses.entries()) {
      const email = emails[index % emails.length]!;
      const userId = (await server.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst())!.id;
      const id = await insertBooking(server.app.db, {
        slotId,
        status,
        userId,
        ...(status === 'pending' ? { holdExpiresAt: new Date('2026-03-20T10:00:00Z') } : {}),
      });
      if (options.series !== undefined) {
        await server.app.db
          .updateTable('bookings')
          .set({ series_id: options.series })
          .where('id', '=', id)
          .execute();
      }
      added.push({ id, branch, zone, start, status, email });
    }
    made.push(...added);
    return added;
  }

  beforeAll(async () => {
    server = await startAccountApp(target);
    owner = await loggedInOperator(server.app, server.clock, unique('owner'), 'owner');
    server.clock.advance({ seconds: 30 });
    staff = await loggedInOperator(server.app, server.clock, unique('staff'), 'staff');
    lisbon = await createBranch(server.app.db, { name: 'Lisboa' });
    newYork = await createBranch(server.app.db, { name: 'Nova Iorque', timeZone: 'America/New_York' });
    await createUser(server.app.db, { email: ana });
    await createUser(server.app.db, { email: bruno });
    ({ id: seriesId } = await server.app.db
      .insertInto('booking_series')
      .values({ branch_id: lisbon, iso_weekday: 3, local_time: '10:00' })
      .returning('id')
      .executeTakeFirstOrThrow());
    // Slots with several bookings each (the live one, if any, beside cancelled and lapsed holds): ties on the
    // start that pages of four cut through.
    await book(lisbon, 'Europe/Lisbon', '2026-04-01T09:00:00Z', ['canceled', 'expired', 'confirmed'], [ana], {
      series: seriesId,
    });
    await book(
      lisbon,
      'Europe/Lisbon',
      '2026-04-08T09:00:00Z',
      ['canceled', 'canceled', 'pending'],
      [ana, bruno],
      {
        series: seriesId,
      },
    );
    await book(
      lisbon,
      'Europe/Lisbon',
      '2026-04-02T10:00:00Z',
      ['canceled', 'canceled', 'canceled', 'canceled', 'canceled', 'confirmed'],
      [bruno, ana],
    );
    await book(lisbon, 'Europe/Lisbon', '2026-03-31T23:30:00Z', ['confirmed'], [bruno]);
    await book(lisbon, 'Europe/Lisbon', '2026-03-25T18:00:00Z', ['expired', 'canceled'], [ana]);
    // 22:00 and 23:00 in New York on the 1st of April are the 2nd in UTC.
    await book(newYork, 'America/New_York', '2026-04-02T02:00:00Z', ['canceled', 'confirmed'], [ana, bruno]);
    await book(newYork, 'America/New_York', '2026-04-02T03:00:00Z', ['confirmed'], [bruno]);
    await book(
      newYork,
      'America/New_York',
      '2026-04-02T10:00:00Z',
      ['canceled', 'canceled', 'canceled', 'confirmed'],
      [ana],
    );
    const staffId = (
      await server.app.db
        .selectFrom('operators')
        .select('id')
        .where('email', '=', staff.email)
        .executeTakeFirstOrThrow()
    ).id;
    const limited = await owner.client.json(
      'PUT',
      `/api/admin/operators/${staffId}/branches`,
      { branch_ids: [newYork] },
      owner.token,
    );
    expect(limited.statusCode, limited.body).toBe(200);
  });
  afterAll(async () => server?.close());

  it('walks every filter forward and back with each booking once, in order, ties on a start included', async () => {
    const filters: [string, (booking: Made) => boolean][] = [
      ['', () => true],
      [`branch_id=${lisbon}`, (booking) => booking.branch === lisbon],
      ['status=canceled', (booking) => booking.status === 'canceled'],
      ['status=expired', (booking) => booking.status === 'expired' || booking.status === 'pending'],
      [`q=${encodeURIComponent(ana.slice(0, 12))}`, (booking) => booking.email === ana],
      [
        `series_id=${seriesId}`,
        (booking) => booking.start.startsWith('2026-04-01') || booking.start.startsWith('2026-04-08'),
      ],
      // Local days: New York's evening of the 1st is the 2nd in UTC, and counts as the 1st.
      ['from=2026-04-01&to=2026-04-01', (booking) => localDate(booking) === '2026-04-01'],
      [
        `from=2026-04-02&branch_id=${newYork}`,
        (booking) => booking.branch === newYork && localDate(booking) >= '2026-04-02',
      ],
    ];
    for (const [query, keeps] of filters) {
      const expected = made
        .filter(keeps)
        .sort(byPlace)
        .map((booking) => booking.id);
      expect(expected.length, query).toBeGreaterThan(0);
      for (const pageSize of query === '' ? [1, 4, 50] : [4, 50]) {
        const { forward, backward } = await walk(query, pageSize);
        expect(ids(forward), `${query} by ${pageSize}`).toEqual(expected);
        // Back from the last page: the same pages, met in the other order.
        expect(backward.map((page) => page.items.map((booking) => booking.id))).toEqual(
          forward.map((page) => page.items.map((booking) => booking.id)).reverse(),
        );
        for (const page of forward) {
          expect(page.items.length).toBeLessThanOrEqual(pageSize);
          expect([page.total, page.total_capped, page.page_size]).toEqual([expected.length, false, pageSize]);
        }
        expect(forward[0]!.previous).toBeNull();
        expect(forward.at(-1)!.next).toBeNull();
        expect(forward.length).toBe(Math.max(1, Math.ceil(expected.length / pageSize)));
      }
    }
  });

  it('keeps its place when bookings are made while paging: nothing shifts, nothing comes twice', async () => {
    const query = `branch_id=${lisbon}&page_size=4`;
    const before = made.filter((booking) => booking.branch === lisbon).sort(byPlace);
    const first = await pageOf(query);
    const second = await pageOf(`${query}&after=${first.next}`);
    // The place reached is among the six bookings of the 2nd of April's slot, cut by the second page.
    const seenSlot = '2026-04-02T10:00:00Z';
    const ofSeenSlot = before.filter((booking) => booking.start === seenSlot).map((booking) => booking.id);
    expect(second.items.at(-1)!.id).toBe(ofSeenSlot[4]);
    // Made now: one newer than every booking, one on that slot (its new id puts it first of the slot's bookings,
    // so before the place reached), one older than every booking.
    const [newest] = await book(lisbon, 'Europe/Lisbon', '2026-05-01T09:00:00Z', ['confirmed'], [ana]);
    const [onSeenSlot] = await book(lisbon, 'Europe/Lisbon', seenSlot, ['canceled'], [bruno]);
    const [oldest] = await book(lisbon, 'Europe/Lisbon', '2026-03-01T09:00:00Z', ['canceled'], [ana]);

    const rest: Page[] = [second];
    while (rest.at(-1)!.next !== null) rest.push(await pageOf(`${query}&after=${rest.at(-1)!.next}`));
    const read = [...first.items, ...rest.flatMap((page) => page.items)].map((booking) => booking.id);
    // Every booking there was, once, in order; of those made since, only the one past the place reached.
    expect(read).toEqual([...before.map((booking) => booking.id), oldest!.id]);
    expect(new Set(read).size).toBe(read.length);
    expect(read).not.toContain(newest!.id);

    // Back from the end, the newer ones are met too, each once.
    const back: Page[] = [rest.at(-1)!];
    while (back.at(-1)!.previous !== null)
      back.push(await pageOf(`${query}&before=${back.at(-1)!.previous}`));
    const now = made
      .filter((booking) => booking.branch === lisbon)
      .sort(byPlace)
      .map((booking) => booking.id);
    expect(back.reverse().flatMap((page) => page.items.map((booking) => booking.id))).toEqual(now);
    expect(now).toContain(newest!.id);
    expect(now).toContain(onSeenSlot!.id);
  });

  it('refuses a cursor that is not one, with its reason, and never answers 500', async () => {
    const valid = (await pageOf('page_size=1')).next!;
    const refused: [string, string][] = [
      [`after=${valid}&before=${valid}`, 'before'],
      ['after=not%20base64', 'after'],
      ['before=%2B%2F%3D', 'before'],
      [`after=${'A'.repeat(65)}`, 'after'],
      [`after=${cursorOf('hello')}`, 'after'],
      [`after=${valid}A`, 'after'],
      [`before=${cursorOf('2026-02-30T10:00:00.000000Z_5')}`, 'before'],
      [`after=${cursorOf('2026-03-20T25:00:00.000000Z_5')}`, 'after'],
      [`after=${cursorOf('1999-12-31T10:00:00.000000Z_5')}`, 'after'],
      [`after=${cursorOf('2026-03-20T10:00:00.000000Z_0')}`, 'after'],
      [`after=${cursorOf('2026-03-20T10:00:00.000000Z_2147483648')}`, 'after'],
      [`after=${cursorOf('2026-03-20T10:00:00.000000Z_007')}`, 'after'],
      [`after=${cursorOf('2026-03-20T10:00:00Z_5')}`, 'after'],
      [`after=${cursorOf('2026-03-20T10:00:00.000000Z_5')}=`, 'after'],
    ];
    for (const [query, field] of refused) {
      const response = await get(query);
      const body = response.json<ErrorBody>();
      expect([query, response.statusCode, body.code], body.detail).toEqual([query, 422, 'validation_failed']);
      expect(body.fields?.map((problem) => problem.field)).toEqual([field]);
      expect(body.detail).toContain(field);
    }
    // Any place that exists is a fair question, even one no booking holds.
    const between = await pageOf(`after=${cursorOf('2026-04-02T00:00:00.000000Z_1')}`);
    expect(between.items.map((booking) => booking.id)).toEqual(
      made
        .filter((booking) => booking.start < '2026-04-02T00:00:00Z')
        .sort(byPlace)
        .map((booking) => booking.id),
    );
    // Past the end: nothing, and the way back.
    const past = await pageOf(`after=${cursorOf('2000-01-01T00:00:00.000000Z_1')}`);
    expect([past.items, past.next, past.previous]).toEqual([
      [],
      null,
      cursorOf('2000-01-01T00:00:00.000000Z_1'),
    ]);
    const back = await pageOf(`page_size=2&before=${past.previous}`);
    expect(back.items.map((booking) => booking.id)).toEqual(
      [...made]
        .sort(byPlace)
        .slice(-2)
        .map((booking) => booking.id),
    );
  });

  it("keeps staff to their branches on every page, whatever cursor they send, and refuses another's", async () => {
    const theirs = made
      .filter((booking) => booking.branch === newYork)
      .sort(byPlace)
      .map((booking) => booking.id);
    const { forward, backward } = await walk('', 2, staff.token);
    expect(ids(forward)).toEqual(theirs);
    expect(ids(backward.reverse())).toEqual(theirs);
    // A cursor read on the owner's list (a Lisbon booking's place) still answers only New York's.
    const ownerPage = await pageOf(`branch_id=${lisbon}&page_size=1`);
    const elsewhere = await pageOf(`after=${ownerPage.next}`, staff.token);
    expect(elsewhere.items.every((booking) => booking.branch.id === newYork)).toBe(true);
    const refused = await get(`branch_id=${lisbon}&after=${ownerPage.next}`, staff.token);
    expect([refused.statusCode, refused.json<ErrorBody>().code]).toEqual([403, 'branch_forbidden']);
  });

  it('counts up to 1000 bookings and says "more" past that, reading no further', async () => {
    const crowded = await createBranch(server.app.db, { name: 'Cheia' });
    const slot = await insertSlot(server.app.db, {
      branchId: crowded,
      start: '2026-04-10T09:00:00Z',
      end: '2026-04-10T10:00:00Z',
      localDate: '2026-04-10',
    });
    const cancelled = (count: number) =>
      sql`insert into bookings (slot_id, branch_id, start_time, end_time, status, base_price_cents,
          final_price_cents, refund_ratios, canceled_at)
        select slot.id, slot.branch_id, slot.start_time, slot.end_time, 'canceled', 1500, 1500, '{"0": 0}'::jsonb,
          now()
        from slots as slot, generate_series(1, ${count}::int) where slot.id = ${slot}::int`.execute(
        server.app.db,
      );
    await cancelled(999);
    expect(await counted(`branch_id=${crowded}`)).toEqual([999, false]);
    await cancelled(1);
    expect(await counted(`branch_id=${crowded}`)).toEqual([1000, false]);
    await cancelled(1);
    expect(await counted(`branch_id=${crowded}`)).toEqual([1000, true]);
    expect(await counted('')).toEqual([1000, true]);
    // Deep in the list, the count is the same, and the slot's 1001 bookings come in 11 pages of 100.
    const { forward } = await walk(`branch_id=${crowded}&status=canceled`, 100);
    expect(forward.length).toBe(11);
    expect(new Set(ids(forward)).size).toBe(1001);
    expect(forward.map((page) => [page.total, page.total_capped])).toEqual(Array(11).fill([1000, true]));
    expect(await counted(`branch_id=${crowded}&status=confirmed`)).toEqual([0, false]);
  });

  async function counted(query: string): Promise<[number, boolean]> {
    const page = await pageOf(query);
    return [page.total, page.total_capped];
  }
});
