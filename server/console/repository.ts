import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import { pageWithTotal, type Db } from '../db/database.ts';
import { bookingsWithBranchAndClient } from '../booking/index.ts';
export { anySlotClosed } from '../booking/index.ts';
import type {
  BookingStatus,
  Database,
  LedgerActorType,
  LedgerEntryKind,
  LedgerPurpose,
} from '../db/schema.ts';

// The console's reads: bookings with their member, branch, money and doors; members; closures; money and use.

/** `%` and `_` typed by an operator are letters, not wildcards. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function bookingColumns(query: ReturnType<typeof bookingsWithBranchAndClient>) {
  return query.leftJoin('coupons as coupon', 'coupon.id', 'booking.coupon_id').select([
    'booking.id',
    'booking.status',
    'booking.hold_expires_at',
    'booking.start_time',
    'booking.end_time',
    'booking.created_at',
    'booking.final_price_cents',
    'booking.base_price_cents',
    'booking.credit_cents',
    'booking.paid_at',
    'booking.canceled_at',
    'booking.canceled_by',
    'booking.checkout_session_id',
    'booking.lock_code_id',
    'booking.access_code_sent_at',
    'booking.checked_in_at',
    'booking.no_show_at',
    'booking.overstay_at',
    'booking.refund_ratios',
    'booking.slot_id',
    'booking.branch_id',
    'branch.name as branch_name',
    'branch.time_zone',
    'user.id as member_id',
    'user.email',
    'user.phone_number',
    'user.first_name',
    'user.last_name',
    'user.locale',
    'user.deleted_at',
    'coupon.code as coupon_code',
    'booking.series_id',
    // The booking's place in its weekly series, by start (the index on series_id finds the few weeks).
    sql<
      number | null
    >`case when booking.series_id is null then null else (select count(*)::int from bookings as week
        where week.series_id = booking.series_id
          and (week.start_time, week.id) <= (booking.start_time, booking.id)) end`.as('series_week'),
    sql<
      number | null
    >`case when booking.series_id is null then null else (select count(*)::int from bookings as week
        where week.series_id = booking.series_id) end`.as('series_weeks'),
    sql<boolean>`exists (select 1 from blocked_contacts as block
        where (block.kind = 'email' and block.value = "user".email)
           or (block.kind = 'phone' and block.value = "user".phone_number))`.as('blocked'),
  ]);
}

export type AdminBookingRow = Awaited<ReturnType<ReturnType<typeof bookingColumns>['execute']>>[number];

export type BookingSearch = {
  q?: string;
  /** The branches searched; undefined for every branch. */
  branchIds?: readonly number[];
  from?: string;
  to?: string;
  status?: BookingStatus;
  memberId?: string;
  seriesId?: number;
  bookingIds?: readonly number[];
  now: Date;
};

/**
 * A place in the bookings list (newest start first): a booking's start, as exact text (UTC, to the microsecond,
 * as `positionOf` writes it), and its id, which orders the bookings of one start.
 */
export type BookingPosition = { startTime: string; id: number };

/**
 * Which bookings of a search: the first `limit` of the list, or the `limit` just after a place (older) or just
 * before it (newer).
 */
export type BookingWindow = { limit: number; after?: BookingPosition; before?: BookingPosition };

/** Bookings the console lists: a dearer move's hold is part of that move, not a booking of its own. */
function listedBookings(db: Db) {
  return bookingsWithBranchAndClient(db).where((eb) =>
    eb.not(
      eb.exists(eb.selectFrom('booking_moves').select('id').whereRef('hold_booking_id', '=', 'booking.id')),
    ),
  );
}

