import type { Schemas } from './support/accounts.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadAuthKeys } from '../../server/accounts/secrets.ts';
import { createSessionTokens } from '../../server/accounts/session-tokens.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import type { Db } from '../../server/db/database.ts';
import { createCoupon, lisbonSlot } from './bookings-fixtures.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import { seededRandom as prng } from './support/random.ts';
import {
  accountTestConfig,
  bookAndPayOverHttp,
  newClient,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
} from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// A fuzzer driven by the contract: for every operation of openapi/openapi.yaml it takes a request that is
// well formed but refused for a business reason (a wrong password, a price that does not match, ...), then
// breaks it one way at a time: wrong types, missing and extra fields, huge and odd strings and numbers,
// injection payloads, prototype-pollution keys, oversized, malformed and mistyped bodies, bad tokens.
// Every answer must be a 4xx {detail, code} (or, for a payload the contract allows, any non-5xx answer),
// and no row of any application table may appear or disappear. Generation is seeded: a failure reproduces.

const SEED = 20261122;
const root = path.resolve(import.meta.dirname, '../..');
type Schema = Record<string, unknown> & { $ref?: string };
const spec = parse(readFileSync(path.join(root, 'openapi/openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

function resolve<T = Schema>(node: unknown): T {
  let current = node as Schema;
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], spec) as Schema;
  }
  return current as T;
}

type Parameter = { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema };
type Operation = {
  id: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body: { mediaTypes: string[]; schema: Schema } | null;
  secured: boolean;
  /** Who the operation is for: a member's token (bearerAuth) or an operator's (operatorAuth). */
  forOperators: boolean;
};

function operations(): Operation[] {
  const found: Operation[] = [];
  for (const [route, item] of Object.entries(spec.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const operation = raw as {
        operationId: string;
        parameters?: unknown[];
        requestBody?: unknown;
        security?: Record<string, unknown>[];
      };
      const requestBody = operation.requestBody
        ? resolve<{ content: Record<string, { schema: Schema }> }>(operation.requestBody)
        : null;
      const mediaTypes = requestBody ? Object.keys(requestBody.content) : [];
      found.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path: route,
        parameters: (operation.parameters ?? []).map((parameter) => {
          const resolved = resolve<Parameter>(parameter);
          return { ...resolved, required: Boolean(resolved.required), schema: resolve(resolved.schema) };
        }),
        body: requestBody
          ? { mediaTypes, schema: resolve(requestBody.content[mediaTypes[0]!]!.schema) }
          : null,
        secured: (operation.security ?? []).length > 0,
        forOperators: (operation.security ?? []).some((requirement) => 'operatorAuth' in requirement),
      });
    }
  }
  return found;
}

/** Strings a contract may well allow, aimed at what lies behind validation: SQL, HTML, encodings, NUL. */
const PAYLOADS = [
  "' or '1'='1",
  "'; drop table bookings; --",
  "1' union select password_hash from users --",
  '"><script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  'javascript:alert(document.cookie)',
  'data:text/html,<script>alert(1)</script>',
  '//evil.example/x',
  '\u202eevil\u202c',
  'שלום עולם',
  '💪🏋️‍♀️👨‍👩‍👧',
  'nul\u0000byte',
  '\u0000',
  'lone \ud800 surrogate',
  '\udfff',
  'a\r\nX-Injected: 1',
  '%00%27',
  'NaN',
  'Infinity',
  '-1e309',
  '__proto__',
  'constructor.prototype',
  ' ',
  'x'.repeat(300),
];

const NUMBERISH = [
  'abc',
  '1.5',
  '-1',
  '0',
  '99999999999999999999',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '0x10',
  '1;1',
];

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  return [];
}

