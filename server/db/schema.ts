import type { ColumnType, GeneratedAlways, Generated } from 'kysely';

// Kysely's view of the tables created by the migrations. Row shapes follow the parsers in database.ts:
// timestamptz is a Date, date is 'YYYY-MM-DD', bigint and numeric are numbers, jsonb arrives parsed.

/** A timestamptz: read as Date; written as a Date or an ISO 8601 string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A calendar date, 'YYYY-MM-DD'. */
type CalendarDate = string;
/** jsonb: read parsed; written as JSON text (`JSON.stringify`), so arrays are never taken for SQL arrays. */
export type Json<T> = ColumnType<T, string, string>;
type DefaultedJson<T> = ColumnType<T, string | undefined, string>;

export type LocaleCode = 'pt' | 'en' | 'fr' | 'de' | 'sk';
export type PaymentProvider = 'local' | 'stripe';
export type Descriptions = Record<LocaleCode, string>;

/** A branch's arrival kit as stored: every part optional, texts per language. */
export type StoredArrivalKit = {
  entrance_photo_url?: string | null;
  wifi_network?: string | null;
  wifi_password?: string | null;
  texts?: Partial<Record<LocaleCode, { directions?: string; keypad?: string; rules?: string }>>;
};
/** Opening ranges per ISO weekday ('1' = Monday), each [openMinute, closeMinute) of the local day. */
export type OpeningHours = Partial<Record<'1' | '2' | '3' | '4' | '5' | '6' | '7', [number, number][]>>;
/** Hour threshold (decimal integer as a string) to the refunded fraction. */
export type RefundRatios = Record<string, number>;
/** An e-mail attachment kept in the outbox; `content` is the file's text (UTF-8), not base64. */
export type OutboxAttachment = {
  filename: string;
  contentType: string;
  content: string;
  /** `base64`: `content` is a binary file (a PDF) in base64. */
  encoding?: 'base64';
};

export type UsersTable = {
  id: Generated<string>;
  email: string | null;
  phone_number: string | null;
  first_name: Generated<string>;
  last_name: Generated<string>;
  password_hash: string | null;
  agree_newsletter: Generated<boolean>;
  locale: Generated<LocaleCode>;
  email_verified_at: Timestamp | null;
  phone_verified_at: Timestamp | null;
  token_version: Generated<number>;
  /** The member's tax number (Portuguese NIF) for receipts; null when not given. */
  tax_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: DefaultedTimestamp;
  deleted_at: Timestamp | null;
};

export type VerificationCodesTable = {
  id: GeneratedAlways<number>;
  user_id: string;
  channel: 'email' | 'phone';
  target: string;
  code_hash: string;
  expires_at: Timestamp;
  attempts: Generated<number>;
  consumed_at: Timestamp | null;
  created_at: CreatedAt;
};

export type PasswordResetTokensTable = {
  id: GeneratedAlways<number>;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
};

export type BlockedContactsTable = {
  id: GeneratedAlways<number>;
  kind: 'email' | 'phone';
  value: string;
  reason: string | null;
  created_at: CreatedAt;
};

export type BranchesTable = {
  id: GeneratedAlways<number>;
  slug: string;
  name: string;
  order: Generated<number>;
  location: string;
  latitude: number;
  longitude: number;
  map_url: string | null;
  time_zone: string;
  slot_minutes: Generated<number>;
  opening_hours: Json<OpeningHours> | null;
  active_with_smart_lock: Generated<boolean>;
  image: string;
  descriptions: Json<Descriptions>;
  /** The arrival kit (catalog/arrival.ts); {} when the branch has none. */
  arrival: ColumnType<StoredArrivalKit, string | undefined, string>;
  default_price_cents: number;
  min_price_cents: number;
  /** The branch's doors (Seam device ids), in order. */
  lock_device_ids: ColumnType<string[], string[] | undefined, string[]>;
  max_price_cents: number;
  slots_generated_until: CalendarDate | null;
  /** The VAT rate its prices include, when it has one of its own; null: VAT_RATE. */
  vat_rate: ColumnType<number | null, number | null | undefined, number | null>;
  /** How many guests a member may add to a booking, each with a door code of their own (issue 31). */
  guest_limit: Generated<number>;
  /** Where its door alerts go (issue 32): e-mail and SMS; null falls back to OPERATOR_EMAIL (no SMS). */
  on_call_email: ColumnType<string | null, string | null | undefined, string | null>;
  on_call_phone: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
};