function applySearch(query: ReturnType<typeof listedBookings>, search: BookingSearch) {
  let scoped = query;
  if (search.q !== undefined) {
    const pattern = containing(search.q.trim());
    scoped = scoped.where((eb) =>
      eb.or([
        eb('user.email', 'ilike', pattern),
        eb('user.phone_number', 'ilike', pattern),
        eb(sql<string>`"user".first_name || ' ' || "user".last_name`, 'ilike', pattern),
      ]),
    );
  }
  // One branch as an equality, so the index (branch_id, start_time) gives its bookings already in order.
  if (search.branchIds?.length === 1) scoped = scoped.where('booking.branch_id', '=', search.branchIds[0]!);
  else if (search.branchIds !== undefined)
    scoped = scoped.where('booking.branch_id', 'in', [...search.branchIds, 0]);
  if (search.memberId !== undefined) scoped = scoped.where('booking.user_id', '=', search.memberId);
  if (search.seriesId !== undefined) scoped = scoped.where('booking.series_id', '=', search.seriesId);
  if (search.bookingIds !== undefined) scoped = scoped.where('booking.id', 'in', [...search.bookingIds, 0]);
  const localDate = sql<string>`(booking.start_time at time zone branch.time_zone)::date`;
  // The exact test on the branch's local date, and beside it a range of instants a day wider each side that the
  // time indexes can read.
  if (search.from !== undefined) {
    scoped = scoped
      .where(localDate, '>=', sql<string>`${search.from}::date`)
      .where('booking.start_time', '>=', sql<Date>`${utcDayBefore(search.from)}`);
  }
  if (search.to !== undefined) {
    scoped = scoped
      .where(localDate, '<=', sql<string>`${search.to}::date`)
      .where('booking.start_time', '<', sql<Date>`${utcTwoDaysAfter(search.to)}`);
  }
  if (search.status === 'expired') {
    scoped = scoped.where((eb) =>
      eb.or([
        eb('booking.status', '=', 'expired'),
        eb.and([eb('booking.status', '=', 'pending'), eb('booking.hold_expires_at', '<=', search.now)]),
      ]),
    );
  } else if (search.status === 'pending') {
    scoped = scoped.where('booking.status', '=', 'pending').where('booking.hold_expires_at', '>', search.now);
  } else if (search.status !== undefined) {
    scoped = scoped.where('booking.status', '=', search.status);
  }
  return scoped;
}

/**
 * An instant as exact text, UTC to the microsecond as PostgreSQL keeps it: a place in a keyset that compares as the
 * row does (a JavaScript Date keeps milliseconds, and would fall before its own row).
 */
const exactInstant = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A booking's start as exact text: a place in the list that compares as the row does. */
const positionOf = exactInstant('booking.start_time');

/** Rows before (`<`, older) or after (`>`, newer) a place, on the order (start_time, id) the index keeps. */
const beyond = (position: BookingPosition, side: '<' | '>') =>
  sql<boolean>`(booking.start_time, booking.id) ${sql.raw(side)} (${position.startTime}::timestamptz, ${position.id}::int)`;

/**
 * A window of the bookings a search finds, newest start first, each with its place in the list; `more` tells
 * whether the list goes on past the window in the direction it was read (older for the first window or one
 * `after` a place, newer for one `before`). Read as a range of the index (start_time, id) from the place, not by
 * skipping rows: a window deep in the list costs what the first one does.
 */
export async function searchBookings(db: Db, search: BookingSearch, window: BookingWindow) {
  let scoped = applySearch(listedBookings(db), search);
  if (window.after) scoped = scoped.where(beyond(window.after, '<'));
  if (window.before) scoped = scoped.where(beyond(window.before, '>'));
  const direction = window.before ? 'asc' : 'desc';
  const found = await bookingColumns(scoped)
    .select(positionOf.as('position'))
    .orderBy('booking.start_time', direction)
    .orderBy('booking.id', direction)
    .limit(window.limit + 1)
    .execute();
  const rows = found.slice(0, window.limit);
  return { rows: window.before ? rows.reverse() : rows, more: found.length > window.limit };
}

/**
 * Whether a search finds a booking older (`<`) or newer (`>`) than a place in its list: the nearest one, so the
 * index is read from the place outwards.
 */
