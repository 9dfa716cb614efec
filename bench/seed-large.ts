// The large database (issue 33, "Speed at scale"): a real business's data on PostgreSQL, for measuring the
// console. Run it by hand; it is not part of `npm test`:
//
//   node bench/seed-large.ts            # (re)creates gym_bench_large on 127.0.0.1:5432, user postgres
//   BENCH_LARGE_URL=postgres://postgres@127.0.0.1:5432/other node bench/seed-large.ts
//   ./node_modules/.bin/node bench/seed-large.ts   # the project's own Node (npm scripts use it) where the PATH's is older than 22.12
//
// It DROPS and re-creates the database named by BENCH_LARGE_URL (default
// postgres://postgres@127.0.0.1:5432/gym_bench_large), migrates it with the app's own migrator
// (server/db/migrate.ts), then fills it with set-based SQL (generate_series, INSERT ... SELECT), printing each
// step's time. The same run always gives the same rows apart from the instants, which are relative to now():
//   - 3 branches (two in Europe/Lisbon, one in Europe/Berlin), open 07:00-22:00 local, hourly slots from 700 days
//     ago to 30 days ahead (32,895 slots);
//   - 50,000 members (e-mail, phone, names; a password hash each, the same one);
//   - 1,000,000 bookings: at most one live booking per slot (the exclusion constraint allows no more): a
//     confirmed, paid one on 55 % of past slots and 25 % of future ones; every other booking is history, lapsed
//     holds (`expired`, 60 %), holds cancelled unpaid (24 %), and paid bookings cancelled later (16 %: refunded in
//     full, by half, or not at all, as the refund ratios say);
//   - a checkout session for every booking (complete and paid, or expired unpaid), one booking each;
//   - the money ledger as the app writes it (server/booking/ledger.ts): one payment row per paid session with its
//     booking's share, one refund row (with its `refunds` claim) per refund paying that payment back, and a tax
//     document per ledger row (an issued invoice-receipt, or a credit note naming the invoice it corrects); the
//     ledger's own commit-time checks run on every row;
//   - a door code for every confirmed booking (revoked once the booking ended);
//   - 433,290 outbox rows: each paid booking's confirmation, each confirmed booking's door code by e-mail
//     and SMS, each refunded cancellation's notice, and sign-up codes;
//   - 20,000 audit rows of two operators.
// On the 2-core bench machine it takes two to four minutes; `analyze` runs at the end, so plans read real
// statistics.
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { insertBranchDefinition } from '../server/catalog/service.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import type { Database } from '../server/db/schema.ts';

const DATABASE_URL = process.env.BENCH_LARGE_URL ?? 'postgres://postgres@127.0.0.1:5432/gym_bench_large';
export type SeedSizes = {
  branches: number;
  members: number;
  bookings: number;
  pastDays: number;
  futureDays: number;
  audit: number;
  /**
   * Where the bookings start: unset, booking i takes the i-th slot from the first (700 days ago), so a million
   * bookings cover every slot many times; set, the slots are taken in time order from this many days ago, so a
   * small database's bookings fall in the periods the console is asked about.
   */
  firstBookingDaysAgo?: number;
};
export const LARGE: SeedSizes = {
  branches: 3,
  members: 50_000,
  bookings: 1_000_000,
  pastDays: 700,
  futureDays: 30,
  audit: 20_000,
};
/**
 * The reference the large database is measured beside (`npm run bench`): the same business, 100 bookings. Their
 * slots are the first of this month's (the 1st to the 3rd), booked up to 30 days before, so most payments and
 * refunds fall in last month: "the payments of last month" and "the money report of the last year" ask of both
 * databases about days that have money, a full page of payments on both rather than an empty answer beside a
 * full one.
 */
