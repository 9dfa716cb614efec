import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

// SQL of the virtual doors (the local provider): the codes each door would accept, as a real lock keeps them.

export async function insertVirtualCode(
  db: Db,
  row: { providerCodeId: string; deviceId: string; code: string; startsAt: Date; endsAt: Date },
): Promise<void> {
  await db
    .insertInto('virtual_door_codes')
    .values({
      provider_code_id: row.providerCodeId,
      device_id: row.deviceId,
      code: row.code,
      starts_at: row.startsAt,
      ends_at: row.endsAt,
    })
    .execute();
}

export async function updateVirtualCode(
  db: Db,
  providerCodeId: string,
  window: { startsAt: Date; endsAt: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('virtual_door_codes')
    .set({ starts_at: window.startsAt, ends_at: window.endsAt })
    .where('provider_code_id', '=', providerCodeId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findVirtualCode(db: Db, providerCodeId: string) {
  return db
    .selectFrom('virtual_door_codes')
    .selectAll()
    .where('provider_code_id', '=', providerCodeId)
    .executeTakeFirst();
}

export async function findVirtualCodeByDigits(db: Db, deviceId: string, code: string) {
  return db
    .selectFrom('virtual_door_codes')
    .selectAll()
    .where('device_id', '=', deviceId)
    .where('code', '=', code)
    .orderBy('starts_at')
    .execute();
}

export async function deleteVirtualCode(db: Db, providerCodeId: string): Promise<void> {
  await db.deleteFrom('virtual_door_codes').where('provider_code_id', '=', providerCodeId).execute();
}

/** What a virtual door holds whose window has not ended, by start. */
export async function listVirtualCodes(db: Db, deviceId: string, now: Date) {
  return db
    .selectFrom('virtual_door_codes')
    .select(['code', 'starts_at', 'ends_at'])
    .where('device_id', '=', deviceId)
    .where('ends_at', '>', now)
    .orderBy('starts_at')
    .execute();
}

/**
 * The codes with these digits that a virtual door opens for at `at`: held by the door for a window holding `at`,
 * and still wished there (the code not revoked, its door not being cleared) for a confirmed booking whose window
 * holds `at`. A revocation takes effect at once, before its sync deletes the code, and a code whose bookings
 * were all released never opens, whatever path forgot it.
 */
export async function findOpeningVirtualCodes(
  db: Db,
  deviceId: string,
  code: string,
  at: Date,
  marginMinutes: number,
) {
  const margin = sql`make_interval(mins => ${marginMinutes})`;
  return (
    db
      .selectFrom('virtual_door_codes as held')
      .innerJoin('lock_code_doors as door', (join) =>
        join
          .onRef('door.provider_code_id', '=', 'held.provider_code_id')
          .onRef('door.device_id', '=', 'held.device_id'),
      )
      .innerJoin('lock_codes as code', 'code.id', 'door.lock_code_id')
      .select(['held.provider_code_id', 'held.starts_at', 'held.ends_at'])
      .where('held.device_id', '=', deviceId)
      .where('held.code', '=', code)
      .where('held.starts_at', '<=', at)
      .where('held.ends_at', '>', at)
      .where('code.revoked_at', 'is', null)
      .where('door.state', 'not in', ['revoking', 'revoked'])
      // Its own confirmed booking, or its guest's (issue 31), whose window contains `at`.
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('bookings as booking')
              .select(sql`1`.as('one'))
              .whereRef('booking.lock_code_id', '=', 'code.id')
              .where('booking.status', '=', 'confirmed')
              .where(sql<boolean>`booking.start_time - ${margin} <= ${at}`)
              .where(sql<boolean>`booking.end_time + ${margin} > ${at}`),
          ),
          eb.exists(
            eb
              .selectFrom('booking_guests as guest')
              .innerJoin('bookings as booking', 'booking.id', 'guest.booking_id')
              .select(sql`1`.as('one'))
              .whereRef('guest.lock_code_id', '=', 'code.id')
              .where('guest.removed_at', 'is', null)
              .where('booking.status', '=', 'confirmed')
              .where(sql<boolean>`booking.start_time - ${margin} <= ${at}`)
              .where(sql<boolean>`booking.end_time + ${margin} > ${at}`),
          ),
        ]),
      )
      .orderBy('held.starts_at')
      .execute()
  );
}