export async function hasBookingsBeyond(
  db: Db,
  search: BookingSearch,
  position: BookingPosition,
  side: '<' | '>',
): Promise<boolean> {
  const outwards = side === '<' ? 'desc' : 'asc';
  const found = await applySearch(listedBookings(db), search)
    .where(beyond(position, side))
    .select('booking.id')
    .orderBy('booking.start_time', outwards)
    .orderBy('booking.id', outwards)
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/**
 * How many bookings a search finds, counted up to `limit + 1` and no further: past `limit`, the answer only says
 * there are more, so a search that finds a million bookings reads `limit + 1` of them rather than all.
 */
export async function countBookings(db: Db, search: BookingSearch, limit: number): Promise<number> {
  const counted = await db
    .selectFrom(
      applySearch(listedBookings(db), search)
        .select(sql<number>`1`.as('one'))
        .limit(limit + 1)
        .as('found'),
    )
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(counted.total);
}

export async function findAdminBooking(db: Db, bookingId: number): Promise<AdminBookingRow | undefined> {
  return bookingColumns(bookingsWithBranchAndClient(db))
    .where('booking.id', '=', bookingId)
    .executeTakeFirst();
}

/**
 * A branch's slots starting on a local day, by start, each with whether a live booking (confirmed, or a hold not
 * expired at `now`) takes it and whether a closure in force covers it: where a booking could move.
 */
export async function slotsOfDayForMove(db: Db, branchId: number, localDate: string, now: Date) {
  return db
    .selectFrom('slots as slot')
    .select((eb) => [
      'slot.id',
      'slot.start_time',
      'slot.end_time',
      'slot.price_cents',
      eb
        .exists(
          eb
            .selectFrom('bookings as live')
            .select('live.id')
            .whereRef('live.slot_id', '=', 'slot.id')
            .where((live) =>
              live.or([
                live('live.status', '=', 'confirmed'),
                live.and([live('live.status', '=', 'pending'), live('live.hold_expires_at', '>', now)]),
              ]),
            ),
        )
        .$castTo<boolean>()
        .as('taken'),
      eb
        .exists(
          eb
            .selectFrom('branch_closures as closure')
            .select('closure.id')
            .whereRef('closure.branch_id', '=', 'slot.branch_id')
            .where('closure.reopened_at', 'is', null)
            .whereRef('closure.starts_at', '<', 'slot.end_time')
            .whereRef('closure.ends_at', '>', 'slot.start_time'),
        )
        .$castTo<boolean>()
        .as('closed'),
    ])
    .where('slot.branch_id', '=', branchId)
    .where('slot.local_date', '=', localDate)
    .orderBy('slot.start_time')
    .execute();
}

/**
 * A branch's bookings whose start falls on a local day. The day is the range of instants from its local midnight
 * to the next one in the branch's zone, so the index on (branch_id, start_time) finds it rather than every booking
 * of the branch being converted and compared.
 */
function onLocalDay<T extends ReturnType<typeof listedBookings>>(
  query: T,
  branchId: number,
  localDate: string,
) {
  const zone = sql`(select zone.time_zone from branches as zone where zone.id = ${branchId}::int)`;
  return query
    .where('booking.branch_id', '=', branchId)
    .where('booking.start_time', '>=', sql<Date>`(${localDate}::date)::timestamp at time zone ${zone}`)
    .where(
      'booking.start_time',
      '<',
      sql<Date>`(${localDate}::date + 1)::timestamp at time zone ${zone}`,
    ) as T;
}

/**
 * The live bookings of a branch's local day, by start: confirmed ones and holds still being paid (moves' holds
 * left out). Cancelled ones are counted (`canceledOnLocalDay`), not listed: a day of a busy branch can hold
 * hundreds, and the day's view is of who comes.
 */
export async function bookingsOfLocalDay(db: Db, branchId: number, localDate: string, now: Date) {
  return bookingColumns(onLocalDay(listedBookings(db), branchId, localDate))
    .where((eb) =>
      eb.or([
        eb('booking.status', '=', 'confirmed'),
        eb.and([eb('booking.status', '=', 'pending'), eb('booking.hold_expires_at', '>', now)]),
      ]),
    )
    .orderBy('booking.start_time')
    .execute();
}

/** How many of a branch's bookings of a local day were cancelled (moves' holds left out). */
export async function canceledOnLocalDay(db: Db, branchId: number, localDate: string): Promise<number> {
  const row = await onLocalDay(listedBookings(db), branchId, localDate)
    .where('booking.status', '=', 'canceled')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export function closureColumns(db: Db) {
  return db
    .selectFrom('branch_closures as closure')
    .innerJoin('branches as branch', 'branch.id', 'closure.branch_id')
    .select([
      'closure.id',
      'closure.branch_id',
      'closure.starts_at',
      'closure.ends_at',
      'closure.reason',
      'closure.created_at',
      'closure.created_by_email',
      'closure.reopened_at',
      'closure.canceled_booking_ids',
      'branch.name as branch_name',
      'branch.time_zone',
    ]);
}

export type ClosureRow = Awaited<ReturnType<ReturnType<typeof closureColumns>['execute']>>[number];

export type MemberSearch = { q?: string; offset: number; limit: number };

function memberColumns(db: Db) {
  return db.selectFrom('users as user').select([
    'user.id',
    'user.email',
    'user.phone_number',
    'user.first_name',
    'user.last_name',
    'user.locale',
    'user.email_verified_at',
    'user.phone_verified_at',
    'user.created_at',
    'user.deleted_at',
    sql<number>`(select count(*)::int from bookings where bookings.user_id = "user".id)`.as('bookings_count'),
    sql<boolean>`exists (select 1 from blocked_contacts as block
        where (block.kind = 'email' and block.value = "user".email)
           or (block.kind = 'phone' and block.value = "user".phone_number))`.as('blocked'),
  ]);
}

export type MemberRow = Awaited<ReturnType<ReturnType<typeof memberColumns>['execute']>>[number];

export async function searchMembers(db: Db, search: MemberSearch) {
  const where = (eb: ExpressionBuilder<Database & { user: Database['users'] }, 'user'>) => {
    const live = eb('user.deleted_at', 'is', null);
    if (search.q === undefined) return live;
    const pattern = containing(search.q.trim());
    return eb.and([
      live,
      eb.or([
        eb('user.email', 'ilike', pattern),
        eb('user.phone_number', 'ilike', pattern),
        eb(sql<string>`"user".first_name || ' ' || "user".last_name`, 'ilike', pattern),
      ]),
    ]);
  };
  return pageWithTotal(
    memberColumns(db).where(where).orderBy('user.created_at', 'desc'),
    db.selectFrom('users as user').where(where),
    search,
  );
}

export async function findMember(db: Db, memberId: string): Promise<MemberRow | undefined> {
  return memberColumns(db).where('user.id', '=', memberId).executeTakeFirst();
}

/** The e-mail (or phone) of each member among `ids` still on record, for the audit log's words. */
export async function memberLabels(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const uuids = ids.filter((id) =>
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id),
  );
  if (uuids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'phone_number'])
    .where('id', 'in', uuids)
    .execute();
  return new Map(
    rows.flatMap((row) => {
      const label = row.email ?? row.phone_number;
      return label ? [[row.id, label] as const] : [];
    }),
  );
}

