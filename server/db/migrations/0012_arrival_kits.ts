import { sql, type Kysely } from 'kysely';

// The arrival kit (issue 30, item 1): what a member needs at an unstaffed door, per branch. Nobody is on site,
// so the door-code message and My bookings carry it: an entrance photo, the Wi-Fi, and per language how to find
// the entrance, where the keypad is and how to type the code, and the house rules in one line. One JSON object
// (catalog/arrival.ts reads and checks it): {"entrance_photo_url", "wifi_network", "wifi_password",
// "texts": {"pt": {"directions", "keypad", "rules"}, ...}}; a branch without one has {}.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `alter table branches add column arrival jsonb not null default '{}'::jsonb
        check (jsonb_typeof(arrival) = 'object')`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter table branches drop column arrival`).execute(db);
}