export const SMALL: SeedSizes = {
  ...LARGE,
  members: 100,
  bookings: 100,
  audit: 100,
  firstBookingDaysAgo: new Date().getUTCDate() - 1,
};
/** Opening hours every day: 07:00-22:00 local, so 15 hourly slots a day. */
const OPEN_MINUTE = 7 * 60;
const CLOSE_MINUTE = 22 * 60;
const VAT_RATE = 0.23;
/** 1 + VAT_RATE in ten-thousandths, as migration 0009 computes the VAT a price includes. */
const VAT_BASIS = 10_000 + Math.round(VAT_RATE * 10_000);

async function recreate(url: string) {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

let stepStarted = performance.now();
function step(what: string, log: (line: string) => void) {
  const now = performance.now();
  log(`${((now - stepStarted) / 1000).toFixed(1).padStart(7)} s  ${what}`);
  stepStarted = now;
}

async function count(db: Kysely<Database>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db);
  return rows[0]!.n;
}

function branchDefinition(index: number) {
  const everyDay = Object.fromEntries(
    ['1', '2', '3', '4', '5', '6', '7'].map((day) => [day, [[OPEN_MINUTE, CLOSE_MINUTE]]]),
  );
  return {
    slug: `large-${index}`,
    name: `Large ${index}`,
    order: index,
    location: `Rua Grande ${index}, Lisboa`,
    latitude: 38.7,
    longitude: -9.1,
    mapUrl: null,
    timeZone: index === 2 ? 'Europe/Berlin' : 'Europe/Lisbon',
    slotMinutes: 60,
    openingHours: everyDay,
    activeWithSmartLock: true,
    images: ['/images/branches/bench-1.svg'],
    descriptions: Object.fromEntries(
      ['pt', 'en', 'fr', 'de', 'sk'].map((locale) => [locale, `Large branch ${index} (${locale})`]),
    ) as Record<'pt' | 'en' | 'fr' | 'de' | 'sk', string>,
    defaultPriceCents: 2000,
    priceRules: [],
  };
}