export async function membersWithContact(db: Db, kind: 'email' | 'phone', value: string) {
  return memberColumns(db)
    .where(kind === 'email' ? 'user.email' : 'user.phone_number', '=', value)
    .where('user.deleted_at', 'is', null)
    .execute();
}

// A branch's local day `d` lies within [d - 1 day, d + 2 days) in UTC whatever its zone (offsets are under 14 hours):
// these bounds, beside the exact test on the local date, let the index on occurred_at narrow a period's rows.
const utcDayBefore = (date: string) => sql`((${date}::date - 1)::timestamp at time zone 'UTC')`;
const utcTwoDaysAfter = (date: string) => sql`((${date}::date + 2)::timestamp at time zone 'UTC')`;

/**
 * The money ledger's rows (payments and refunds), newest first, each with its shares of bookings, its branch and
 * its member; filtered by branch, the branch-local days of a period, a member, or bookings it concerns.
 */
export async function moneyMovements(
  db: Db,
  filter: {
    branchId?: number;
    from?: string;
    to?: string;
    memberId?: string;
    bookingIds?: readonly number[];
  },
  page?: { offset: number; limit: number },
) {
  const params = {
    branch: filter.branchId ?? null,
    from: filter.from ?? null,
    to: filter.to ?? null,
    member: filter.memberId ?? null,
    bookings: filter.bookingIds ? [...filter.bookingIds] : null,
  };
  // Only the filters given, so the planner sees each one (a booking's rows are found from its shares, a period's
  // by the time index) rather than a test of a parameter's nullness it cannot plan around.
  const conditions = [sql`true`];
  if (params.branch !== null) conditions.push(sql`entry.branch_id = ${params.branch}::int`);
  if (params.member !== null) conditions.push(sql`entry.user_id = ${params.member}::uuid`);
  if (params.from !== null) {
    conditions.push(sql`(entry.occurred_at at time zone branch.time_zone)::date >= ${params.from}::date`);
    conditions.push(sql`entry.occurred_at >= ${utcDayBefore(params.from)}`);
  }
  if (params.to !== null) {
    conditions.push(sql`(entry.occurred_at at time zone branch.time_zone)::date <= ${params.to}::date`);
    conditions.push(sql`entry.occurred_at < ${utcTwoDaysAfter(params.to)}`);
  }
  if (params.bookings !== null) {
    conditions.push(sql`exists (select 1 from ledger_entry_bookings as share
      where share.entry_id = entry.id and share.booking_id = any(${params.bookings}::int[]))`);
  }
  const { rows } = await sql<{
    kind: LedgerEntryKind;
    id: string;
    entry_id: number;
    purpose: LedgerPurpose;
    shares: { booking_id: number; amount_cents: number }[];
    branch_id: number;
    branch_name: string;
    time_zone: string;
    member_id: string | null;
    amount_cents: number;
    at: Date;
    provider_reference: string | null;
    reason: string | null;
    actor_type: LedgerActorType;
    actor_id: string | null;
    actor_name: string | null;
  }>`
    select entry.kind, entry.kind || '-' || entry.id as id, entry.id as entry_id, entry.purpose,
      (select json_agg(json_build_object('booking_id', share.booking_id, 'amount_cents', share.amount_cents)
        order by share.booking_id) from ledger_entry_bookings as share where share.entry_id = entry.id) as shares,
      entry.branch_id, branch.name as branch_name, branch.time_zone, entry.user_id as member_id,
      entry.amount_cents, entry.occurred_at as at, entry.provider_reference, entry.reason,
      entry.actor_type, entry.actor_id, entry.actor_name
    from ledger_entries as entry join branches as branch on branch.id = entry.branch_id
    where ${sql.join(conditions, sql` and `)}
    order by entry.occurred_at desc, entry.id desc
    ${page === undefined ? sql`` : sql`offset ${page.offset} limit ${page.limit}`}`.execute(db);
  return rows;
}