export type BranchImagesTable = {
  id: GeneratedAlways<number>;
  branch_id: number;
  position: number;
  url: string;
};

export type PriceRulesTable = {
  id: GeneratedAlways<number>;
  branch_id: number;
  iso_weekday: number;
  starts_at_minute: number;
  ends_at_minute: number;
  price_cents: number;
};

export type SlotsTable = {
  id: GeneratedAlways<number>;
  branch_id: number;
  start_time: Timestamp;
  end_time: Timestamp;
  local_date: CalendarDate;
  price_cents: number;
  /** The grid's price for a slot that kept its own because a live booking held it; taken once it is free. */
  next_price_cents: ColumnType<number | null, number | null | undefined, number | null>;
};

/** A band of a dated grid, as the columns of price_rules name it. */
export type DatedPriceBand = {
  iso_weekday: number;
  starts_at_minute: number;
  ends_at_minute: number;
  price_cents: number;
};

/** A branch's price grid from a date of its own calendar on (docs/decisions.md, 'Prices that apply when saved'). */
export type DatedPriceGridsTable = {
  id: GeneratedAlways<number>;
  branch_id: number;
  starts_on: CalendarDate;
  default_price_cents: number;
  bands: Json<DatedPriceBand[]>;
  created_at: CreatedAt;
};

/** A band of a date's price: local wall-clock minutes [starts_at_minute, ends_at_minute) and their price. */
export type PriceOverrideBand = {
  starts_at_minute: number;
  ends_at_minute: number;
  price_cents: number;
};

/** A branch's price for one date of its own calendar, over its grids (issue 32, 'Prices by date'). */
export type PriceOverridesTable = {
  branch_id: number;
  local_date: CalendarDate;
  day_price_cents: number;
  bands: Json<PriceOverrideBand[]>;
  created_at: CreatedAt;
};

export type CouponsTable = {
  id: GeneratedAlways<number>;
  code: string;
  /** A fraction in (0, 1]; numeric(5,4) in the database. */
  discount: ColumnType<number, number | string, number | string>;
  valid_from: DefaultedTimestamp;
  valid_until: Timestamp | null;
  max_redemptions: number | null;
  max_redemptions_per_user: number | null;
  registered_before: Timestamp | null;
  active: Generated<boolean>;
  created_at: CreatedAt;
};

export type CouponRedemptionsTable = {
  id: GeneratedAlways<number>;
  coupon_id: number;
  user_id: string | null;
  booking_id: number;
  created_at: CreatedAt;
};

export type PaymentMethod = 'card' | 'mb_way' | 'multibanco';

export type CheckoutSessionsTable = {
  id: string;
  provider: PaymentProvider;
  user_id: string | null;
  status: Generated<'open' | 'complete' | 'expired'>;
  payment_status: Generated<'unpaid' | 'paid' | 'no_payment_required'>;
  amount_cents: number;
  currency: Generated<string>;
  client_secret: string | null;
  locale: Generated<LocaleCode>;
  booking_date: CalendarDate | null;
  expires_at: Timestamp;
  payment_intent_id: string | null;
  /** The card the payment came from, when the provider told: 'visa' and '4242'. */
  card_brand: ColumnType<string | null, string | null | undefined, string | null>;
  card_last4: ColumnType<string | null, string | null | undefined, string | null>;
  /** Whether the checkout offered Multibanco (the first slot was far enough ahead when it opened). */
  multibanco_allowed: Generated<boolean>;
  /** The method that completed the checkout, when the provider told. */
  payment_method: ColumnType<PaymentMethod | null, PaymentMethod | null | undefined, PaymentMethod | null>;
  /** The Multibanco voucher awaiting payment: all three set or none. */
  voucher_entity: ColumnType<string | null, string | null | undefined, string | null>;
  voucher_reference: ColumnType<string | null, string | null | undefined, string | null>;
  voucher_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  voucher_url: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  completed_at: Timestamp | null;
  /** The pack a checkout sells (issue 31); null: it pays bookings or a move. */
  credit_pack_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The gift voucher a checkout sells (issue 31). */
  gift_voucher_id: ColumnType<number | null, number | null | undefined, number | null>;
};

