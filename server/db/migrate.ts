import { Migrator, type Migration, type MigrationResult } from 'kysely/migration';
import type { Db } from './database.ts';
import * as initial from './migrations/0001_initial.ts';
import * as accounts from './migrations/0002_accounts.ts';
import * as accessCodeNotices from './migrations/0003_access_code_notices.ts';
import * as doors from './migrations/0004_doors.ts';
import * as operators from './migrations/0005_operators.ts';
import * as memberReceipts from './migrations/0006_member_receipts.ts';
import * as moves from './migrations/0007_moves.ts';
import * as priceGrids from './migrations/0008_price_grids.ts';
import { ledgerMigration } from './migrations/0009_ledger.ts';
import * as invoicing from './migrations/0010_invoicing.ts';
import * as asyncPayments from './migrations/0011_async_payments.ts';
import * as arrivalKits from './migrations/0012_arrival_kits.ts';
import * as bookingSeries from './migrations/0013_booking_series.ts';
import * as bookingGuests from './migrations/0014_booking_guests.ts';
import * as creditWallet from './migrations/0015_credit_wallet.ts';
import * as giftVouchers from './migrations/0016_gift_vouchers.ts';
import * as doorControl from './migrations/0017_door_control.ts';
import * as staffBranches from './migrations/0018_staff_branches.ts';
import * as priceOverrides from './migrations/0019_price_overrides.ts';
import * as broadcasts from './migrations/0020_broadcasts.ts';
import * as refundApprovals from './migrations/0021_refund_approvals.ts';
import * as bookablePeriods from './migrations/0022_bookable_periods.ts';
import * as consoleIndexes from './migrations/0023_console_indexes.ts';
import * as ledgerDayTotals from './migrations/0024_ledger_day_totals.ts';
import * as slotDayNotices from './migrations/0025_slot_day_notices.ts';

export type MigrationOptions = {
  /** The VAT rate (VAT_RATE) the money copied into the ledger from before it includes. */
  vatRate: number;
};

/** VAT_RATE's default (server/config.ts). */
const DEFAULT_MIGRATION_OPTIONS: MigrationOptions = { vatRate: 0.23 };

// Migrations live in code (no directory scan), named so their order is their name's order.
// Append new ones; never edit one that has shipped.
export function migrationsFor(options: MigrationOptions): Record<string, Migration> {
  return {
    '0001_initial': initial,
    '0002_accounts': accounts,
    '0003_access_code_notices': accessCodeNotices,
    '0004_doors': doors,
    '0005_operators': operators,
    '0006_member_receipts': memberReceipts,
    '0007_moves': moves,
    '0008_price_grids': priceGrids,
    '0009_ledger': ledgerMigration(options),
    '0010_invoicing': invoicing,
    '0011_async_payments': asyncPayments,
    '0012_arrival_kits': arrivalKits,
    '0013_booking_series': bookingSeries,
    '0014_booking_guests': bookingGuests,
    '0015_credit_wallet': creditWallet,
    '0016_gift_vouchers': giftVouchers,
    '0017_door_control': doorControl,
    '0018_staff_branches': staffBranches,
    '0019_price_overrides': priceOverrides,
    '0020_broadcasts': broadcasts,
    '0021_refund_approvals': refundApprovals,
    '0022_bookable_periods': bookablePeriods,
    '0023_console_indexes': consoleIndexes,
    '0024_ledger_day_totals': ledgerDayTotals,
    '0025_slot_day_notices': slotDayNotices,
  };
}

export const migrations = migrationsFor(DEFAULT_MIGRATION_OPTIONS);

/**
 * Brings the schema up to date. Kysely's migrator holds a PostgreSQL advisory lock while it works, so
 * several processes starting together on one database apply each migration once; the others wait, then
 * find nothing left to do.
 */
export async function migrateToLatest(
  db: Db,
  options: MigrationOptions = DEFAULT_MIGRATION_OPTIONS,
): Promise<MigrationResult[]> {
  const all = migrationsFor(options);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => all } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === 'Error');
    const what = failed ? `database migration ${failed.migrationName}` : 'database migration';
    throw new Error(`${what} failed`, { cause: error });
  }
  return results;
}