/** How many payments and refunds the branch-local days `from`..`to` of one branch or every branch hold. */
export async function movementsCount(db: Db, filter: { branchId?: number; from: string; to: string }) {
  const { rows } = await sql<{ total: number }>`
    select coalesce(sum(total.payments_count + total.refunds_count), 0)::int as total
    from ledger_day_totals as total
    where total.local_date >= ${filter.from}::date and total.local_date <= ${filter.to}::date
      ${filter.branchId === undefined ? sql`` : sql`and total.branch_id = ${filter.branchId}::int`}`.execute(
    db,
  );
  return rows[0]?.total ?? 0;
}

export type MoneyMovementRow = Awaited<ReturnType<typeof moneyMovements>>[number];

/**
 * The money report's rows: per branch and period (a local day, the Monday of its ISO week, or the first of its
 * month) of the branch-local days `from`..`to`, the payments' and refunds' sums and counts. Every period of every
 * branch asked for is a row, one without money too (zeros): a chart or a spreadsheet of the days shows the days
 * nothing was sold, and the answer's size is the period's, whatever the history. Read from the ledger's sums per
 * day (ledger_day_totals, kept by the database with each ledger row), whatever the number of movements in a day.
 */
export async function moneyPerPeriod(
  db: Db,
  filter: { branchId?: number; from: string; to: string; granularity: 'day' | 'week' | 'month' },
) {
  const day = sql`day.local_date`;
  const period =
    filter.granularity === 'day' ? day : sql`date_trunc(${filter.granularity}, ${day}::timestamp)::date`;
  const { rows } = await sql<{
    period: string;
    branch_id: number;
    branch_name: string;
    time_zone: string;
    payments_cents: string | number;
    payments_count: number;
    refunds_cents: string | number;
    refunds_count: number;
  }>`
    select to_char(sums.period, 'YYYY-MM-DD') as period, branch.id as branch_id, branch.name as branch_name,
      branch.time_zone, sums.payments_cents, sums.payments_count, sums.refunds_cents, sums.refunds_count
    from (
      select ${period} as period, day.branch_id, coalesce(sum(total.payments_cents), 0) as payments_cents,
        coalesce(sum(total.payments_count), 0)::int as payments_count,
        coalesce(sum(total.refunds_cents), 0) as refunds_cents,
        coalesce(sum(total.refunds_count), 0)::int as refunds_count
      from (
        select generate_series(${filter.from}::date, ${filter.to}::date, interval '1 day')::date as local_date,
          branch.id as branch_id
        from branches as branch
        ${filter.branchId === undefined ? sql`` : sql`where branch.id = ${filter.branchId}::int`}
      ) as day
      -- The period's range on the sums' key as well: read from the index, not by a scan of every day since opening.
      left join ledger_day_totals as total on total.branch_id = day.branch_id and total.local_date = day.local_date
        and total.local_date between ${filter.from}::date and ${filter.to}::date
      group by 1, 2
    ) as sums
    join branches as branch on branch.id = sums.branch_id
    order by sums.period, branch.id`.execute(db);
  return rows.map((row) => ({
    ...row,
    payments_cents: Number(row.payments_cents),
    refunds_cents: Number(row.refunds_cents),
  }));
}

/** What the occupancy reports read: the branch-local days `from`..`to` of one branch or every branch. */
export type UseFilter = { branchId?: number; from: string; to: string };

/**
 * The slots of the period that count for occupancy, each with whether a confirmed booking holds it. A slot is an
 * open hour when the branch took bookings at its start (branch_bookable_periods: a branch not open yet counts
 * nothing) and no closure in force covers it; hours outside the branch's opening hours have no slot. A slot a
 * confirmed booking holds counts whatever the rest (a booking kept when the branch stopped taking new ones), so
 * the booked hours are always part of the open hours.
 */
function countedSlots(filter: UseFilter) {
  const branch = filter.branchId === undefined ? sql`true` : sql`slot.branch_id = ${filter.branchId}::int`;
  return sql`
    select slot.branch_id, slot.local_date, slot.start_time, slot.end_time, held.booked
    from slots as slot
    cross join lateral (select exists (select 1 from bookings as booking
      where booking.slot_id = slot.id and booking.status = 'confirmed') as booked) as held
    where ${branch} and slot.local_date between ${filter.from}::date and ${filter.to}::date
      and (held.booked or (
        exists (select 1 from branch_bookable_periods as period where period.branch_id = slot.branch_id
          and period.starts_at <= slot.start_time and (period.ends_at is null or period.ends_at > slot.start_time))
        and not exists (select 1 from branch_closures as closure where closure.branch_id = slot.branch_id
          and closure.reopened_at is null and closure.starts_at < slot.end_time and closure.ends_at > slot.start_time)))`;
}