export type BookingStatus = 'pending' | 'confirmed' | 'canceled' | 'expired';

export type BookingsTable = {
  id: GeneratedAlways<number>;
  user_id: string | null;
  slot_id: number;
  branch_id: number;
  start_time: Timestamp;
  end_time: Timestamp;
  status: BookingStatus;
  hold_expires_at: Timestamp | null;
  base_price_cents: number;
  final_price_cents: number;
  coupon_id: number | null;
  checkout_session_id: string | null;
  refund_ratios: Json<RefundRatios>;
  lock_code_id: number | null;
  paid_at: Timestamp | null;
  canceled_at: Timestamp | null;
  /** When the door-code message (e-mail and SMS) covering this booking was written to the outbox. */
  access_code_sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The lock code that message named. */
  access_code_sent_for: ColumnType<number | null, number | null | undefined, number | null>;
  /** The first time the door opened with this booking's code. */
  checked_in_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Marked when a confirmed booking had no entry by its start + 20 minutes. */
  no_show_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Marked when the door opened for this booking after its end + 15 minutes. */
  overstay_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The SEQUENCE of the booking's calendar event as last sent (0: the confirmation's). */
  calendar_sequence: Generated<number>;
  /** The weekly series the booking was made in (issue 31), or null. */
  series_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The part of its price its member's credit paid (issue 31), in cents; the rest was paid in money. */
  credit_cents: Generated<number>;
  created_at: CreatedAt;
  /** Who cancelled: member, operator:<id>, closure:<id>, account_deleted, cli. */
  canceled_by: ColumnType<string | null, string | null | undefined, string | null>;
};

export type PaymentEventsTable = {
  id: string;
  provider: PaymentProvider;
  type: string;
  payload: Json<unknown>;
  received_at: CreatedAt;
  processed_at: Timestamp | null;
};

export type RefundsTable = {
  id: GeneratedAlways<number>;
  booking_id: number;
  amount_cents: number;
  provider: PaymentProvider;
  provider_refund_id: string | null;
  idempotency_key: string;
  status: Generated<'pending' | 'succeeded' | 'failed'>;
  created_at: CreatedAt;
  /** The payment it pays back; null: the booking's own checkout session. */
  checkout_session_id: ColumnType<string | null, string | null | undefined, string | null>;
  reason: ColumnType<string | null, string | null | undefined, string | null>;
};

export type BookingMoveState = 'awaiting_payment' | 'completed' | 'expired' | 'refunded';

export type BookingMovesTable = {
  id: GeneratedAlways<number>;
  booking_id: number;
  seq: number;
  from_slot_id: number;
  to_slot_id: number;
  from_price_cents: number;
  to_base_price_cents: number;
  to_price_cents: number;
  difference_cents: number;
  state: BookingMoveState;
  hold_booking_id: number | null;
  checkout_session_id: string | null;
  created_at: CreatedAt;
  settled_at: Timestamp | null;
};

/** A movement of money: money in (a payment) or money out (a refund). */
export type LedgerEntryKind = 'payment' | 'refund';
/** What a payment paid: a booking's checkout, or the difference of a move to a dearer slot. */
export type PaymentPurpose = 'booking' | 'move_difference' | 'credit_pack' | 'gift_voucher';
/** Why a refund was made. */
export type RefundPurpose =
  | 'cancellation'
  | 'move_to_cheaper_slot'
  | 'closure'
  | 'operator'
  | 'account_deletion'
  | 'late_payment'
  | 'move_late_payment';
export type LedgerPurpose = PaymentPurpose | RefundPurpose;
export type LedgerActorType = 'member' | 'operator' | 'system' | 'cli';

