import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type {
  CreditLotsTable,
  CreditMovementKind,
  CreditMovementsTable,
  CreditPacksTable,
  GiftVouchersTable,
} from '../../db/schema.ts';
import type { SpendableLot } from './scope.ts';

// SQL of the credit wallet (migrations 0015_credit_wallet, 0016_gift_vouchers): packs, lots and their movements,
// gift vouchers. `db` is the caller's
// transaction when it writes. A lot's balance changes only here, with one movement per change, in the same
// transaction; the database checks the two agree when it commits.

export type CreditPackRow = {
  id: number;
  name: string;
  branch_id: number;
  branch_name: string;
  time_zone: string;
  all_branches: boolean;
  unit: 'minutes' | 'cents';
  credit: number;
  price_cents: number;
  validity_days: number;
  weekdays: number[] | null;
  from_minute: number | null;
  to_minute: number | null;
  active: boolean;
  sold: number;
};

function packs(db: Db) {
  return db
    .selectFrom('credit_packs as pack')
    .innerJoin('branches as branch', 'branch.id', 'pack.branch_id')
    .select([
      'pack.id',
      'pack.name',
      'pack.branch_id',
      'branch.name as branch_name',
      'branch.time_zone',
      'pack.all_branches',
      'pack.unit',
      'pack.credit',
      'pack.price_cents',
      'pack.validity_days',
      'pack.weekdays',
      'pack.from_minute',
      'pack.to_minute',
      'pack.active',
      sql<number>`(select count(*)::int from credit_lots as lot where lot.credit_pack_id = pack.id)`.as(
        'sold',
      ),
    ]);
}

/** Every pack (the console), or those on sale (members), cheapest first. */
export async function listPacks(db: Db, { onSale }: { onSale: boolean }): Promise<CreditPackRow[]> {
  let query = packs(db);
  if (onSale) query = query.where('pack.active', '=', true);
  return query.orderBy('pack.price_cents').orderBy('pack.id').execute();
}

export async function findPack(db: Db, packId: number): Promise<CreditPackRow | undefined> {
  return packs(db).where('pack.id', '=', packId).executeTakeFirst();
}