/** Values of the wrong type or outside the schema's bounds: each one breaks the contract. */
function invalidValues(raw: Schema): unknown[] {
  const schema = resolve(raw);
  const types = typesOf(schema);
  const values: unknown[] = [];
  if (!types.includes('null')) values.push(null);
  if ('const' in schema) values.push(typeof schema.const === 'number' ? 2 : 'other');
  if (schema.enum) values.push('zz', 7);
  if (types.includes('string')) {
    values.push(12, true, {}, [], ['a']);
    if (typeof schema.minLength === 'number' && schema.minLength > 0) values.push('');
    if (typeof schema.maxLength === 'number') values.push('y'.repeat(schema.maxLength + 1));
    if (schema.format === 'email') values.push('not-an-email', 'a@', '@b.c', 'a b@c.d');
    if (schema.format === 'date-time') {
      values.push(
        '2026-13-40T99:99:99Z',
        '0000-01-01T00:00:00Z',
        '9999-12-31T23:59:59Z',
        '2026-02-30T10:00:00Z',
      );
    }
    if (schema.format === 'date') values.push('2026-02-30', '0000-01-01', '1999-12-31', '2101-01-01');
    if (typeof schema.pattern === 'string') values.push('<script>');
  }
  if (types.includes('integer') || types.includes('number')) {
    values.push('1', '', true, [], {}, 'NaN', 'Infinity', 1e308, -1e308);
    if (types.includes('integer')) values.push(1.5, 2 ** 53 + 2);
    if (typeof schema.minimum === 'number') values.push(schema.minimum - 1);
    if (typeof schema.maximum === 'number') values.push(schema.maximum + 1);
    if (typeof schema.exclusiveMinimum === 'number') values.push(schema.exclusiveMinimum);
  }
  if (types.includes('boolean')) values.push('true', 1, 0, 'yes', []);
  if (types.includes('array')) {
    values.push({}, 'x', 1);
    if (typeof schema.minItems === 'number' && schema.minItems > 0) values.push([]);
    const item = schema.items ? validValue(schema.items as Schema) : 1;
    if (typeof schema.maxItems === 'number')
      values.push(Array.from({ length: schema.maxItems + 1 }, () => item));
    if (schema.uniqueItems) values.push([item, item]);
    if (schema.items) for (const bad of invalidValues(schema.items as Schema).slice(0, 6)) values.push([bad]);
  }
  if (types.includes('object')) values.push([], 'x', 1);
  return values;
}

/** A value that satisfies the schema, for fields the case does not break. */
function validValue(raw: Schema): unknown {
  const schema = resolve(raw);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = typesOf(schema).find((candidate) => candidate !== 'null');
  switch (type) {
    case 'string':
      if (schema.format === 'email') return 'fuzz.nobody@example.com';
      if (schema.format === 'date-time') return '2026-03-25T10:00:00Z';
      if (schema.format === 'date') return '2026-03-25';
      if (schema.pattern === '^[0-9 ]+$') return '4000 0000 0000 0002';
      return 'fuzz-value';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'array':
      return [validValue(schema.items as Schema)];
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        result[name] = validValue(property);
      }
      return result;
    }
    default:
      return null;
  }
}

type Expectation = 'refused' | 'harmless';
type FuzzCase = { operation: string; label: string; expect: Expectation; request: InjectOptions };

type Seeded = {
  token: string;
  badTokens: Record<string, string>;
  email: string;
  memberId: string;
  branchId: number;
  slotDate: string;
  freeSlot: number;
  bookingId: number;
  sessionId: string;
  /** A confirmed, paid booking of the member and its slot (for the console's cancel and move). */
  paidBookingId: number;
  paidSlotId: number;
  /** An owner's console session, and the token of one that was ended (logged out). */
  operatorToken: string;
  endedOperatorToken: string;
  operatorEmail: string;
  /** Another branch's slug, a coupon's code and a closure in force: what a change may not take again. */
  otherBranchSlug: string;
  couponCode: string;
  closure: { starts_at: string; ends_at: string };
};

const NO_SUCH_UUID = '00000000-0000-4000-8000-000000000000';
const NO_SUCH_ID = '999999';

/**
 * Path values of the console's operations that change something: each names what the change is refused for
 * (nothing by that id, a paid booking refunded more than was paid or moved onto its own slot, a member whose
 * e-mail the confirmation does not match). Reads name what exists.
 */
function consolePathValues(operation: Operation, seeded: Seeded): Record<string, string> {
  switch (operation.id) {
    case 'endOperatorSession':
      return { session_id: NO_SUCH_UUID };
    case 'adminCancelBooking':
    case 'adminMoveBooking':
    case 'getAdminBooking':
    case 'listAdminMoveOptions':
      return { booking_id: String(seeded.paidBookingId) };
    case 'getMember':
    case 'eraseMember':
      return { member_id: seeded.memberId };
    case 'updateAdminCoupon':
      return { coupon_code: 'NO-SUCH-COUPON' };
    case 'unlockBranchDoor':
      // Not a door of the branch (404): nothing is opened, nothing audited.
      return { device_id: 'no-such-door' };
    case 'setBranchOnCall':
      return { branch_id: NO_SUCH_ID };
    default:
      // Removing an operator, reopening a closure, unblocking a contact, blocking, unblocking or exporting a
      // member, approving or refusing a refund: nobody by that id (404).
      return {
        operator_id: NO_SUCH_ID,
        closure_id: NO_SUCH_ID,
        blocked_id: NO_SUCH_ID,
        member_id: NO_SUCH_UUID,
        approval_id: NO_SUCH_ID,
      };
  }
}