/** Written once, never changed: no column of the ledger can be set by an UPDATE (the database refuses one too). */
type Immutable<T> = ColumnType<T, T, never>;

export type LedgerEntriesTable = {
  id: GeneratedAlways<number>;
  kind: Immutable<LedgerEntryKind>;
  purpose: Immutable<LedgerPurpose>;
  amount_cents: Immutable<number>;
  /** ISO 4217, lower case as the provider writes it ('eur'). */
  currency: Immutable<string>;
  /** A fraction (0.23 is 23 %); numeric(5,4). */
  vat_rate: ColumnType<number, number | string, never>;
  vat_cents: Immutable<number>;
  provider: Immutable<PaymentProvider>;
  /** The payment intent of a payment, the provider's refund id of a refund. */
  provider_reference: Immutable<string | null>;
  /** The session paid; for a refund, the session of the payment it pays back. */
  checkout_session_id: Immutable<string>;
  refund_id: ColumnType<number | null, number | null | undefined, never>;
  refunded_entry_id: ColumnType<number | null, number | null | undefined, never>;
  branch_id: Immutable<number>;
  user_id: Immutable<string | null>;
  actor_type: Immutable<LedgerActorType>;
  actor_id: Immutable<string | null>;
  actor_name: Immutable<string | null>;
  reason: ColumnType<string | null, string | null | undefined, never>;
  occurred_at: ColumnType<Date, Date | string, never>;
  recorded_at: ColumnType<Date, Date | string | undefined, never>;
};

/**
 * The ledger's sums per branch and branch-local day, kept by the database in the transaction that writes each
 * ledger row (migration 0024): what the money report reads. Never written by the server.
 */
export type LedgerDayTotalsTable = {
  branch_id: number;
  local_date: ColumnType<string, never, never>;
  payments_cents: ColumnType<number, never, never>;
  payments_count: ColumnType<number, never, never>;
  refunds_cents: ColumnType<number, never, never>;
  refunds_count: ColumnType<number, never, never>;
};

/** Each booking's share of a ledger entry; the shares add up to the entry. */
export type LedgerEntryBookingsTable = {
  entry_id: Immutable<number>;
  booking_id: Immutable<number>;
  amount_cents: Immutable<number>;
};

export type TaxDocumentKind = 'invoice_receipt' | 'simplified_invoice' | 'credit_note';
export type TaxDocumentStatus = 'pending' | 'issued' | 'refused';
export type TaxDocumentProvider = 'local' | 'invoicexpress';
/** One line of a tax document: gross amounts (VAT included), in cents. */
export type TaxDocumentLine = {
  /** The booking the line is for (absent on documents recorded before it was kept). */
  booking_id?: number;
  description: string;
  detail: string;
  /** The price before a coupon; equal to `amount_cents` without one. */
  base_cents: number;
  amount_cents: number;
};

/** Invoices and credit notes, one per ledger row (migration 0010_invoicing); kept after the account's erasure. */
export type TaxDocumentsTable = {
  id: GeneratedAlways<number>;
  ledger_entry_id: ColumnType<number, number, never>;
  kind: ColumnType<TaxDocumentKind, TaxDocumentKind, never>;
  status: ColumnType<TaxDocumentStatus, TaxDocumentStatus | undefined, TaxDocumentStatus>;
  provider: ColumnType<TaxDocumentProvider, TaxDocumentProvider, never>;
  external_reference: ColumnType<string, string, never>;
  credited_document_id: ColumnType<number | null, number | null | undefined, never>;
  user_id: ColumnType<string | null, string | null | undefined, never>;
  locale: ColumnType<LocaleCode, LocaleCode | undefined, never>;
  buyer_name: ColumnType<string, string, never>;
  buyer_tax_id: ColumnType<string | null, string | null | undefined, never>;
  lines: ColumnType<TaxDocumentLine[], string, never>;
  currency: ColumnType<string, string, never>;
  total_cents: ColumnType<number, number, never>;
  vat_rate: ColumnType<number, number, never>;
  vat_cents: ColumnType<number, number, never>;
  provider_document_id: string | null;
  number: string | null;
  atcud: string | null;
  qr_payload: string | null;
  pdf: Uint8Array | null;
  permalink: string | null;
  issued_at: Timestamp | null;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: DefaultedTimestamp;
};