/** Drops and re-creates the database at `url`, migrates it and fills it with `sizes` (see the top). */
export async function seedBenchDatabase(
  url: string,
  sizes: SeedSizes,
  log: (line: string) => void = console.log,
) {
  stepStarted = performance.now();
  const seedStarted = performance.now();
  const LARGE = sizes;
  const done = (what: string) => step(what, log);
  await recreate(url);
  done(`database ${new URL(url).pathname.slice(1)} re-created`);
  const opened = await openDatabase(
    { kind: 'postgres', url },
    { timeouts: { connectMs: 10_000, statementMs: 3_600_000, idleInTransactionMs: 3_600_000 } },
  );
  const db = opened.db;
  try {
    await migrateToLatest(db);
    done('migrated (server/db/migrate.ts)');

    const branchIds: number[] = [];
    for (let index = 1; index <= LARGE.branches; index += 1) {
      branchIds.push(await insertBranchDefinition(db, branchDefinition(index)));
    }
    // Hourly slots of each branch's local days; local times a DST change skips or repeats are dropped/kept once.
    await sql`
      insert into slots (branch_id, start_time, end_time, local_date, price_cents)
      select branch.id, (day + make_interval(mins => minute)) at time zone branch.time_zone,
        (day + make_interval(mins => minute + 60)) at time zone branch.time_zone, day::date,
        2000
      from branches as branch
      cross join generate_series(current_date - ${LARGE.pastDays}::int, current_date + ${LARGE.futureDays}::int,
        interval '1 day') as day
      cross join generate_series(${OPEN_MINUTE}::int, ${CLOSE_MINUTE - 60}::int, 60) as minute
      where branch.id = any(${branchIds}::int[])
      on conflict do nothing`.execute(db);
    await sql`update branches set slots_generated_until = current_date + ${LARGE.futureDays}::int
      where id = any(${branchIds}::int[])`.execute(db);
    done(`${await count(db, 'slots')} slots of ${LARGE.branches} branches`);

    const firstNames = ['Ana', 'João', 'Maria', 'Pedro', 'Inês', 'Tiago', 'Sofia', 'Rui', 'Marta', 'Luís'];
    const lastNames = ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Rodrigues', 'Martins'];
    await sql`
      insert into users (email, phone_number, first_name, last_name, password_hash, locale, email_verified_at,
        phone_verified_at, created_at)
      select 'member' || n || '@example.com', '+3519' || lpad(n::text, 8, '0'),
        (${firstNames}::text[])[1 + n % 10], (${lastNames}::text[])[1 + (n / 10) % 8],
        '$argon2id$v=19$m=19456,t=2,p=1$c2VlZHNlZWRzZWVk$0000000000000000000000000000000000000000000',
        (array['pt', 'pt', 'pt', 'en', 'fr', 'de', 'sk'])[1 + n % 7],
        joined, joined, joined
      from generate_series(1, ${LARGE.members}) as n
      cross join lateral (select now() - interval '1 day' * (${LARGE.pastDays} + 5)
        + interval '1 day' * (${LARGE.pastDays} * (n::float8 / ${LARGE.members})) as joined) as member`.execute(
      db,
    );
    done(`${await count(db, 'users')} members`);

    // The plan of every booking: booking i takes slot (i - 1) % S + 1 in round (i - 1) / S; round 0 of a slot
    // chosen by its hash is its live (confirmed) booking, every other round is history.
    const slotOrder =
      LARGE.firstBookingDaysAgo === undefined
        ? sql`id`
        : sql`start_time < current_date - ${LARGE.firstBookingDaysAgo}::int, start_time, id`;
    await sql`create unlogged table seed_slots as
      select row_number() over (order by ${slotOrder}) as n, id, branch_id, start_time, end_time, price_cents,
        abs(hashint4(id)) % 100 as draw
      from slots`.execute(db);
    await sql`create unlogged table seed_members as
      select row_number() over (order by id) as n, id from users`.execute(db);
    await sql`
      create unlogged table seed_plan as
      with numbered as (
        select i, (i - 1) % slot_count + 1 as slot_n, (i - 1) / slot_count as round
        from (select count(*) as slot_count from seed_slots) as total
        cross join generate_series(1::bigint, ${LARGE.bookings}::bigint) as i
      ), drawn as (
        select numbered.i::int as i, numbered.round, slot.id as slot_id, slot.branch_id, slot.start_time,
          slot.end_time, slot.price_cents, slot.draw,
          abs(hashint8(numbered.i)) % 100 as fate,
          -- booked between 30 days and 1 hour before the slot
          least(slot.start_time - interval '1 hour' - interval '1 minute' * (abs(hashint8(numbered.i * 7)) % 43200),
            now() - interval '1 hour') as created_at
        from numbered join seed_slots as slot on slot.n = numbered.slot_n
      )
      select drawn.*,
        case
          when round = 0 and draw < case when start_time < now() then 55 else 25 end then 'live'
          when fate < 60 then 'lapsed'
          when fate < 84 then 'canceled_unpaid'
          else 'canceled_paid'
        end as kind,
        -- canceled_paid: what its refund ratios gave back (48 h or more before: all; 24 h: half; less: none)
        case when fate % 4 < 2 then 1.0 when fate % 4 = 2 then 0.5 else 0 end as refunded,
        member.id as user_id
      from drawn join seed_members as member on member.n = 1 + abs(hashint8(drawn.i * 13)) % ${LARGE.members}`.execute(
      db,
    );
    await sql`alter table seed_plan add primary key (i)`.execute(db);
    done('planned the bookings (unlogged seed_* tables)');

    await sql`
      insert into checkout_sessions (id, provider, user_id, status, payment_status, amount_cents, locale,
        booking_date, expires_at, payment_intent_id, card_brand, card_last4, payment_method, created_at,
        completed_at)
      select 'cs_seed_' || i, 'local', user_id,
        case when kind in ('live', 'canceled_paid') then 'complete' else 'expired' end,
        case when kind in ('live', 'canceled_paid') then 'paid' else 'unpaid' end,
        price_cents, 'pt', (start_time at time zone 'Europe/Lisbon')::date, created_at + interval '15 minutes',
        case when kind in ('live', 'canceled_paid') then 'pi_seed_' || i end,
        case when kind in ('live', 'canceled_paid') then 'visa' end,
        case when kind in ('live', 'canceled_paid') then '4242' end,
        case when kind in ('live', 'canceled_paid') then 'card' end,
        created_at, case when kind in ('live', 'canceled_paid') then created_at + interval '2 minutes' end
      from seed_plan`.execute(db);
    done(`${await count(db, 'checkout_sessions')} checkout sessions`);

    // Door codes of the live bookings: distinct 7-digit codes valid 15 minutes either side.
    await sql`
      insert into lock_codes (id, branch_id, user_id, code, valid_from, valid_until, programmed_at, revoked_at,
        created_at)
      overriding system value
      select i, branch_id, user_id, lpad(i::text, 7, '0'), start_time - interval '15 minutes',
        end_time + interval '15 minutes', created_at + interval '3 minutes',
        case when end_time + interval '15 minutes' < now() then end_time + interval '15 minutes' end,
        created_at + interval '2 minutes'
      from seed_plan where kind = 'live'`.execute(db);
    await sql`select setval(pg_get_serial_sequence('lock_codes', 'id'), (select max(id) from lock_codes))`.execute(
      db,
    );
    await sql`
      insert into bookings (id, user_id, slot_id, branch_id, start_time, end_time, status, hold_expires_at,
        base_price_cents, final_price_cents, checkout_session_id, refund_ratios, lock_code_id, paid_at,
        canceled_at, canceled_by, access_code_sent_at, access_code_sent_for, checked_in_at, created_at)
      overriding system value
      select i, user_id, slot_id, branch_id, start_time, end_time,
        case kind when 'live' then 'confirmed' when 'lapsed' then 'expired' else 'canceled' end,
        created_at + interval '15 minutes', price_cents, price_cents, 'cs_seed_' || i,
        '{"48": 1, "24": 0.5, "0": 0}'::jsonb,
        case when kind = 'live' then i end,
        case when kind in ('live', 'canceled_paid') then created_at + interval '2 minutes' end,
        case when kind = 'canceled_unpaid' then created_at + interval '5 minutes'
          when kind = 'canceled_paid' then least(created_at + (start_time - created_at) * 0.5, now()) end,
        case when kind = 'canceled_paid' and i % 20 = 0 then 'operator:1' end,
        case when kind = 'live' then created_at + interval '3 minutes' end,
        case when kind = 'live' then i end,
        case when kind = 'live' and end_time < now() and i % 10 <> 0 then start_time + interval '2 minutes' end,
        created_at
      from seed_plan order by i`.execute(db);
    await sql`select setval(pg_get_serial_sequence('bookings', 'id'), (select max(id) from bookings))`.execute(
      db,
    );
    await sql`analyze checkout_sessions, bookings, lock_codes, users`.execute(db);
    done(`${await count(db, 'bookings')} bookings`);

    // The ledger, as recordSessionPayment and refundThroughProvider write it, in one transaction so its deferred
    // checks (shares add up, a refund pays back no more than its payment took) run at commit on every row.
    await db.transaction().execute(async (trx) => {
      const vat = (amount: string) =>
        sql.raw(`(${amount} - ((${amount}::bigint * 20000 + ${VAT_BASIS}) / ${VAT_BASIS * 2})::int)`);
      await sql`
        insert into ledger_entries (id, kind, purpose, amount_cents, currency, vat_rate, vat_cents, provider,
          provider_reference, checkout_session_id, branch_id, user_id, actor_type, actor_id, occurred_at,
          recorded_at)
        overriding system value
        select i, 'payment', 'booking', price_cents, 'eur', ${VAT_RATE}, ${vat('price_cents')}, 'local',
          'pi_seed_' || i, 'cs_seed_' || i, branch_id, user_id, 'member', user_id::text,
          created_at + interval '2 minutes', created_at + interval '2 minutes'
        from seed_plan where kind in ('live', 'canceled_paid') order by created_at`.execute(trx);
      await sql`
        insert into ledger_entry_bookings (entry_id, booking_id, amount_cents)
        select i, i, price_cents from seed_plan where kind in ('live', 'canceled_paid')`.execute(trx);
      await sql`
        insert into refunds (id, booking_id, amount_cents, provider, provider_refund_id, idempotency_key, status,
          created_at, reason)
        overriding system value
        select i, i, round(price_cents * refunded)::int, 'local', 're_seed_' || i, 'refund-' || i, 'succeeded',
          booking.canceled_at, case when booking.canceled_by is not null then 'pedido do membro' end
        from seed_plan join bookings as booking on booking.id = seed_plan.i
        where kind = 'canceled_paid' and refunded > 0`.execute(trx);
      await sql`
        insert into ledger_entries (id, kind, purpose, amount_cents, currency, vat_rate, vat_cents, provider,
          provider_reference, checkout_session_id, refund_id, refunded_entry_id, branch_id, user_id, actor_type,
          actor_id, actor_name, reason, occurred_at, recorded_at)
        overriding system value
        select ${LARGE.bookings} + refund.id, 'refund',
          case when booking.canceled_by is null then 'cancellation' else 'operator' end, refund.amount_cents,
          'eur', ${VAT_RATE}, ${vat('refund.amount_cents')}, 'local', refund.provider_refund_id,
          booking.checkout_session_id, refund.id, booking.id, booking.branch_id, booking.user_id,
          case when booking.canceled_by is null then 'member' else 'operator' end,
          case when booking.canceled_by is null then booking.user_id::text else '1' end,
          case when booking.canceled_by is not null then 'owner@large.example' end, refund.reason,
          refund.created_at, refund.created_at
        from refunds as refund join bookings as booking on booking.id = refund.booking_id
        order by refund.created_at`.execute(trx);
      await sql`
        insert into ledger_entry_bookings (entry_id, booking_id, amount_cents)
        select ${LARGE.bookings} + id, booking_id, amount_cents from refunds`.execute(trx);
      // Statistics before the commit, so the checks plan index look-ups rather than scans of a table the planner
      // still takes for empty.
      await sql`analyze ledger_entries, ledger_entry_bookings, refunds`.execute(trx);
    });
    for (const table of ['ledger_entries', 'refunds']) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(
        db,
      );
    }
    done(`${await count(db, 'ledger_entries')} ledger rows (${await count(db, 'refunds')} refunds), checked`);

    await sql`
      insert into tax_documents (id, ledger_entry_id, kind, status, provider, external_reference,
        credited_document_id, user_id, locale, buyer_name, lines, currency, total_cents, vat_rate, vat_cents,
        provider_document_id, number, atcud, pdf, issued_at, attempts, created_at, updated_at)
      overriding system value
      select entry.id, entry.id, case entry.kind when 'payment' then 'invoice_receipt' else 'credit_note' end,
        'issued', 'local', 'ledger-' || entry.id, entry.refunded_entry_id, entry.user_id, 'pt',
        'Consumidor final',
        jsonb_build_array(jsonb_build_object('booking_id', share.booking_id, 'description', 'Large',
          'detail', to_char(booking.start_time at time zone 'Europe/Lisbon', 'DD/MM/YYYY HH24:MI'),
          'base_cents', share.amount_cents, 'amount_cents', share.amount_cents)),
        'eur', entry.amount_cents, entry.vat_rate, entry.vat_cents, 'local-' || entry.id,
        case entry.kind when 'payment' then 'FR SEED/' else 'NC SEED/' end || entry.id,
        'SEED-' || entry.id, '\\x255044462d312e340a'::bytea, entry.occurred_at + interval '1 minute', 1,
        entry.occurred_at, entry.occurred_at + interval '1 minute'
      from ledger_entries as entry
      join ledger_entry_bookings as share on share.entry_id = entry.id
      join bookings as booking on booking.id = share.booking_id
      order by entry.kind, entry.id`.execute(db);
    await sql`select setval(pg_get_serial_sequence('tax_documents', 'id'), (select max(id) from tax_documents))`.execute(
      db,
    );
    done(`${await count(db, 'tax_documents')} tax documents`);

    // The outbox: confirmations (e-mail) of every paid booking, door codes (e-mail and SMS) of the live ones,
    // cancellation notices of the refunded ones, and sign-up codes of members, with bodies of a real size.
    const html = `<html><body>${'<p>Olá, a sua reserva está confirmada.</p>'.repeat(40)}</body></html>`;
    await sql`
      insert into outbox (channel, recipient, locale, kind, subject, text_body, html_body, dedupe_key, status,
        attempts, next_attempt_at, created_at, sent_at)
      select message.channel, case message.channel when 'email' then member.email else member.phone_number end,
        'pt', message.kind, case message.channel when 'email' then 'A sua reserva' end,
        'Olá, a sua reserva de ' || to_char(plan.start_time, 'DD/MM HH24:MI') || ' na Large.',
        case message.channel when 'email' then ${html} end, message.dedupe_key, 'sent', 1, message.at, message.at,
        message.at + interval '5 seconds'
      from seed_plan as plan
      join users as member on member.id = plan.user_id
      join bookings as booking on booking.id = plan.i
      cross join lateral (values
        ('email', 'booking_confirmed', 'booking_confirmed:' || plan.i, booking.paid_at,
          plan.kind in ('live', 'canceled_paid')),
        ('email', 'access_code', 'access_code:email:' || plan.i || ':' || plan.i, booking.access_code_sent_at,
          plan.kind = 'live'),
        ('sms', 'access_code', 'access_code:sms:' || plan.i || ':' || plan.i, booking.access_code_sent_at,
          plan.kind = 'live'),
        ('email', 'booking_canceled', 'booking_canceled:' || plan.i, booking.canceled_at,
          plan.kind = 'canceled_paid' and plan.refunded > 0)
      ) as message(channel, kind, dedupe_key, at, wanted)
      where message.wanted
      order by message.at`.execute(db);
    await sql`
      insert into outbox (channel, recipient, locale, kind, subject, text_body, html_body, status, attempts,
        next_attempt_at, created_at, sent_at)
      select 'email', member.email, 'pt', 'verification_code', 'O seu código', 'O seu código é 123456.', ${html},
        'sent', 1, member.created_at, member.created_at, member.created_at + interval '5 seconds'
      from users as member cross join generate_series(1, 2)`.execute(db);
    done(`${await count(db, 'outbox')} outbox rows`);

    await sql`
      insert into operators (email, role, password_hash, totp_secret, locale)
      values ('owner@large.example', 'owner', null, 'JBSWY3DPEHPK3PXP', 'pt'),
        ('staff@large.example', 'staff', null, 'JBSWY3DPEHPK3PXP', 'pt')`.execute(db);
    await sql`
      insert into audit_log (at, operator_id, operator_email, action, entity_type, entity_id, reason, before, after)
      select booking.canceled_at, operator.id, operator.email, 'booking.cancel', 'booking', booking.id::text,
        'pedido do membro', jsonb_build_object('status', 'confirmed'), jsonb_build_object('status', 'canceled')
      from (select * from bookings where status = 'canceled' and canceled_at is not null order by id
        limit ${LARGE.audit}) as booking
      join operators as operator on operator.id = 1 + booking.id % 2`.execute(db);
    done(`${await count(db, 'audit_log')} audit rows`);

    await sql`drop table seed_plan, seed_slots, seed_members`.execute(db);
    await sql`vacuum analyze`.execute(db);
    done('vacuum analyze');
    log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s: ${url}`);
  } finally {
    await opened.close();
  }
}

if (import.meta.main) await seedBenchDatabase(DATABASE_URL, LARGE);