/** Bodies of the console's changes, each refused for a business reason (or a read that changes nothing). */
function consoleBody(operation: Operation, seeded: Seeded): Record<string, unknown> | undefined {
  const branch = {
    slug: seeded.otherBranchSlug,
    name: 'Fuzz branch',
    location: 'Rua do Fuzz 1',
    latitude: 38.7,
    longitude: -9.1,
    map_url: 'https://maps.example/embed',
    time_zone: 'Europe/Lisbon',
    images: ['https://cdn.example/fuzz.jpg', '/images/fuzz.svg'],
    descriptions: { pt: '<p>pt</p>', en: '<p>en</p>', fr: '<p>fr</p>', de: '<p>de</p>', sk: '<p>sk</p>' },
  };
  switch (operation.id) {
    case 'operatorLogin':
      return { email: seeded.operatorEmail, password: 'not the password 1', totp_code: '000000' };
    case 'createOperator':
      // An operator with this e-mail exists (409).
      return { email: seeded.operatorEmail, role: 'staff', locale: 'en' };
    case 'adminCancelBooking':
      return { refund: { mode: 'amount', amount_eur: 500 }, reason: 'fuzz' };
    case 'adminMoveBooking':
      return { time_slot_id: seeded.paidSlotId, reason: 'fuzz' };
    case 'previewClosure':
      return { branch_id: seeded.branchId, ...seeded.closure, reason: 'fuzz' };
    case 'createClosure':
      // The closure in force has this very period (409).
      return { branch_id: seeded.branchId, ...seeded.closure, reason: 'fuzz' };
    case 'createBroadcast':
      // A period that ends when it starts (400): no broadcast and no message is written.
      return {
        idempotency_key: '00000000-0000-4000-8000-00000000f022',
        branch_id: seeded.branchId,
        starts_at: '2026-03-25T10:00:00Z',
        ends_at: '2026-03-25T10:00:00Z',
        channels: ['email', 'sms'],
        texts: { pt: { subject: 'fuzz', body: 'fuzz' } },
      };
    case 'createAdminBranch':
      // Another branch has this slug (409).
      return { ...branch, default_price_eur: 15 };
    case 'updateAdminBranch':
    case 'previewBranchUpdate':
      return { ...branch, slug: seeded.otherBranchSlug };
    case 'setBranchDatePrice':
      // Two bands of the date overlap (422). (Removing a date's price names a date that has none: 404.)
      return {
        day_price_eur: 15,
        bands: [
          { from: '08:00', to: '10:00', price_eur: 20 },
          { from: '09:00', to: '11:00', price_eur: 25 },
        ],
      };
    case 'setBranchPrices':
      // Two bands overlap on Monday (422).
      return {
        default_price_eur: 15,
        bands: [
          { weekday: 1, from: '08:00', to: '10:00', price_eur: 20 },
          { weekday: 1, from: '09:00', to: '11:00', price_eur: 25 },
        ],
      };
    case 'createAdminCoupon':
      // A coupon with this code exists (409), and its window ends before it starts (422) should the code change.
      return {
        code: seeded.couponCode,
        discount: 0.1,
        valid_from: '2026-04-01T00:00:00Z',
        valid_until: '2026-03-01T00:00:00Z',
        max_uses: null,
        max_uses_per_user: null,
        registered_before: null,
        active: true,
      };
    case 'updateAdminCoupon':
      // No coupon has this code (404), and the window ends before it starts (422) should one have it.
      return { discount: 0.2, valid_from: '2026-04-01T00:00:00Z', valid_until: '2026-03-01T00:00:00Z' };
    case 'eraseMember':
      return { reason: 'fuzz', confirm_email: 'fuzz.nobody@example.com' };
    case 'setStaffRefundCeiling':
      // A ceiling with a tenth of a cent (422): nothing is stored, nothing audited.
      return { staff_refund_ceiling_eur: 10.005 };
    default:
      // The contract's own values refuse the rest: a refund policy without its 0-hour threshold, a contact to
      // block that is no e-mail address.
      return undefined;
  }
}