export type TaxDocumentCountersTable = {
  series: string;
  kind: string;
  last_number: number;
};

export type OperatorRole = 'owner' | 'staff';

export type OperatorsTable = {
  id: GeneratedAlways<number>;
  email: string;
  role: OperatorRole;
  password_hash: string | null;
  totp_secret: string;
  locale: Generated<LocaleCode>;
  created_at: CreatedAt;
  removed_at: Timestamp | null;
};

/** The branches a limited staff member sees and acts on (migration 0018_staff_branches); none: every branch. */
export type OperatorBranchesTable = {
  operator_id: number;
  branch_id: number;
};

export type OperatorSetupTokensTable = {
  id: GeneratedAlways<number>;
  operator_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
};

export type OperatorSessionsTable = {
  id: string;
  operator_id: number;
  created_at: CreatedAt;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  ended_by: number | null;
  ip: string;
  user_agent: string | null;
};

export type OperatorTotpStepsTable = {
  operator_id: number;
  step: number;
  used_at: DefaultedTimestamp;
};

export type AuditLogTable = {
  id: GeneratedAlways<number>;
  at: DefaultedTimestamp;
  operator_id: number | null;
  operator_email: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  reason: string | null;
  before: Json<unknown> | null;
  after: Json<unknown> | null;
};

export type DoorUnlockOutcome = 'opening' | 'opened' | 'offline' | 'failed';

/** One remote opening of a door by an operator (migration 0017_door_control). */
export type DoorUnlocksTable = {
  id: GeneratedAlways<number>;
  request_id: string;
  branch_id: number;
  device_id: string;
  operator_id: number | null;
  operator_email: string;
  reason: string;
  outcome: Generated<DoorUnlockOutcome>;
  error: string | null;
  requested_at: Timestamp;
  finished_at: Timestamp | null;
};

/** When a branch took bookings: from `starts_at` ('-infinity': since it exists) until `ends_at` (null: still). */
export type BranchBookablePeriodsTable = {
  id: GeneratedAlways<number>;
  branch_id: number;
  starts_at: Timestamp;
  ends_at: Timestamp | null;
};

export type BranchClosuresTable = {
  id: GeneratedAlways<number>;
  branch_id: number;
  starts_at: Timestamp;
  ends_at: Timestamp;
  reason: string;
  created_at: CreatedAt;
  created_by: number | null;
  created_by_email: string;
  reopened_at: Timestamp | null;
  canceled_booking_ids: ColumnType<number[], number[] | undefined, number[]>;
};

export type LockCodesTable = {
  id: GeneratedAlways<number>;
  branch_id: number;
  user_id: string | null;
  code: string;
  valid_from: Timestamp;
  valid_until: Timestamp;
  programmed_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: CreatedAt;
};

export type LockDoorState = 'pending' | 'programming' | 'set' | 'revoking' | 'revoked' | 'failed';

export type LockCodeDoorsTable = {
  lock_code_id: number;
  device_id: string;
  state: ColumnType<LockDoorState, LockDoorState | undefined, LockDoorState>;
  provider_code_id: string | null;
  programmed_from: Timestamp | null;
  programmed_until: Timestamp | null;
  error: string | null;
  backup_code: string | null;
  backup_provider_code_id: string | null;
  last_event_at: Timestamp | null;
  updated_at: DefaultedTimestamp;
};

export type LockEventsTable = {
  id: GeneratedAlways<number>;
  provider_event_id: string;
  event_type: string;
  device_id: string | null;
  provider_code_id: string | null;
  lock_code_id: number | null;
  booking_id: number | null;
  occurred_at: Timestamp;
  created_at: CreatedAt;
};

export type LockDevicesTable = {
  device_id: string;
  online: boolean | null;
  battery_level: number | null;
  last_event_type: string | null;
  updated_at: DefaultedTimestamp;
};