/** Open and booked hours per branch and local day (the day a slot starts on), days without open hours left out. */
export async function occupancyPerDay(db: Db, filter: UseFilter) {
  const { rows } = await sql<{ branch_id: number; day: string; open_hours: number; booked_hours: number }>`
    select slot.branch_id, to_char(slot.local_date, 'YYYY-MM-DD') as day,
      sum(extract(epoch from slot.end_time - slot.start_time) / 3600)::float8 as open_hours,
      coalesce(sum(extract(epoch from slot.end_time - slot.start_time) / 3600) filter (where slot.booked), 0)::float8
        as booked_hours
    from (${countedSlots(filter)}) as slot
    group by 1, 2`.execute(db);
  return rows;
}

/**
 * Open and booked hours per branch, local ISO weekday (1 Monday) and local hour (0-23) over the period, for the
 * cells with open hours. Each slot is cut at the local hours it spans (a 90-minute slot is an hour in one cell and
 * half an hour in the next), in PostgreSQL's rules for the branch's zone, as the day of a payment is: the spring
 * change day has no 01:00 hour, the autumn one has two, so that cell holds two open hours that day.
 */
export async function occupancyPerWeekHour(db: Db, filter: UseFilter) {
  const overlap = sql`extract(epoch from least(slot.end_time, bucket.starts_at + interval '1 hour')
    - greatest(slot.start_time, bucket.starts_at)) / 3600`;
  const { rows } = await sql<{
    branch_id: number;
    weekday: number;
    hour: number;
    open_hours: number;
    booked_hours: number;
  }>`
    select slot.branch_id,
      extract(isodow from bucket.starts_at at time zone branch.time_zone)::int as weekday,
      extract(hour from bucket.starts_at at time zone branch.time_zone)::int as hour,
      sum(${overlap})::float8 as open_hours,
      coalesce(sum(${overlap}) filter (where slot.booked), 0)::float8 as booked_hours
    from (${countedSlots(filter)}) as slot
    join branches as branch on branch.id = slot.branch_id
    cross join lateral generate_series(date_trunc('hour', slot.start_time, branch.time_zone),
      slot.end_time - interval '1 microsecond', interval '1 hour') as bucket(starts_at)
    group by 1, 2, 3`.execute(db);
  return rows;
}

/** Outbox messages about one booking (confirmation, door code, cancellation), by their dedupe keys. */
/** The kinds of message the console lists on a booking's page (the contract's SentMessage kinds). */
const BOOKING_MESSAGE_KINDS = [
  'booking_confirmed',
  'access_code',
  'booking_canceled',
  'late_payment_refunded',
  'booking_moved',
  'booking_move_refunded',
] as const;

/**
 * The booking ids a dedupe key names, as text: migration 0023's index on outbox is on this very expression (the
 * pattern a literal, not a parameter, so the planner matches the two).
 */
const BOOKING_IDS_OF_KEY = sql<string[]>`string_to_array(substring(dedupe_key from ${sql.lit(
  '^[a-z_]+:(?:(?:email|sms):)?([0-9]+(?:,[0-9]+)*)',
)}), ',')`;

export async function messagesOfBooking(db: Db, bookingId: number) {
  const id = String(bookingId);
  return (
    db
      .selectFrom('outbox')
      .select(['id', 'kind', 'channel', 'recipient', 'subject', 'status', 'created_at', 'sent_at'])
      // Found by the index on the ids the keys name, then matched exactly by the keys' shapes below.
      .where(BOOKING_IDS_OF_KEY, '@>', sql<string[]>`array[${id}]::text[]`)
      .where(
        'dedupe_key',
        '~',
        `^((booking_confirmed|booking_canceled|late_payment_refunded):([0-9]+,)*${id}(,[0-9]+)*(:sms)?|access_code(_again)?:(email|sms):${id}:.*|booking_canceled:(email|sms):${id}|booking_move(d|_refunded):${id}:[0-9]+)$`,
      )
      .where('kind', 'in', BOOKING_MESSAGE_KINDS)
      .$narrowType<{ kind: (typeof BOOKING_MESSAGE_KINDS)[number] }>()
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  );
}

