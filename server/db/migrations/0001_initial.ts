import { sql, type Kysely } from 'kysely';

// The whole first schema. Constraints carry the rules a wrong row would break, so no code path, process
// or admin typo can store one: above all, two live bookings of one branch can never overlap in time.

const LIVE_BOOKING = `status in ('pending', 'confirmed')`;
const LOCALE = `in ('pt', 'en', 'fr', 'de', 'sk')`;
const PAYMENT_PROVIDER = `in ('local', 'stripe')`;

const statements = [
  // Equality on plain columns inside the EXCLUDE constraints below needs GiST operator classes for scalars.
  `create extension if not exists btree_gist`,

  `create table users (
    id uuid primary key default gen_random_uuid(),
    email text,
    phone_number text,
    first_name text not null default '',
    last_name text not null default '',
    password_hash text,
    agree_newsletter boolean not null default false,
    locale text not null default 'pt' check (locale ${LOCALE}),
    email_verified_at timestamptz,
    phone_verified_at timestamptz,
    token_version integer not null default 0 check (token_version >= 0),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    deleted_at timestamptz,
    -- Stored lower-cased, so the plain unique constraint is a case-insensitive one.
    constraint users_email_lower_case check (email = lower(email)),
    constraint users_email_unique unique (email),
    constraint users_phone_number_unique unique (phone_number),
    -- Only an anonymised (deleted) account may lack its contacts and password.
    constraint users_complete_unless_deleted check (
      deleted_at is not null or (email is not null and phone_number is not null and password_hash is not null)
    )
  )`,

  `create table verification_codes (
    id bigint generated always as identity primary key,
    user_id uuid not null references users (id) on delete cascade,
    channel text not null check (channel in ('email', 'phone')),
    target text not null,
    code_hash text not null,
    expires_at timestamptz not null,
    attempts integer not null default 0 check (attempts >= 0),
    consumed_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  `create index verification_codes_by_user on verification_codes (user_id, channel, created_at desc)`,

  `create table password_reset_tokens (
    id bigint generated always as identity primary key,
    user_id uuid not null references users (id) on delete cascade,
    token_hash text not null unique,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  `create index password_reset_tokens_by_user on password_reset_tokens (user_id)`,

  `create table blocked_contacts (
    id integer generated always as identity primary key,
    kind text not null check (kind in ('email', 'phone')),
    value text not null check (value <> ''),
    reason text,
    created_at timestamptz not null default now(),
    constraint blocked_contacts_unique unique (kind, value),
    constraint blocked_contacts_email_lower_case check (kind <> 'email' or value = lower(value))
  )`,

  `create table branches (
    id integer generated always as identity primary key,
    slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    name text not null check (name <> ''),
    "order" integer not null default 0,
    location text not null,
    latitude double precision not null check (latitude between -90 and 90),
    longitude double precision not null check (longitude between -180 and 180),
    map_url text,
    time_zone text not null check (time_zone <> ''),
    slot_minutes integer not null default 60 check (slot_minutes between 5 and 1440),
    -- null: open around the clock; else {"1": [[openMinute, closeMinute], ...], ..., "7": [...]} by ISO weekday.
    opening_hours jsonb check (opening_hours is null or jsonb_typeof(opening_hours) = 'object'),
    active_with_smart_lock boolean not null default false,
    image text not null,
    descriptions jsonb not null check (descriptions ?& array['pt', 'en', 'fr', 'de', 'sk']),
    default_price_cents integer not null check (default_price_cents >= 0),
    -- Derived from the price rules and the opening hours; kept so listing branches is one cheap read.
    min_price_cents integer not null check (min_price_cents >= 0),
    max_price_cents integer not null,
    slots_generated_until date,
    created_at timestamptz not null default now(),
    constraint branches_price_range check (min_price_cents <= max_price_cents)
  )`,

  `create table branch_images (
    id integer generated always as identity primary key,
    branch_id integer not null references branches (id) on delete cascade,
    position integer not null check (position >= 0),
    url text not null check (url <> ''),
    constraint branch_images_position_unique unique (branch_id, position)
  )`,

  `create table price_rules (
    id integer generated always as identity primary key,
    branch_id integer not null references branches (id) on delete cascade,
    iso_weekday integer not null check (iso_weekday between 1 and 7),
    starts_at_minute integer not null check (starts_at_minute between 0 and 1439),
    ends_at_minute integer not null check (ends_at_minute between 1 and 1440),
    price_cents integer not null check (price_cents >= 0),
    constraint price_rules_band check (ends_at_minute > starts_at_minute),
    -- At most one rule can match a slot, so its price never depends on which rule is read first.
    constraint price_rules_no_overlap exclude using gist (
      branch_id with =, iso_weekday with =, int4range(starts_at_minute, ends_at_minute) with &&
    )
  )`,

  `create table slots (
    id integer generated always as identity primary key,
    branch_id integer not null references branches (id),
    start_time timestamptz not null,
    end_time timestamptz not null,
    local_date date not null,
    price_cents integer not null check (price_cents >= 0),
    constraint slots_time_order check (end_time > start_time),
    constraint slots_branch_start_unique unique (branch_id, start_time),
    -- The target of bookings' composite foreign key, so a booking's copied times always match its slot.
    constraint slots_booking_key unique (id, branch_id, start_time, end_time),
    constraint slots_no_overlap exclude using gist (branch_id with =, tstzrange(start_time, end_time, '[)') with &&)
  )`,
  `create index slots_by_branch_date on slots (branch_id, local_date, start_time)`,

  `create table coupons (
    id integer generated always as identity primary key,
    -- Stored upper-cased, so the plain unique constraint is a case-insensitive one.
    code text not null unique check (code <> '' and code = upper(code)),
    discount numeric(5, 4) not null check (discount > 0 and discount <= 1),
    valid_from timestamptz not null default now(),
    valid_until timestamptz,
    max_redemptions integer check (max_redemptions > 0),
    max_redemptions_per_user integer check (max_redemptions_per_user > 0),
    registered_before timestamptz,
    active boolean not null default true,
    created_at timestamptz not null default now(),
    constraint coupons_validity_window check (valid_until is null or valid_until > valid_from)
  )`,

  `create table checkout_sessions (
    id text primary key,
    provider text not null check (provider ${PAYMENT_PROVIDER}),
    user_id uuid references users (id) on delete set null,
    status text not null default 'open' check (status in ('open', 'complete', 'expired')),
    payment_status text not null default 'unpaid' check (payment_status in ('unpaid', 'paid', 'no_payment_required')),
    amount_cents integer not null check (amount_cents >= 0),
    currency text not null default 'eur' check (currency ~ '^[a-z]{3}$'),
    client_secret text,
    locale text not null default 'pt' check (locale ${LOCALE}),
    booking_date date,
    expires_at timestamptz not null,
    payment_intent_id text,
    created_at timestamptz not null default now(),
    completed_at timestamptz,
    constraint checkout_sessions_completion check (status <> 'complete' or completed_at is not null)
  )`,
  `create index checkout_sessions_open_by_expiry on checkout_sessions (expires_at) where status = 'open'`,

  `create table lock_codes (
    id integer generated always as identity primary key,
    branch_id integer not null references branches (id),
    user_id uuid references users (id) on delete set null,
    code text not null check (code ~ '^[0-9]{4,12}$'),
    valid_from timestamptz not null,
    valid_until timestamptz not null,
    programmed_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz not null default now(),
    constraint lock_codes_validity_order check (valid_until > valid_from),
    -- A code opens the door for whoever holds it: it must never be valid twice at once at a branch.
    constraint lock_codes_unique_while_valid exclude using gist (
      branch_id with =, code with =, tstzrange(valid_from, valid_until, '[)') with &&
    ) where (revoked_at is null)
  )`,

  `create table bookings (
    id integer generated always as identity primary key,
    -- null once the account is anonymised; the booking stays for the accounts.
    user_id uuid references users (id) on delete set null,
    slot_id integer not null,
    branch_id integer not null,
    -- Copied from the slot (the foreign key below keeps them equal) so the database itself can refuse overlaps.
    start_time timestamptz not null,
    end_time timestamptz not null,
    status text not null check (status in ('pending', 'confirmed', 'canceled', 'expired')),
    hold_expires_at timestamptz,
    base_price_cents integer not null check (base_price_cents >= 0),
    final_price_cents integer not null check (final_price_cents >= 0),
    coupon_id integer references coupons (id),
    checkout_session_id text references checkout_sessions (id),
    -- The refund policy in force when booked: a later policy change never alters an existing booking.
    refund_ratios jsonb not null check (jsonb_typeof(refund_ratios) = 'object'),
    lock_code_id integer references lock_codes (id),
    paid_at timestamptz,
    canceled_at timestamptz,
    created_at timestamptz not null default now(),
    constraint bookings_time_order check (end_time > start_time),
    constraint bookings_discount_only check (final_price_cents <= base_price_cents),
    constraint bookings_pending_has_hold check (status <> 'pending' or hold_expires_at is not null),
    constraint bookings_canceled_has_time check (status <> 'canceled' or canceled_at is not null),
    constraint bookings_slot_fk foreign key (slot_id, branch_id, start_time, end_time)
      references slots (id, branch_id, start_time, end_time),
    -- No double booking, whatever the code does: no two live bookings overlap at a branch ...
    constraint bookings_no_overlap exclude using gist (
      branch_id with =, tstzrange(start_time, end_time, '[)') with &&
    ) where (${LIVE_BOOKING})
  )`,
  // ... and no slot has two live bookings.
  `create unique index bookings_one_live_per_slot on bookings (slot_id) where ${LIVE_BOOKING}`,
  `create index bookings_by_user on bookings (user_id, start_time)`,
  `create index bookings_by_checkout_session on bookings (checkout_session_id)`,
  `create index bookings_pending_by_hold_expiry on bookings (hold_expires_at) where status = 'pending'`,

  `create table coupon_redemptions (
    id integer generated always as identity primary key,
    coupon_id integer not null references coupons (id),
    user_id uuid references users (id) on delete set null,
    booking_id integer not null unique references bookings (id),
    created_at timestamptz not null default now()
  )`,
  `create index coupon_redemptions_by_coupon_user on coupon_redemptions (coupon_id, user_id)`,

  `create table payment_events (
    id text primary key,
    provider text not null check (provider ${PAYMENT_PROVIDER}),
    type text not null,
    payload jsonb not null,
    received_at timestamptz not null default now(),
    processed_at timestamptz
  )`,

  `create table refunds (
    id integer generated always as identity primary key,
    booking_id integer not null references bookings (id),
    amount_cents integer not null check (amount_cents > 0),
    provider text not null check (provider ${PAYMENT_PROVIDER}),
    provider_refund_id text,
    idempotency_key text not null unique,
    status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
    created_at timestamptz not null default now(),
    constraint refunds_provider_refund_unique unique (provider, provider_refund_id)
  )`,
  `create index refunds_by_booking on refunds (booking_id)`,

  `create table outbox (
    id bigint generated always as identity primary key,
    channel text not null check (channel in ('email', 'sms')),
    recipient text not null check (recipient <> ''),
    locale text not null check (locale ${LOCALE}),
    kind text not null,
    subject text,
    text_body text not null,
    html_body text,
    attachments jsonb not null default '[]' check (jsonb_typeof(attachments) = 'array'),
    dedupe_key text unique,
    status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
    attempts integer not null default 0 check (attempts >= 0),
    next_attempt_at timestamptz not null default now(),
    last_error text,
    created_at timestamptz not null default now(),
    sent_at timestamptz,
    constraint outbox_email_has_subject check (channel <> 'email' or subject is not null),
    constraint outbox_sent_has_time check (status <> 'sent' or sent_at is not null)
  )`,
  `create index outbox_due on outbox (next_attempt_at) where status = 'pending'`,
  `create index outbox_by_recipient on outbox (recipient, created_at desc)`,

  `create table settings (
    key text primary key,
    value jsonb not null,
    updated_at timestamptz not null default now()
  )`,
];

const tablesNewestFirst = [
  'settings',
  'outbox',
  'refunds',
  'payment_events',
  'coupon_redemptions',
  'bookings',
  'lock_codes',
  'checkout_sessions',
  'coupons',
  'slots',
  'price_rules',
  'branch_images',
  'branches',
  'blocked_contacts',
  'password_reset_tokens',
  'verification_codes',
  'users',
];

// One statement per query, so a failure names the statement that caused it.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of tablesNewestFirst) await sql.raw(`drop table if exists ${table}`).execute(db);
}
