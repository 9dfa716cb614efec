import { randomUUID } from 'node:crypto';
import type { Db } from '../../../server/db/database.ts';
import type { BookingStatus } from '../../../server/db/schema.ts';
import { insertBranchDefinition, type BranchDefinition } from '../../../server/catalog/service.ts';

// Small builders for rows the tests need, each valid by default and overridable where a test cares.

let branchCounter = 0;

export function branchDefinition(overrides: Partial<BranchDefinition> = {}): BranchDefinition {
  branchCounter += 1;
  return {
    slug: `test-branch-${branchCounter}-${randomUUID().slice(0, 8)}`,
    name: `Test branch ${branchCounter}`,
    order: branchCounter,
    location: 'Rua de Teste 1, 1000-001 Lisboa',
    latitude: 38.7369,
    longitude: -9.1427,
    mapUrl: null,
    timeZone: 'Europe/Lisbon',
    slotMinutes: 60,
    openingHours: null,
    activeWithSmartLock: true,
    images: ['/images/branches/test-1.svg', '/images/branches/test-2.svg'],
    descriptions: { pt: '<p>pt</p>', en: '<p>en</p>', fr: '<p>fr</p>', de: '<p>de</p>', sk: '<p>sk</p>' },
    defaultPriceCents: 1500,
    priceRules: [],
    ...overrides,
  };
}

export async function createBranch(db: Db, overrides: Partial<BranchDefinition> = {}): Promise<number> {
  return insertBranchDefinition(db, branchDefinition(overrides));
}

/** Marks the branch's slots as generated through `until` (a date): the tests insert the slots they need. */
export async function slotsGeneratedUntil(db: Db, branchId: number, until: string): Promise<void> {
  await db
    .updateTable('branches')
    .set({ slots_generated_until: until as never })
    .where('id', '=', branchId)
    .execute();
}

export async function createUser(
  db: Db,
  overrides: { email?: string; createdAt?: Date } = {},
): Promise<string> {
  const unique = randomUUID();
  const { id } = await db
    .insertInto('users')
    .values({
      email: overrides.email ?? `user-${unique}@example.com`,
      phone_number: `+3519${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      first_name: 'Ana',
      last_name: 'Silva',
      password_hash: 'not-a-real-hash',
      ...(overrides.createdAt ? { created_at: overrides.createdAt } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export type BookingFixture = {
  slotId: number;
  status: BookingStatus;
  userId?: string | null;
  /** Defaults, for a pending booking, to a hold that outlives any test clock. */
  holdExpiresAt?: Date | null;
};

const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');

/** A booking of a slot copied from the slot row, as the booking service will write it. */
export async function insertBooking(db: Db, booking: BookingFixture): Promise<number> {
  const slot = await db
    .selectFrom('slots')
    .selectAll()
    .where('id', '=', booking.slotId)
    .executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('bookings')
    .values({
      user_id: booking.userId ?? null,
      slot_id: slot.id,
      branch_id: slot.branch_id,
      start_time: slot.start_time,
      end_time: slot.end_time,
      status: booking.status,
      hold_expires_at:
        booking.holdExpiresAt !== undefined
          ? booking.holdExpiresAt
          : booking.status === 'pending'
            ? FAR_FUTURE
            : null,
      base_price_cents: slot.price_cents,
      final_price_cents: slot.price_cents,
      refund_ratios: JSON.stringify({ '48': 1, '24': 0.5, '0': 0 }),
      canceled_at: booking.status === 'canceled' ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Adds a slot row directly, bypassing generation. */
export async function insertSlot(
  db: Db,
  slot: { branchId: number; start: string; end: string; localDate: string; priceCents?: number },
): Promise<number> {
  const { id } = await db
    .insertInto('slots')
    .values({
      branch_id: slot.branchId,
      start_time: slot.start,
      end_time: slot.end,
      local_date: slot.localDate,
      price_cents: slot.priceCents ?? 1500,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
