import { hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import { insertBranchDefinition, countBranches, writeRefundRatios } from '../catalog/index.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import {
  DEMO_BRANCHES,
  DEMO_CREDIT_PACKS,
  DEMO_CLIENT,
  DEMO_OWNER,
  DEMO_COUPON_CODES,
  DEMO_OPENING_DAYS_AHEAD,
  DEMO_REFUND_RATIOS,
  DEMO_TIME_ZONE,
} from './demo-data.ts';

export * from './demo-data.ts';

/**
 * Puts the demo data set into a database that has no branches yet, all in one transaction; answers
 * whether it did. Slots are not part of it: the slot horizon generates them.
 */
export async function seedDemoData(db: Db, clock: Clock): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Two processes starting on one empty database: the second waits here, then finds the branches.
    await sql`select pg_advisory_xact_lock(hashtext('private-gym:seed-demo-data'))`.execute(trx);
    if ((await countBranches(trx)) > 0) return false;

    const branchIds: number[] = [];
    for (const branch of DEMO_BRANCHES) branchIds.push(await insertBranchDefinition(trx, branch));
    await trx
      .insertInto('credit_packs')
      .values(
        DEMO_CREDIT_PACKS.map((pack) => ({
          from_minute: null,
          to_minute: null,
          ...pack,
          weekdays: 'weekdays' in pack ? [...pack.weekdays] : null,
          branch_id: branchIds[0]!,
        })),
      )
      .execute();

    const now = clock.now();
    const openingDay = now
      .toZonedDateTimeISO(DEMO_TIME_ZONE)
      .toPlainDate()
      .add({ days: DEMO_OPENING_DAYS_AHEAD })
      .toZonedDateTime(DEMO_TIME_ZONE)
      .toInstant();
    await trx
      .insertInto('coupons')
      .values([
        {
          code: DEMO_COUPON_CODES.earlyBird,
          discount: 0.1,
          valid_from: dateFromInstant(now),
          max_redemptions_per_user: 3,
          registered_before: dateFromInstant(openingDay),
        },
        { code: DEMO_COUPON_CODES.welcome, discount: 0.05, valid_from: dateFromInstant(now) },
      ])
      .execute();

    await writeRefundRatios(trx, DEMO_REFUND_RATIOS);

    // argon2id at the production cost (the package's default algorithm), so the row is like any other.
    const passwordHash = await hash(DEMO_CLIENT.password, {
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    });
    await trx
      .insertInto('users')
      .values({
        email: DEMO_CLIENT.email,
        phone_number: DEMO_CLIENT.phoneNumber,
        first_name: DEMO_CLIENT.firstName,
        last_name: DEMO_CLIENT.lastName,
        password_hash: passwordHash,
        locale: DEMO_CLIENT.locale,
        agree_newsletter: false,
        email_verified_at: dateFromInstant(now),
        phone_verified_at: dateFromInstant(now),
        created_at: dateFromInstant(now),
        updated_at: dateFromInstant(now),
      })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    await trx
      .insertInto('operators')
      .values({
        email: DEMO_OWNER.email,
        role: 'owner',
        password_hash: await hash(DEMO_OWNER.password, { memoryCost: 19_456, timeCost: 2, parallelism: 1 }),
        totp_secret: DEMO_OWNER.totpSecret,
        locale: 'en',
        created_at: dateFromInstant(now),
      })
      .execute();
    return true;
  });
}