export async function insertPack(db: Db, row: Insertable<CreditPacksTable>): Promise<number> {
  const { id } = await db.insertInto('credit_packs').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updatePack(
  db: Db,
  packId: number,
  changes: Partial<Omit<Insertable<CreditPacksTable>, 'created_at' | 'updated_at'>>,
  now: Date,
): Promise<void> {
  await db
    .updateTable('credit_packs')
    .set({ ...changes, updated_at: now })
    .where('id', '=', packId)
    .execute();
}

const LOT_COLUMNS = [
  'id',
  'unit',
  'remaining',
  'expires_at',
  'branch_ids',
  'weekdays',
  'from_minute',
  'to_minute',
] as const;

/**
 * The member's lots that can pay now (unexpired, something left), locked in the caller's transaction when
 * `lock`: two bookings of the member spending at once take turns, the second seeing what the first left.
 */
export async function spendableLots(
  db: Db,
  userId: string,
  now: Date,
  { lock }: { lock: boolean },
): Promise<SpendableLot[]> {
  let query = db
    .selectFrom('credit_lots')
    .select(LOT_COLUMNS)
    .where('user_id', '=', userId)
    .where('remaining', '>', 0)
    .where('expires_at', '>', now)
    .orderBy('id');
  if (lock) query = query.forUpdate();
  return query.execute();
}

/** Takes `amount` from a lot; false when it does not hold that much (nothing changes then). */
export async function takeFromLot(db: Db, lotId: number, amount: number): Promise<boolean> {
  const taken = await db
    .updateTable('credit_lots')
    .set((eb) => ({ remaining: eb('remaining', '-', amount) }))
    .where('id', '=', lotId)
    .where('remaining', '>=', amount)
    .returning('id')
    .executeTakeFirst();
  return taken !== undefined;
}

export async function addToLot(db: Db, lotId: number, amount: number): Promise<void> {
  await db
    .updateTable('credit_lots')
    .set((eb) => ({ remaining: eb('remaining', '+', amount) }))
    .where('id', '=', lotId)
    .execute();
}

export async function insertMovement(db: Db, row: Insertable<CreditMovementsTable>): Promise<void> {
  await db.insertInto('credit_movements').values(row).execute();
}

export async function insertLot(db: Db, row: Insertable<CreditLotsTable>): Promise<number> {
  const { id } = await db.insertInto('credit_lots').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** The lot a pack's sale bought (its invoice names it), with the zone of the branch that sold it (its expiry is a day of that zone). */
export async function findLotOfLedgerEntry(db: Db, ledgerEntryId: number) {
  return db
    .selectFrom('credit_lots as lot')
    .innerJoin('ledger_entries as entry', 'entry.id', 'lot.ledger_entry_id')
    .innerJoin('branches as branch', 'branch.id', 'entry.branch_id')
    .select(['lot.id', 'lot.name', 'lot.unit', 'lot.initial', 'lot.expires_at', 'branch.time_zone'])
    .where('lot.ledger_entry_id', '=', ledgerEntryId)
    .executeTakeFirst();
}

export async function findLotOfSession(db: Db, sessionId: string) {
  return db
    .selectFrom('credit_lots')
    .select(['id', 'name', 'unit', 'initial', 'expires_at'])
    .where('checkout_session_id', '=', sessionId)
    .executeTakeFirst();
}

/** What the booking still holds of each lot: its spends less what came back (returns, releases). */
export async function creditHeldByBooking(
  db: Db,
  bookingId: number,
): Promise<{ lot_id: number; amount: number; value_cents: number; returned: boolean }[]> {
  const { rows } = await sql<{ lot_id: number; amount: number; value_cents: number; returned: boolean }>`
    select lot_id,
      sum(case when kind = 'spend' then amount else -amount end)::int as amount,
      sum(case when kind = 'spend' then value_cents else -value_cents end)::int as value_cents,
      bool_or(kind = 'return') as returned
    from credit_movements
    where booking_id = ${bookingId}
    group by lot_id
    order by lot_id`.execute(db);
  return rows;
}

/** Lots whose time is up with something left, locked, oldest first. */
export async function lockLotsToExpire(db: Db, now: Date, limit: number) {
  return db
    .selectFrom('credit_lots')
    .select(['id', 'remaining'])
    .where('remaining', '>', 0)
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Lots expiring within the notice period, with something left, whose member has not been told. */
export async function lockLotsToAnnounce(db: Db, now: Date, until: Date, limit: number) {
  return db
    .selectFrom('credit_lots')
    .select(['id', 'user_id', 'name', 'unit', 'remaining', 'expires_at', 'branch_ids'])
    .where('remaining', '>', 0)
    .where('expires_at', '>', now)
    .where('expires_at', '<=', until)
    .where('expiry_notice_at', 'is', null)
    .orderBy('expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function markLotAnnounced(db: Db, lotId: number, now: Date): Promise<void> {
  await db.updateTable('credit_lots').set({ expiry_notice_at: now }).where('id', '=', lotId).execute();
}

export type WalletLotRow = {
  id: number;
  name: string;
  unit: 'minutes' | 'cents';
  initial: number;
  remaining: number;
  branch_ids: number[] | null;
  weekdays: number[] | null;
  from_minute: number | null;
  to_minute: number | null;
  created_at: Date;
  expires_at: Date;
};

export async function listLotsOfUser(db: Db, userId: string): Promise<WalletLotRow[]> {
  return db
    .selectFrom('credit_lots')
    .select([
      'id',
      'name',
      'unit',
      'initial',
      'remaining',
      'branch_ids',
      'weekdays',
      'from_minute',
      'to_minute',
      'created_at',
      'expires_at',
    ])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function listMovementsOfUser(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('credit_movements as movement')
    .innerJoin('credit_lots as lot', 'lot.id', 'movement.lot_id')
    .select([
      'movement.id',
      'movement.lot_id',
      'movement.kind',
      'movement.amount',
      'lot.unit',
      'movement.value_cents',
      'movement.booking_id',
      'movement.occurred_at',
    ])
    .where('lot.user_id', '=', userId)
    .orderBy('movement.id', 'desc')
    .limit(limit)
    .execute();
}

export type MovementKind = CreditMovementKind;

/** The names of branches, by id. */
export async function branchNames(db: Db): Promise<Map<number, string>> {
  const rows = await db.selectFrom('branches').select(['id', 'name']).orderBy('id').execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Each booking's credit part, for pages that show a booking's money. */
export async function creditOfBookings(db: Db, bookingIds: readonly number[]): Promise<Map<number, number>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('bookings')
    .select(['id', 'credit_cents'])
    .where('id', 'in', [...bookingIds])
    .where('credit_cents', '>', 0)
    .execute();
  return new Map(rows.map((row) => [row.id, row.credit_cents]));
}

/** The member's holds whose time is up and that spent credit, expired: the database gives the credit back. */
export async function expireStaleCreditHolds(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('bookings')
    .set({ status: 'expired' })
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('credit_cents', '>', 0)
    .where('hold_expires_at', '<=', now)
    .execute();
}

/** Credit that came back to the wallet of each booking when it ended (its 'return' movements), in cents. */
export async function creditReturnedToBookings(
  db: Db,
  bookingIds: readonly number[],
): Promise<Map<number, number>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('credit_movements')
    .select(['booking_id', (eb) => eb.fn.sum<number>('value_cents').as('cents')])
    .where('booking_id', 'in', [...bookingIds])
    .where('kind', '=', 'return')
    .groupBy('booking_id')
    .execute();
  return new Map(rows.map((row) => [row.booking_id!, Number(row.cents)]));
}

/** The lot a redeemed voucher became. */
export async function linkLotToVoucher(db: Db, lotId: number, voucherId: number): Promise<void> {
  await db.updateTable('credit_lots').set({ gift_voucher_id: voucherId }).where('id', '=', lotId).execute();
}

export type GiftVoucherRow = Selectable<GiftVouchersTable>;

export async function insertVoucher(db: Db, row: Insertable<GiftVouchersTable>): Promise<number> {
  const { id } = await db.insertInto('gift_vouchers').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function findVoucher(db: Db, voucherId: number): Promise<GiftVoucherRow> {
  return db.selectFrom('gift_vouchers').selectAll().where('id', '=', voucherId).executeTakeFirstOrThrow();
}

/** The voucher with `code`, its row locked until `trx` ends: one of two members redeeming it at once wins. */
export async function lockVoucherByCode(trx: Db, code: string): Promise<GiftVoucherRow | undefined> {
  return trx.selectFrom('gift_vouchers').selectAll().where('code', '=', code).forUpdate().executeTakeFirst();
}

export async function updateVoucher(
  db: Db,
  voucherId: number,
  changes: Partial<
    Pick<
      GiftVoucherRow,
      | 'code'
      | 'issued_at'
      | 'expires_at'
      | 'ledger_entry_id'
      | 'checkout_session_id'
      | 'redeemed_at'
      | 'redeemed_by'
      | 'lot_id'
    >
  >,
): Promise<void> {
  await db.updateTable('gift_vouchers').set(changes).where('id', '=', voucherId).execute();
}

/** What a member bought, newest first (those whose checkout never opened left out). */
export async function listVouchersOfBuyer(db: Db, userId: string): Promise<GiftVoucherRow[]> {
  return db
    .selectFrom('gift_vouchers')
    .selectAll()
    .where('buyer_id', '=', userId)
    .where('checkout_session_id', 'is not', null)
    .orderBy('id', 'desc')
    .execute();
}

/** The voucher a sale of the money ledger issued (its invoice names the code). */
export async function findVoucherOfLedgerEntry(db: Db, ledgerEntryId: number) {
  return db
    .selectFrom('gift_vouchers')
    .select(['code', 'expires_at'])
    .where('ledger_entry_id', '=', ledgerEntryId)
    .executeTakeFirst();
}