/** Well-formed requests that the server still refuses (or answers without writing anything). */
function baseRequest(operation: Operation, seeded: Seeded) {
  const pathValues: Record<string, string> = {
    branchId: String(seeded.branchId),
    branch_id: String(seeded.branchId),
    date: seeded.slotDate,
    code: operation.id === 'getCoupon' ? 'NO-SUCH-COUPON' : '000000',
    // Expiring or paying a session late is a write, so those calls name a session that does not exist (404).
    session_id: ['expireDevCheckoutSession', 'payDevCheckoutSessionLate'].includes(operation.id)
      ? 'cs_local_no_such_session'
      : seeded.sessionId,
    reset_token: 'A'.repeat(43),
    booking_id: String(seeded.bookingId),
    ...(operation.path.startsWith('/admin/') ? consolePathValues(operation, seeded) : {}),
  };
  const consolePeriod = operation.path.startsWith('/admin/');
  const queryValues: Record<string, string> = {
    stripe_session_id: seeded.sessionId,
    email: 'fuzz.nobody@example.com',
    // The console's periods are dates; the development outbox's `to` is an address.
    from: '2026-03-01',
    to: consolePeriod ? '2026-03-31' : 'fuzz.nobody@example.com',
  };
  const headerValues: Record<string, string> = { locale: 'en', 'stripe-signature': 't=1,v1=00' };
  let body: Record<string, unknown> | null = operation.body
    ? (validValue(operation.body.schema) as Record<string, unknown>)
    : null;
  switch (operation.id) {
    case 'register':
      // Passwords that differ: refused before anything is written.
      body = { ...body, email: seeded.email, confirm_password: 'a different password 1', tax_id: null };
      break;
    case 'updateMe':
      // A phone number the service refuses (too few digits), whatever else the case changes.
      body = { ...body, phone_number: '+1', password: null, tax_id: null };
      break;
    case 'enterDevDoor':
      // A code no door holds: the door stays shut and nothing is recorded.
      body = { code: '000000', at: '2026-03-26T10:05:00Z' };
      break;
    case 'login':
      body = { username: seeded.email, password: 'not the password 1' };
      break;
    case 'createBooking':
      body = {
        time_slot_id: [seeded.freeSlot],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 9999,
      };
      break;
    case 'buyGiftVoucher':
      // An amount no one can pay (a tenth of a cent): refused before a voucher or a checkout exists.
      body = {
        amount_eur: 10.005,
        recipient_name: 'Rita',
        recipient_email: 'rita@example.pt',
        message: null,
      };
      break;
    case 'cancelBookings':
      body = { booking: [{ booking_id: seeded.bookingId, expected_refund_eur: 9999 }] };
      break;
    case 'moveBooking':
      // A difference the server never computes: refused before anything moves.
      body = { time_slot_id: seeded.freeSlot, expected_price_difference_eur: 9999 };
      break;
    case 'completeLocalCheckout':
      body = { card_number: '4000 0000 0000 0002' };
      break;
    case 'stripeWebhook':
      body = {
        id: 'evt_fuzz',
        type: 'checkout.session.completed',
        data: { object: { id: seeded.sessionId } },
      };
      break;
    default:
      body = consoleBody(operation, seeded) ?? body;
      break;
  }
  return { pathValues, queryValues, headerValues, body };
}

function buildUrl(
  operation: Operation,
  pathValues: Record<string, string>,
  query: Record<string, string>,
  rawPath: Record<string, string> = {},
) {
  let url = `/api${operation.path}`;
  for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'path')) {
    const value = rawPath[parameter.name] ?? encodeURIComponent(pathValues[parameter.name] ?? 'x');
    url = url.replace(`{${parameter.name}}`, value);
  }
  const search = Object.entries(query)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return search ? `${url}?${search}` : url;
}

/** Encodes a string for a URL even when it holds a lone surrogate (which encodeURIComponent refuses). */
function encodeLoosely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value
      .replace(/[\ud800-\udfff]/g, '%ED%A0%80')
      .replace(/[^A-Za-z0-9%]/g, (c) => encodeURIComponent(c));
  }
}