export type VirtualDoorCodesTable = {
  provider_code_id: string;
  device_id: string;
  code: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
};

/** `logged`: no provider was configured, so the message was printed to the log and not delivered. */
export type OutboxStatus = 'pending' | 'sent' | 'logged' | 'failed';

export type OutboxTable = {
  id: GeneratedAlways<number>;
  channel: 'email' | 'sms';
  recipient: string;
  locale: LocaleCode;
  kind: string;
  subject: string | null;
  text_body: string;
  html_body: string | null;
  attachments: DefaultedJson<OutboxAttachment[]>;
  dedupe_key: string | null;
  status: Generated<OutboxStatus>;
  attempts: Generated<number>;
  next_attempt_at: DefaultedTimestamp;
  last_error: string | null;
  created_at: CreatedAt;
  sent_at: Timestamp | null;
};

export type RateLimitCountersTable = {
  bucket: string;
  window_start: Timestamp;
  hits: number;
};

export type SettingsTable = {
  key: string;
  value: Json<unknown>;
  updated_at: DefaultedTimestamp;
};

/** A weekly series (issue 31): its bookings are its weeks. */
export type BookingSeriesTable = {
  id: GeneratedAlways<number>;
  branch_id: number;
  iso_weekday: number;
  local_time: string;
  created_at: CreatedAt;
};

/** A guest of a booking, with a door code of their own (migration 0014). */
/** What a lot of credit counts: minutes of sessions or cents of euros. */
export type CreditUnit = 'minutes' | 'cents';

/** A prepaid pack the operator sells (migration 0015_credit_wallet). */
export type CreditPacksTable = {
  id: GeneratedAlways<number>;
  name: string;
  branch_id: number;
  all_branches: Generated<boolean>;
  unit: CreditUnit;
  credit: number;
  price_cents: number;
  validity_days: number;
  weekdays: number[] | null;
  from_minute: number | null;
  to_minute: number | null;
  active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
};

/** A member's lot of credit, bought with a pack; its scope is the pack's when bought. */
export type CreditLotsTable = {
  id: GeneratedAlways<number>;
  user_id: string;
  credit_pack_id: number | null;
  name: string;
  unit: CreditUnit;
  initial: number;
  remaining: number;
  branch_ids: number[] | null;
  weekdays: number[] | null;
  from_minute: number | null;
  to_minute: number | null;
  ledger_entry_id: number | null;
  checkout_session_id: string | null;
  /** The gift voucher redeemed into it. */
  gift_voucher_id: ColumnType<number | null, number | null | undefined, number | null>;
  expires_at: Timestamp;
  expiry_notice_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
};

/** A gift voucher (migration 0016_gift_vouchers): bought, issued once paid, redeemed into a wallet. */
export type GiftVouchersTable = {
  id: GeneratedAlways<number>;
  code: string | null;
  buyer_id: string | null;
  amount_cents: number;
  recipient_name: string;
  recipient_email: string;
  message: string | null;
  locale: LocaleCode;
  branch_id: number;
  checkout_session_id: string | null;
  ledger_entry_id: number | null;
  issued_at: Date | null;
  expires_at: Date | null;
  redeemed_at: Date | null;
  redeemed_by: string | null;
  lot_id: number | null;
  created_at: Date;
};

export type CreditMovementKind = 'grant' | 'spend' | 'return' | 'release' | 'expire';

/** One change of a lot of credit, never changed (the credit ledger). */
export type CreditMovementsTable = {
  id: GeneratedAlways<number>;
  lot_id: Immutable<number>;
  kind: Immutable<CreditMovementKind>;
  amount: Immutable<number>;
  value_cents: ColumnType<number, number | undefined, never>;
  booking_id: ColumnType<number | null, number | null | undefined, never>;
  actor_type: Immutable<LedgerActorType>;
  actor_id: ColumnType<string | null, string | null | undefined, never>;
  actor_name: ColumnType<string | null, string | null | undefined, never>;
  reason: ColumnType<string | null, string | null | undefined, never>;
  occurred_at: ColumnType<Date, Date | string, never>;
  recorded_at: ColumnType<Date, Date | string | undefined, never>;
};

