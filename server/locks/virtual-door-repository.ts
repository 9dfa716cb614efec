import type { Db } from '../db/database.ts';

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