function generateCases(operation: Operation, seeded: Seeded, random: ReturnType<typeof prng>): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const base = baseRequest(operation, seeded);
  const queryDefaults = Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === 'query' && parameter.required)
      .map((parameter) => [parameter.name, base.queryValues[parameter.name] ?? 'x']),
  );
  const headerDefaults = Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === 'header' && parameter.name !== 'locale')
      .map((parameter) => [parameter.name, base.headerValues[parameter.name] ?? 'x']),
  );
  const mediaType = operation.body?.mediaTypes[0];
  const isForm = mediaType === 'application/x-www-form-urlencoded';
  const encode = (body: unknown): string =>
    isForm
      ? new URLSearchParams(
          Object.entries(body as Record<string, unknown>).map(([key, value]) => [key, String(value)]),
        ).toString()
      : JSON.stringify(body);
  // Deleting the account and logging out (a member or an operator) are the calls whose well-formed request
  // cannot be refused for a business reason: their cases carry a token that is no longer valid, so they exercise
  // everything in front of authentication (which comes first: all of them are 401).
  const validToken = operation.forOperators ? seeded.operatorToken : seeded.token;
  const token =
    operation.id === 'deleteAccount' || operation.id === 'logout'
      ? seeded.badTokens.expired!
      : operation.id === 'operatorLogout'
        ? seeded.endedOperatorToken
        : validToken;
  const auth: Record<string, string> = operation.secured ? { authorization: `Bearer ${token}` } : {};

  const add = (
    label: string,
    expect: Expectation,
    changes: {
      url?: string;
      query?: Record<string, string>;
      rawPath?: Record<string, string>;
      headers?: Record<string, string | undefined>;
      payload?: string | null;
      contentType?: string | null;
    } = {},
  ) => {
    const url =
      changes.url ?? buildUrl(operation, base.pathValues, changes.query ?? queryDefaults, changes.rawPath);
    const payload =
      changes.payload === undefined ? (base.body ? encode(base.body) : undefined) : changes.payload;
    const contentType =
      changes.contentType === undefined ? (operation.body ? mediaType : undefined) : changes.contentType;
    const headers: Record<string, string> = { locale: 'en', ...auth, ...headerDefaults };
    if (contentType) headers['content-type'] = contentType;
    for (const [key, value] of Object.entries(changes.headers ?? {})) {
      if (value === undefined) delete headers[key];
      else headers[key] = value;
    }
    cases.push({
      operation: operation.id,
      label,
      expect,
      request: {
        method: operation.method,
        url,
        headers,
        ...(payload === null || payload === undefined ? {} : { payload }),
      },
    });
  };

  // The well-formed base itself: refused (or answered) without writing anything.
  add('the base request', 'harmless');

  // Parameters.
  for (const parameter of operation.parameters) {
    const badValues =
      typesOf(parameter.schema).includes('integer') || parameter.schema.format === 'date'
        ? [...NUMBERISH]
        : invalidValues(parameter.schema).filter((value): value is string => typeof value === 'string');
    if (parameter.schema.pattern || parameter.schema.format === 'date') {
      badValues.push(
        '2026-02-30',
        '2026-1-1',
        '20260101',
        '9999-99-99',
        '2026-03-25T00:00',
        '0000-01-01',
        '1999-12-31',
        '2101-01-01',
      );
    }
    for (const value of badValues) {
      if (parameter.in === 'path') {
        add(`path ${parameter.name}=${JSON.stringify(value).slice(0, 40)}`, 'refused', {
          rawPath: { [parameter.name]: encodeURIComponent(value) || '%20' },
        });
      } else if (parameter.in === 'query') {
        add(`query ${parameter.name}=${JSON.stringify(value).slice(0, 40)}`, 'refused', {
          query: { ...queryDefaults, [parameter.name]: value },
        });
      } else if (parameter.name !== 'locale') {
        add(`header ${parameter.name}=${JSON.stringify(value).slice(0, 40)}`, 'refused', {
          headers: { [parameter.name]: value },
        });
      }
    }
    if (parameter.required && parameter.in === 'query') {
      const { [parameter.name]: _omitted, ...rest } = queryDefaults;
      add(`query ${parameter.name} missing`, 'refused', { query: rest });
      add(`query ${parameter.name} twice`, 'harmless', {
        url: `${buildUrl(operation, base.pathValues, queryDefaults)}&${parameter.name}=other`,
      });
    }
    if (parameter.required && parameter.in === 'header' && parameter.name !== 'locale') {
      add(`header ${parameter.name} missing`, 'refused', { headers: { [parameter.name]: undefined } });
    }
    // Strings the contract may allow go deeper; a numeric parameter refuses them.
    const numeric = typesOf(parameter.schema).includes('integer');
    for (const payload of random.sample(PAYLOADS, PAYLOADS.length)) {
      const label = `${parameter.in} ${parameter.name} payload ${JSON.stringify(payload).slice(0, 30)}`;
      if (parameter.in === 'path') {
        add(label, numeric ? 'refused' : 'harmless', {
          rawPath: { [parameter.name]: encodeLoosely(payload) || '%20' },
        });
      } else if (parameter.in === 'query') {
        add(label, numeric ? 'refused' : 'harmless', {
          url: buildUrl(operation, base.pathValues, {}).concat(
            `?${Object.entries({ ...queryDefaults, [parameter.name]: payload })
              .map(([key, value]) => `${key}=${encodeLoosely(value)}`)
              .join('&')}`,
          ),
        });
      } else if ([...payload].every((character) => character >= ' ' && character <= '~')) {
        // Headers carry visible ASCII only; the HTTP layer itself refuses anything else.
        add(label, 'harmless', { headers: { [parameter.name]: payload } });
      }
    }
  }
  add('an overlong locale header', 'refused', { headers: { locale: 'e'.repeat(36) } });
  add('a locale header of odd characters', 'harmless', { headers: { locale: 'xx-\u00e9\u00e8' } });
  add('a charset the body is not in', 'harmless', {
    contentType: operation.body ? `${mediaType}; charset=utf-16` : null,
  });
  add('unexpected query parameters', 'harmless', {
    url: `${buildUrl(operation, base.pathValues, queryDefaults)}${Object.keys(queryDefaults).length ? '&' : '?'}__proto__[polluted]=1&constructor[prototype][polluted]=1&price=0`,
  });

  // Tokens.
  if (operation.secured) {
    add('no authorization header', 'refused', { headers: { authorization: undefined } });
    const badTokens = {
      ...seeded.badTokens,
      // The other kind's genuine token, and an operator session that was ended.
      ...(operation.forOperators
        ? { "a member's token": seeded.token, 'an ended operator session': seeded.endedOperatorToken }
        : { "an operator's token": seeded.operatorToken }),
    };
    for (const [name, bad] of Object.entries(badTokens)) {
      add(`token: ${name}`, 'refused', { headers: { authorization: `Bearer ${bad}` } });
    }
    add('a Basic authorization', 'refused', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    add('a bare Bearer', 'refused', { headers: { authorization: 'Bearer' } });
    add('a lower-case scheme with the token twice', 'refused', {
      headers: { authorization: `bearer ${validToken} ${validToken}` },
    });
  }

  // Bodies.
  if (operation.body && base.body) {
    const schema = operation.body.schema;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = (schema.required ?? []) as string[];
    const body = base.body;

    add('no body', 'refused', { payload: null });
    add('an empty body', 'refused', { payload: '' });
    add('an oversized body', 'refused', {
      payload: isForm
        ? `password=${'p'.repeat(70 * 1024)}`
        : JSON.stringify({ ...body, padding: 'p'.repeat(70 * 1024) }),
    });
    add('an oversized body of one huge number', 'refused', {
      payload: isForm ? `username=${'9'.repeat(70 * 1024)}` : `{"n": ${'9'.repeat(70 * 1024)}}`,
    });
    for (const contentType of [
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
      isForm ? 'application/json' : 'application/x-www-form-urlencoded',
      'application/octet-stream',
      'application/x-www-form-urlencoded; charset=nope',
      'garbage',
    ]) {
      if (contentType.split(';')[0] === mediaType && !contentType.includes(';')) continue;
      add(`content type ${contentType}`, 'refused', { contentType });
    }
    if (isForm) {
      for (const raw of ['a=%zz&b', '=&&=', 'username[]=a&username[]=b', '%', 'username=a@b.co&password']) {
        add(`form body ${raw}`, 'refused', { payload: raw });
      }
      add('a form body with a field twice', 'refused', {
        payload: `${encode(body)}&username=other@example.com`,
      });
    } else {
      for (const raw of [
        '{',
        '{"a":',
        '[1,,]',
        "{'a':1}",
        'NaN',
        '{"a": NaN}',
        '{"a": Infinity}',
        '{"a": -Infinity}',
        '{"a": 1e99999}',
        '\u0000',
        '\ufeff{}',
        'undefined',
        '{"a":"\\ud800"}',
        '{"a":"\\u0000"}',
        '[]',
        '"text"',
        '42',
        'null',
        'true',
        '{}',
      ]) {
        add(`JSON body ${JSON.stringify(raw)}`, 'refused', { payload: raw });
      }
      add('a deeply nested body', 'refused', { payload: `${'['.repeat(5000)}${']'.repeat(5000)}` });
      add('a __proto__ key', 'refused', {
        payload: `{"__proto__": {"polluted": true}, ${JSON.stringify(body).slice(1)}`,
      });
      add('a constructor.prototype key', 'refused', {
        payload: JSON.stringify({ ...body, constructor: { prototype: { polluted: true } } }),
      });
    }
    for (const name of required) {
      const { [name]: _omitted, ...rest } = body;
      add(`body field ${name} missing`, 'refused', { payload: encode(rest) });
    }
    for (const extra of ['price', 'status', 'user_id', 'paid', 'is_admin', 'id']) {
      if (extra in properties || schema.additionalProperties === true) continue;
      add(`extra body field ${extra}`, 'refused', { payload: encode({ ...body, [extra]: 0 }) });
    }
    for (const [name, property] of Object.entries(properties)) {
      const values = invalidValues(property).filter((value) =>
        isForm ? typeof value === 'string' || typeof value === 'number' : true,
      );
      for (const value of values) {
        add(`body ${name}=${JSON.stringify(value)?.slice(0, 40)}`, 'refused', {
          payload: encode({ ...body, [name]: value }),
        });
      }
      if (typesOf(resolve(property)).includes('string')) {
        for (const payload of random.sample(PAYLOADS, 12)) {
          add(`body ${name} payload ${JSON.stringify(payload).slice(0, 30)}`, 'harmless', {
            payload: encode({ ...body, [name]: payload }),
          });
        }
      }
    }
  } else {
    add('a body where none is expected', 'harmless', {
      payload: '{"price": 0, "__proto__": {"polluted": true}}',
      contentType: 'application/json',
    });
  }
  return cases;
}