export type BookingGuestsTable = {
  id: GeneratedAlways<number>;
  booking_id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  lock_code_id: number | null;
  created_at: CreatedAt;
  removed_at: Date | null;
  entered_at: Date | null;
  forgotten_at: Date | null;
};

/** The texts of a broadcast by language: pt always, the others as the operator wrote them. */
export type BroadcastText = { subject: string; body: string };
export type BroadcastTexts = { pt: BroadcastText } & Partial<
  Record<Exclude<LocaleCode, 'pt'>, BroadcastText>
>;

export type BroadcastsTable = {
  id: GeneratedAlways<number>;
  idempotency_key: string;
  branch_id: number;
  starts_at: Timestamp;
  ends_at: Timestamp;
  by_email: boolean;
  by_sms: boolean;
  texts: Json<BroadcastTexts>;
  recipients: number;
  created_at: Timestamp;
  created_by: number | null;
  created_by_email: string;
};

/** `closed`: the booking was cancelled or ended before an owner decided (migration 0021_refund_approvals). */
export type RefundApprovalStatus = 'pending' | 'approved' | 'refused' | 'closed';

/** A staff cancellation whose refund is above the staff ceiling, waiting for (or given) an owner's decision. */
export type RefundApprovalsTable = {
  id: GeneratedAlways<number>;
  booking_id: number;
  refund_mode: 'policy' | 'full' | 'amount';
  amount_cents: number | null;
  refund_cents: number;
  reason: string;
  requested_at: Timestamp;
  requested_by: number | null;
  requested_by_email: string;
  status: Generated<RefundApprovalStatus>;
  decided_at: Timestamp | null;
  decided_by: number | null;
  decided_by_email: string | null;
  decision_reason: string | null;
  refunded_cents: number | null;
};

export type MemberNotesTable = {
  id: GeneratedAlways<number>;
  user_id: string;
  body: string;
  created_at: Timestamp;
  created_by: number | null;
  created_by_email: string;
};

export type Database = {
  users: UsersTable;
  verification_codes: VerificationCodesTable;
  password_reset_tokens: PasswordResetTokensTable;
  blocked_contacts: BlockedContactsTable;
  branches: BranchesTable;
  branch_images: BranchImagesTable;
  price_rules: PriceRulesTable;
  dated_price_grids: DatedPriceGridsTable;
  price_overrides: PriceOverridesTable;
  slots: SlotsTable;
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
  checkout_sessions: CheckoutSessionsTable;
  bookings: BookingsTable;
  booking_series: BookingSeriesTable;
  booking_guests: BookingGuestsTable;
  credit_packs: CreditPacksTable;
  credit_lots: CreditLotsTable;
  credit_movements: CreditMovementsTable;
  gift_vouchers: GiftVouchersTable;
  payment_events: PaymentEventsTable;
  refunds: RefundsTable;
  booking_moves: BookingMovesTable;
  ledger_day_totals: LedgerDayTotalsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_entry_bookings: LedgerEntryBookingsTable;
  tax_documents: TaxDocumentsTable;
  tax_document_counters: TaxDocumentCountersTable;
  lock_codes: LockCodesTable;
  lock_code_doors: LockCodeDoorsTable;
  lock_events: LockEventsTable;
  lock_devices: LockDevicesTable;
  virtual_door_codes: VirtualDoorCodesTable;
  outbox: OutboxTable;
  settings: SettingsTable;
  rate_limit_counters: RateLimitCountersTable;
  operators: OperatorsTable;
  operator_branches: OperatorBranchesTable;
  operator_setup_tokens: OperatorSetupTokensTable;
  operator_sessions: OperatorSessionsTable;
  operator_totp_steps: OperatorTotpStepsTable;
  audit_log: AuditLogTable;
  branch_closures: BranchClosuresTable;
  branch_bookable_periods: BranchBookablePeriodsTable;
  door_unlocks: DoorUnlocksTable;
  broadcasts: BroadcastsTable;
  member_notes: MemberNotesTable;
  refund_approvals: RefundApprovalsTable;
};