/** Tax documents by the Lisbon day they were recorded and/or one booking's, newest first, with their bookings. */
export async function searchDocuments(
  db: Db,
  filter: { from?: string; to?: string; bookingId?: number; offset: number; limit: number },
) {
  const params = {
    from: filter.from ?? null,
    to: filter.to ?? null,
    booking: filter.bookingId ?? null,
  };
  const where = sql`(${params.from}::date is null or (document.created_at at time zone 'Europe/Lisbon')::date >= ${params.from}::date)
      and (${params.to}::date is null or (document.created_at at time zone 'Europe/Lisbon')::date <= ${params.to}::date)
      and (${params.booking}::int is null or exists (select 1 from ledger_entry_bookings as share
        where share.entry_id = document.ledger_entry_id and share.booking_id = ${params.booking}::int))`;
  const { rows } = await sql<{
    id: number;
    kind: 'invoice_receipt' | 'simplified_invoice' | 'credit_note';
    status: 'pending' | 'issued' | 'refused';
    ledger_entry_id: number;
    booking_ids: number[] | null;
    user_id: string | null;
    number: string | null;
    atcud: string | null;
    buyer_name: string;
    buyer_tax_id: string | null;
    total_cents: number;
    vat_rate: string | number;
    vat_cents: number;
    created_at: Date;
    issued_at: Date | null;
    credited_document_id: number | null;
  }>`
    select document.id, document.kind, document.status, document.ledger_entry_id,
      (select json_agg(share.booking_id order by share.booking_id) from ledger_entry_bookings as share
        where share.entry_id = document.ledger_entry_id) as booking_ids,
      document.user_id, document.number, document.atcud, document.buyer_name, document.buyer_tax_id,
      document.total_cents, document.vat_rate, document.vat_cents, document.created_at, document.issued_at,
      document.credited_document_id
    from tax_documents as document
    where ${where}
    order by document.created_at desc, document.id desc
    offset ${filter.offset} limit ${filter.limit}`.execute(db);
  const { rows: count } = await sql<{ total: string | number }>`
    select count(*) as total from tax_documents as document where ${where}`.execute(db);
  return { rows, total: Number(count[0]?.total ?? 0) };
}

/**
 * A text cell of the ledger CSV, quoted as csvCell (./csv.ts) quotes it, worked out by PostgreSQL: what a
 * spreadsheet would run as a formula (a leading = + - @ tab or CR, not a number) gets a ' before it and quotes,
 * and a cell with a quote, a comma or a line end is quoted; null is empty. tests/server/money-ledger.test.ts holds
 * it to csvCell. The quote test looks for each character (strpos) rather than matching a regular expression: on a
 * year's export that was a third of PostgreSQL's time per batch (83 -> 56 ms a batch of 2,000 rows on the bench's large database).
 */
const csvTextCell = (value: RawBuilder<unknown>) => sql<string>`case
    when ${value} is null then ''
    when left(${value}, 1) in ('=', '+', '-', '@', chr(9), chr(13)) and ${value} !~ '^-?[0-9]+([.][0-9]+)?$'
      then '"''' || replace(${value}, '"', '""') || '"'
    when strpos(${value}, '"') + strpos(${value}, ',') + strpos(${value}, chr(10)) + strpos(${value}, chr(13)) > 0
      then '"' || replace(${value}, '"', '""') || '"'
    else ${value} end`;

/** Whole cents as euros with two decimals ('-6.30', '0.00'), exactly (numeric, not a float). */
const eurosCell = (cents: RawBuilder<unknown>) =>
  sql<string>`((${cents})::numeric / 100)::numeric(20, 2)::text`;

/**
 * Where a batch of the ledger CSV ends: the last row's instant as exact text (UTC, to the microsecond, as
 * PostgreSQL keeps it) and its id. Not a JavaScript Date: a Date keeps milliseconds, so the place fell before its
 * own row, the row came again in the next batch, and more than a batch of rows of one instant (one transaction's
 * `now()`) were read again forever.
 */
export type LedgerPlace = { occurred_at: string; id: number };

/** The ledger CSV's columns. */
export const LEDGER_CSV_HEADER = [
  'date',
  'local_date',
  'entry_id',
  'kind',
  'purpose',
  'booking_ids',
  'branch_id',
  'branch',
  'member_id',
  'amount_eur',
  'vat_rate',
  'vat_eur',
  'net_eur',
  'provider',
  'provider_reference',
  'payment_method',
  'refunded_entry_id',
  'document_kind',
  'document_status',
  'document_number',
  'atcud',
] as const;

/**
 * A batch of the ledger CSV's lines (LEDGER_CSV_HEADER's columns), oldest first: of the `limit` ledger rows after
 * `after` (the start when null) among the instants the period's days can hold in any zone, read in order from the
 * time index, the ones on the period's local days, each a CRLF-ended line with its VAT (a refund's amounts
 * negative), the card it came from and its tax document. `last` is where the next batch starts, null when this
 * one was the last. The batch is chosen before anything is joined, by the sargable range alone, so the planner
 * reads the index in order and stops at `limit`.
 *
 * PostgreSQL writes the lines and a batch comes back as one text: a year's export of a real business (150,000
 * rows) costs the server's event loop milliseconds, where turning each row into an object and each cell into text
 * took it seconds and held up every other request (the slot listing beside exports: bench/console-scale.ts).
 */