async function tableCounts(db: Db): Promise<Record<string, number>> {
  // Attempt counters are meant to move on refused attempts (that is how rate limits work).
  const { rows } = await sql<{ tablename: string }>`
    select tablename from pg_tables
    where schemaname = 'public' and tablename not like 'kysely_%' and tablename <> 'rate_limit_counters'
    order by tablename`.execute(db);
  // One statement for all the tables: it runs after every operation.
  const counts = sql.join(
    rows.map(
      ({ tablename }) => sql`(select count(*)::int from ${sql.table(tablename)}) as ${sql.ref(tablename)}`,
    ),
  );
  const result = await sql<Record<string, number>>`select ${counts}`.execute(db);
  return result.rows[0]!;
}

function errorShapeProblem(statusCode: number, body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `status ${statusCode} with a body that is not JSON: ${body.slice(0, 120)}`;
  }
  const keys = parsed && typeof parsed === 'object' ? Object.keys(parsed).sort() : [];
  const { detail, code, fields } = (parsed ?? {}) as { detail?: unknown; code?: unknown; fields?: unknown };
  // A validation error adds the refused fields (the contract's FieldProblem); every other error is {detail, code}.
  const validationFields =
    code === 'validation_failed' &&
    keys.join(',') === 'code,detail,fields' &&
    Array.isArray(fields) &&
    fields.length > 0 &&
    fields.every(
      (item) =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as { field?: unknown }).field === 'string' &&
        typeof (item as { problem?: unknown }).problem === 'string',
    );
  if (
    (keys.join(',') !== 'code,detail' && !validationFields) ||
    typeof detail !== 'string' ||
    typeof code !== 'string'
  ) {
    return `status ${statusCode} with a body that is not exactly {detail, code}: ${body.slice(0, 160)}`;
  }
  return null;
}