export async function ledgerCsvBatch(
  db: Db,
  filter: { branchId?: number; from: string; to: string },
  batch: { after: LedgerPlace | null; limit: number },
): Promise<{ csv: string; last: LedgerPlace | null }> {
  const params = { branch: filter.branchId ?? null, from: filter.from, to: filter.to };
  const conditions = [
    sql`entry.occurred_at >= ${utcDayBefore(params.from)}`,
    sql`entry.occurred_at < ${utcTwoDaysAfter(params.to)}`,
  ];
  if (params.branch !== null) conditions.push(sql`entry.branch_id = ${params.branch}::int`);
  if (batch.after !== null) {
    conditions.push(
      sql`(entry.occurred_at, entry.id) > (${batch.after.occurred_at}::timestamptz, ${batch.after.id}::int)`,
    );
  }
  const signed = (cents: RawBuilder<unknown>) =>
    sql`case when entry.kind = 'refund' then -(${cents}) else ${cents} end`;
  const cells = [
    sql`to_char(entry.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    sql`to_char(local.date, 'YYYY-MM-DD')`,
    sql`entry.id::text`,
    sql`entry.kind::text`,
    csvTextCell(sql`entry.purpose`),
    sql`coalesce((select string_agg(share.booking_id::text, ' ' order by share.booking_id)
      from ledger_entry_bookings as share where share.entry_id = entry.id), '')`,
    sql`entry.branch_id::text`,
    csvTextCell(sql`branch.name`),
    sql`coalesce(entry.user_id::text, '')`,
    eurosCell(signed(sql`entry.amount_cents`)),
    sql`(entry.vat_rate * 100)::numeric(20, 2)::text`,
    eurosCell(signed(sql`entry.vat_cents`)),
    eurosCell(signed(sql`entry.amount_cents - entry.vat_cents`)),
    csvTextCell(sql`entry.provider`),
    csvTextCell(sql`entry.provider_reference`),
    // The card when the provider told which (`card visa 4242`), else the method the session was paid by
    // (`mb_way`, `multibanco`, `card`).
    csvTextCell(sql`case when session.card_brand is not null
      then trim('card ' || session.card_brand || ' ' || coalesce(session.card_last4, ''))
      else session.payment_method end`),
    sql`coalesce(entry.refunded_entry_id::text, '')`,
    csvTextCell(sql`document.kind`),
    csvTextCell(sql`document.status`),
    csvTextCell(sql`document.number`),
    csvTextCell(sql`document.atcud`),
  ];
  const { rows } = await sql<{
    csv: string | null;
    place: string | null;
    last_id: number | null;
    read: number;
  }>`
    with batch as materialized (
      select * from ledger_entries as entry where ${sql.join(conditions, sql` and `)}
      order by entry.occurred_at, entry.id limit ${batch.limit}
    ), last as (
      select ${exactInstant('batch.occurred_at')} as place, batch.id from batch
      order by batch.occurred_at desc, batch.id desc limit 1
    )
    select (select count(*)::int from batch) as read, (select place from last), (select id from last) as last_id,
      (select string_agg(${sql.join(cells, sql` || ',' || `)} || chr(13) || chr(10), ''
          order by entry.occurred_at, entry.id)
        from batch as entry
          join branches as branch on branch.id = entry.branch_id
          cross join lateral (select (entry.occurred_at at time zone branch.time_zone)::date as date) as local
          left join checkout_sessions as session on session.id = entry.checkout_session_id
          left join tax_documents as document on document.ledger_entry_id = entry.id
        where local.date between ${params.from}::date and ${params.to}::date) as csv`.execute(db);
  const row = rows[0]!;
  return {
    csv: row.csv ?? '',
    last:
      row.read < batch.limit || row.place === null || row.last_id === null
        ? null
        : { occurred_at: row.place, id: row.last_id },
  };
}

/**
 * The ledger rows a provider wrote in [from, until) (instants), oldest first, with the reference the provider
 * knows them by: what the Stripe reconciliation matches to balance transactions.
 */
export async function providerLedgerRows(
  db: Db,
  filter: { provider: 'local' | 'stripe'; from: Date; until: Date },
) {
  return db
    .selectFrom('ledger_entries')
    .select(['id', 'kind', 'occurred_at', 'amount_cents', 'provider_reference'])
    .where('provider', '=', filter.provider)
    .where('occurred_at', '>=', filter.from)
    .where('occurred_at', '<', filter.until)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
}