describe.each(PGLITE_ONLY)('the contract fuzzer on %s', (target) => {
  let server: AccountApp;
  let seeded: Seeded;

  beforeAll(async () => {
    server = await startAccountApp(target);
    const { app } = server;
    const branchId = await createBranch(app.db);
    const heldSlot = await lisbonSlot(app.db, branchId, '2026-03-25T10:00');
    const freeSlot = await lisbonSlot(app.db, branchId, '2026-03-25T11:00');
    const caller = newClient(app);
    const account = await verifiedAccount(caller, app);
    const created = await caller.json(
      'POST',
      '/api/bookings/',
      {
        time_slot_id: [heldSlot],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: 15,
      },
      account.token,
    );
    expect(created.statusCode).toBe(201);
    const sessionId = (
      created.json<Schemas['CreateBookingResponse']>().checkout_session.clientSecret as string
    ).split('_secret_')[0]!;
    const booking = await app.db.selectFrom('bookings').select(['id', 'user_id']).executeTakeFirstOrThrow();
    // A paid booking, an owner's console session and one that was ended, another branch, a coupon and a
    // closure in force: what the console's changes are refused against.
    const paidSlotId = await lisbonSlot(app.db, branchId, '2026-03-26T10:00');
    await bookAndPayOverHttp(caller, account.token, paidSlotId);
    const paid = await app.db
      .selectFrom('bookings')
      .select('id')
      .where('slot_id', '=', paidSlotId)
      .where('status', '=', 'confirmed')
      .executeTakeFirstOrThrow();
    const owner = await loggedInOperator(app, server.clock, 'fuzz.owner@gym.example', 'owner');
    const ended = await loggedInOperator(app, server.clock, 'fuzz.ended@gym.example', 'staff');
    expect(
      (await ended.client.json('POST', '/api/admin/auth/logout', undefined, ended.token)).statusCode,
    ).toBe(204);
    const otherBranchSlug = (
      await app.db
        .selectFrom('branches')
        .select('slug')
        .where('id', '=', await createBranch(app.db))
        .executeTakeFirstOrThrow()
    ).slug;
    await createCoupon(app.db, { code: 'FUZZ10', discount: 0.1 });
    const closure = { starts_at: '2026-03-28T00:00:00Z', ends_at: '2026-03-28T06:00:00Z' };
    const closed = await owner.client.json(
      'POST',
      '/api/admin/closures',
      { branch_id: branchId, ...closure, reason: 'fuzz' },
      owner.token,
    );
    expect(closed.statusCode).toBe(201);
    const user = await app.db
      .selectFrom('users')
      .select('token_version')
      .where('id', '=', booking.user_id)
      .executeTakeFirstOrThrow();

    const keys = await loadAuthKeys(app.db, accountTestConfig({ kind: 'pglite', dataDir: null }));
    const claims = { userId: booking.user_id!, tokenVersion: user.token_version };
    const expired = await createSessionTokens(keys.sessionToken, fixedClock('2026-01-01T00:00:00Z'), 1).issue(
      claims,
    );
    const [header, payload] = account.token.split('.') as [string, string, string];
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const wrongKey = await new SignJWT({ ver: user.token_version })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(booking.user_id!)
      .setIssuer('private-gym')
      .setAudience('private-gym-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not the server secret, not at all'));
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const reencode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    seeded = {
      token: account.token,
      email: account.email,
      memberId: booking.user_id!,
      paidBookingId: paid.id,
      paidSlotId,
      operatorToken: owner.token,
      endedOperatorToken: ended.token,
      operatorEmail: owner.email,
      otherBranchSlug,
      couponCode: 'FUZZ10',
      closure,
      branchId,
      slotDate: '2026-03-25',
      freeSlot,
      bookingId: booking.id,
      sessionId,
      badTokens: {
        garbage: 'garbage',
        'three empty parts': '..',
        'alg none': `${none}.${payload}.`,
        'wrong key': wrongKey,
        expired,
        'another sub, old signature': `${header}.${reencode({ ...decoded, sub: '00000000-0000-0000-0000-000000000000' })}.${account.token.split('.')[2]}`,
        'sub not a uuid': `${header}.${reencode({ ...decoded, sub: "1' or '1'='1" })}.${account.token.split('.')[2]}`,
        'a huge token': 'a'.repeat(8000),
        'unicode token': 'é.ü.ñ',
      },
    };
  }, 60_000);
  afterAll(async () => server?.close());

  it('answers every broken request of every operation with a 4xx {detail, code}, never a 5xx, and changes no row', async () => {
    const { app } = server;
    const random = prng(SEED);
    const all = operations();
    expect(all.length).toBeGreaterThanOrEqual(20);
    const problems: string[] = [];
    let sent = 0;
    /** Operations whose well-formed request was refused at the door (401): their cases reach nothing behind it. */
    const stoppedAtTheDoor: string[] = [];
    const before = await tableCounts(app.db);
    for (const operation of all) {
      const cases = generateCases(operation, seeded, random);
      const client = newClient(app);
      // The development tools answer loopback callers only (everyone else hears 404): they are called from there.
      const call = operation.path.startsWith('/dev/')
        ? (request: InjectOptions) => app.inject({ ...request, remoteAddress: '127.0.0.1' })
        : client.call;
      for (const fuzzCase of cases) {
        const response = await call(fuzzCase.request);
        sent += 1;
        const where = `${fuzzCase.operation}: ${fuzzCase.label}`;
        if (
          fuzzCase.label === 'the base request' &&
          response.statusCode === 401 &&
          response.json<{ code?: string }>().code === 'unauthorized'
        ) {
          stoppedAtTheDoor.push(operation.id);
        }
        if (response.statusCode >= 500) {
          problems.push(`${where} -> ${response.statusCode} ${response.body.slice(0, 160)}`);
        } else if (response.statusCode >= 400) {
          const problem = errorShapeProblem(response.statusCode, response.body);
          if (problem) problems.push(`${where} -> ${problem}`);
        } else if (fuzzCase.expect === 'refused') {
          problems.push(`${where} -> accepted with ${response.statusCode}`);
        }
      }
      const after = await tableCounts(app.db);
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        problems.push(`${operation.id}: rows changed ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
        Object.assign(before, after);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    console.log(`contract fuzzer (${target}): ${sent} requests over ${all.length} operations`);
    expect(problems).toEqual([]);
    // Every other operation, the console's included, is fuzzed behind a valid token of its kind.
    expect(stoppedAtTheDoor.sort()).toEqual(['deleteAccount', 'logout', 'operatorLogout']);
  }, 120_000);
});
