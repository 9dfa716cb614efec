import { readFileSync } from 'node:fs';
// A dependency of fastify-openapi-glue, which validates the contract the same way when the server starts.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIELD_LIMITS } from '../../machines/field-limits.ts';
import { serverFaults } from '../../machines/api.ts';
import { errorCatalogue } from '../../server/kernel/errors.ts';

type Schema = Record<string, unknown>;
type Reference = { $ref: string };
type Parameter = { name: string; in: string; required?: boolean; schema: Schema };
type MediaType = { schema?: Schema };
type Response = { description?: string; content?: Record<string, MediaType> };
type Operation = {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: (Parameter | Reference)[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response | (Reference & { description?: string })>;
};
type Document = {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    parameters: Record<string, Parameter>;
    responses: Record<string, Response>;
    securitySchemes: Record<string, Schema>;
  };
};

const contractPath = new URL('../../openapi/openapi.yaml', import.meta.url);
const document = parse(readFileSync(contractPath, 'utf8')) as Document;

// The client's calls (docs/decisions.md, 'Contract and API'), the webhooks (Stripe, Seam), the local checkout,
// health, the development outbox and virtual doors, "send my code again", and the operator console.
const expectedOperations = [
  ['validateToken', 'get', '/auth/token/validate', 'bearer'],
  ['getMe', 'get', '/auth/me', 'bearer'],
  ['updateMe', 'put', '/auth/me', 'bearer'],
  ['login', 'post', '/auth/login', 'public'],
  ['logout', 'post', '/auth/logout', 'bearer'],
  ['register', 'post', '/auth/register', 'public'],
  ['forgotPassword', 'post', '/auth/forgot-password', 'public'],
  ['resetPassword', 'post', '/auth/reset-password/{reset_token}', 'public'],
  ['confirmEmail', 'get', '/auth/confirm-email/{code}', 'public'],
  ['confirmPhoneNumber', 'get', '/auth/confirm-phone-number/{code}', 'public'],
  ['resendEmailVerification', 'post', '/auth/resend-email-verification', 'public'],
  ['resendPhoneVerification', 'post', '/auth/resend-phone-verification', 'public'],
  ['deleteAccount', 'delete', '/auth/delete-account', 'bearer'],
  ['listBranches', 'get', '/bookings/branches', 'public'],
  ['getBranchLocalTime', 'get', '/bookings/local-time/branch/{branchId}', 'public'],
  ['listSlots', 'get', '/bookings/slots/{branch_id}/{date}', 'public'],
  ['getCoupon', 'get', '/bookings/coupon-code/{code}', 'bearer'],
  ['createBooking', 'post', '/bookings/', 'bearer'],
  ['getCheckoutSessionStatus', 'get', '/checkout/session-status', 'bearer'],
  ['getRefundRatios', 'get', '/checkout/refund-ratios', 'public'],
  ['getSite', 'get', '/site', 'public'],
  ['listMyBookings', 'get', '/bookings/my-bookings', 'bearer'],
  ['cancelBookings', 'post', '/bookings/cancel-bookings', 'bearer'],
  ['moveBooking', 'post', '/bookings/{booking_id}/move', 'bearer'],
  ['findBookAgainSlot', 'get', '/bookings/{booking_id}/again', 'bearer'],
  ['previewWeeklySeries', 'get', '/bookings/weekly/{slot_id}', 'public'],
  ['listBookingGuests', 'get', '/bookings/{booking_id}/guests', 'bearer'],
  ['addBookingGuest', 'post', '/bookings/{booking_id}/guests', 'bearer'],
  ['listCreditPacks', 'get', '/credit-packs', 'public'],
  ['purchaseCreditPack', 'post', '/credit-packs/{pack_id}/purchase', 'bearer'],
  ['getWallet', 'get', '/wallet', 'bearer'],
  ['previewCreditCover', 'post', '/wallet/cover', 'bearer'],
  ['listMyGiftVouchers', 'get', '/gift-vouchers', 'bearer'],
  ['buyGiftVoucher', 'post', '/gift-vouchers', 'bearer'],
  ['redeemGiftVoucher', 'post', '/wallet/redeem', 'bearer'],
  ['removeBookingGuest', 'delete', '/bookings/{booking_id}/guests/{guest_id}', 'bearer'],
  ['stripeWebhook', 'post', '/checkout/webhook', 'public'],
  ['getLocalCheckoutPage', 'get', '/checkout/local/{session_id}', 'public'],
  ['completeLocalCheckout', 'post', '/checkout/local/{session_id}/complete', 'public'],
  ['getHealth', 'get', '/health', 'public'],
  ['listDevOutbox', 'get', '/dev/outbox', 'public'],
  ['expireDevCheckoutSession', 'post', '/dev/checkout/{session_id}/expire', 'public'],
  ['payDevCheckoutSessionLate', 'post', '/dev/checkout/{session_id}/pay-late', 'public'],
  ['payDevCheckoutVoucher', 'post', '/dev/checkout/{session_id}/pay-voucher', 'public'],
  ['sendDevDoorCode', 'post', '/dev/bookings/{booking_id}/send-door-code', 'public'],
  ['resendAccessCode', 'post', '/bookings/resend-code', 'bearer'],
  ['seamWebhook', 'post', '/locks/webhook', 'public'],
  ['getDevDoorPage', 'get', '/dev/doors/{branch_id}', 'public'],
  ['getDocumentPdf', 'get', '/documents/{document_id}/pdf', 'public'],
  ['enterDevDoor', 'post', '/dev/doors/{branch_id}/enter', 'public'],
  // The operator console (issue 18): operator tokens only, except login and the password-setup link.
  ['operatorLogin', 'post', '/admin/auth/login', 'public'],
  ['operatorSetupPassword', 'post', '/admin/auth/setup-password', 'public'],
  ['operatorLogout', 'post', '/admin/auth/logout', 'operator'],
  ['getOperatorMe', 'get', '/admin/me', 'operator'],
  ['listOperatorSessions', 'get', '/admin/sessions', 'operator'],
  ['endOperatorSession', 'delete', '/admin/sessions/{session_id}', 'operator'],
  ['listOperators', 'get', '/admin/operators', 'operator'],
  ['createOperator', 'post', '/admin/operators', 'operator'],
  ['removeOperator', 'delete', '/admin/operators/{operator_id}', 'operator'],
  ['setOperatorBranches', 'put', '/admin/operators/{operator_id}/branches', 'operator'],
  ['getAdminToday', 'get', '/admin/today', 'operator'],
  ['searchAdminBookings', 'get', '/admin/bookings', 'operator'],
  ['getAdminBooking', 'get', '/admin/bookings/{booking_id}', 'operator'],
  ['listAdminMoveOptions', 'get', '/admin/bookings/{booking_id}/move-options', 'operator'],
  ['adminCancelBooking', 'post', '/admin/bookings/{booking_id}/cancel', 'operator'],
  ['adminResendAccessCode', 'post', '/admin/bookings/{booking_id}/resend-code', 'operator'],
  ['adminMoveBooking', 'post', '/admin/bookings/{booking_id}/move', 'operator'],
  ['getBranchDoors', 'get', '/admin/branches/{branch_id}/doors', 'operator'],
  ['unlockBranchDoor', 'post', '/admin/branches/{branch_id}/doors/{device_id}/unlock', 'operator'],
  ['setBranchOnCall', 'put', '/admin/branches/{branch_id}/on-call', 'operator'],
  ['listClosures', 'get', '/admin/closures', 'operator'],
  ['createClosure', 'post', '/admin/closures', 'operator'],
  ['previewClosure', 'post', '/admin/closures/preview', 'operator'],
  ['reopenClosure', 'post', '/admin/closures/{closure_id}/reopen', 'operator'],
  ['listBroadcasts', 'get', '/admin/broadcasts', 'operator'],
  ['createBroadcast', 'post', '/admin/broadcasts', 'operator'],
  ['previewBroadcast', 'post', '/admin/broadcasts/preview', 'operator'],
  ['getBroadcast', 'get', '/admin/broadcasts/{broadcast_id}', 'operator'],
  ['listAdminBranches', 'get', '/admin/branches', 'operator'],
  ['createAdminBranch', 'post', '/admin/branches', 'operator'],
  ['getAdminBranch', 'get', '/admin/branches/{branch_id}', 'operator'],
  ['updateAdminBranch', 'patch', '/admin/branches/{branch_id}', 'operator'],
  ['previewBranchUpdate', 'post', '/admin/branches/{branch_id}/preview', 'operator'],
  ['getBranchPrices', 'get', '/admin/branches/{branch_id}/prices', 'operator'],
  ['setBranchPrices', 'put', '/admin/branches/{branch_id}/prices', 'operator'],
  ['setBranchDatePrice', 'put', '/admin/branches/{branch_id}/prices/dates/{date}', 'operator'],
  ['removeBranchDatePrice', 'delete', '/admin/branches/{branch_id}/prices/dates/{date}', 'operator'],
  ['listAdminCoupons', 'get', '/admin/coupons', 'operator'],
  ['createAdminCoupon', 'post', '/admin/coupons', 'operator'],
  ['listAdminCreditPacks', 'get', '/admin/credit-packs', 'operator'],
  ['createAdminCreditPack', 'post', '/admin/credit-packs', 'operator'],
  ['updateAdminCreditPack', 'patch', '/admin/credit-packs/{pack_id}', 'operator'],
  ['listAdminGiftVouchers', 'get', '/admin/gift-vouchers', 'operator'],
  ['updateAdminCoupon', 'patch', '/admin/coupons/{coupon_code}', 'operator'],
  ['getAdminRefundPolicy', 'get', '/admin/refund-policy', 'operator'],
  ['setAdminRefundPolicy', 'put', '/admin/refund-policy', 'operator'],
  ['listRefundApprovals', 'get', '/admin/refund-approvals', 'operator'],
  ['approveRefund', 'post', '/admin/refund-approvals/{approval_id}/approve', 'operator'],
  ['refuseRefund', 'post', '/admin/refund-approvals/{approval_id}/refuse', 'operator'],
  ['setStaffRefundCeiling', 'put', '/admin/refund-ceiling', 'operator'],
  ['listBlockedContacts', 'get', '/admin/blocked-contacts', 'operator'],
  ['blockContact', 'post', '/admin/blocked-contacts', 'operator'],
  ['previewBlockContact', 'post', '/admin/blocked-contacts/preview', 'operator'],
  ['unblockContact', 'delete', '/admin/blocked-contacts/{blocked_id}', 'operator'],
  ['searchMembers', 'get', '/admin/members', 'operator'],
  ['getMember', 'get', '/admin/members/{member_id}', 'operator'],
  ['blockMember', 'post', '/admin/members/{member_id}/block', 'operator'],
  ['unblockMember', 'post', '/admin/members/{member_id}/unblock', 'operator'],
  ['listMemberNotes', 'get', '/admin/members/{member_id}/notes', 'operator'],
  ['addMemberNote', 'post', '/admin/members/{member_id}/notes', 'operator'],
  ['exportMember', 'get', '/admin/members/{member_id}/export', 'operator'],
  ['eraseMember', 'post', '/admin/members/{member_id}/erase', 'operator'],
  ['listAdminPayments', 'get', '/admin/payments', 'operator'],
  ['getMoneyReport', 'get', '/admin/reports/money', 'operator'],
  ['getMoneyReportCsv', 'get', '/admin/reports/money/csv', 'operator'],
  ['getOccupancyReport', 'get', '/admin/reports/occupancy', 'operator'],
  ['getOccupancyReportCsv', 'get', '/admin/reports/occupancy/csv', 'operator'],
  ['getOccupancyHeatmap', 'get', '/admin/reports/occupancy/heatmap', 'operator'],
  ['getLedgerCsv', 'get', '/admin/reports/ledger/csv', 'operator'],
  ['getStripeReconciliationCsv', 'get', '/admin/reports/stripe-reconciliation/csv', 'operator'],
  ['listAdminDocuments', 'get', '/admin/documents', 'operator'],
  ['adminResendDocument', 'post', '/admin/documents/{document_id}/resend', 'operator'],
  ['listAuditLog', 'get', '/admin/audit', 'operator'],
] as const;

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => httpMethods.has(method))
    .map(([method, operation]) => ({ path, method, operation })),
);

function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && '$ref' in value;
}

/** Follows a local `#/...` reference inside the contract. */
function resolve<T>(value: T | Reference): T {
  if (!isReference(value)) return value;
  const target = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      document,
    );
  expect(target, `${value.$ref} resolves`).toBeDefined();
  return resolve(target as T | Reference);
}

/** The schema with every `$ref` inlined (the contract has no recursive schemas). */
function inline(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inline);
  if (typeof schema !== 'object' || schema === null) return schema;
  if (isReference(schema)) {
    const { $ref: _ref, ...siblings } = schema as Reference & Schema;
    return { ...(inline(resolve(schema)) as Schema), ...siblings };
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value)]));
}

/** Every schema node under `schema`, with a readable location, descending through the JSON-Schema keywords. */
function* walk(schema: unknown, at: string): Generator<{ node: Schema; at: string }> {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Schema;
  yield { node, at };
  for (const [key, value] of Object.entries(node.properties ?? {})) yield* walk(value, `${at}.${key}`);
  if (node.items) yield* walk(node.items, `${at}[]`);
  if (typeof node.additionalProperties === 'object') yield* walk(node.additionalProperties, `${at}{*}`);
  if (node.propertyNames) yield* walk(node.propertyNames, `${at}{key}`);
  for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
    for (const [index, branch] of ((node[keyword] as unknown[]) ?? []).entries()) {
      yield* walk(branch, `${at}.${keyword}[${index}]`);
    }
  }
}

function types(node: Schema): string[] {
  if (Array.isArray(node.type)) return node.type as string[];
  return typeof node.type === 'string' ? [node.type] : [];
}

// The server's Ajv: draft-07, formats on, path/query/header values coerced, bodies not.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as unknown as (ajv: Ajv) => Ajv;
function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allowUnionTypes: true, ...options });
  addFormats(ajv);
  return ajv;
}
const bodyAjv = createAjv({ strict: false, coerceTypes: false });
const parameterAjv = createAjv({ strict: false, coerceTypes: 'array' });

function requestBodySchema(operationId: string): ValidateFunction {
  const { operation } = operations.find((entry) => entry.operation.operationId === operationId)!;
  const [media] = Object.values(operation.requestBody!.content);
  return bodyAjv.compile(inline(media!.schema) as Schema);
}

function parametersSchema(operationId: string, location: 'path' | 'query' | 'header'): ValidateFunction {
  const { operation } = operations.find((entry) => entry.operation.operationId === operationId)!;
  const parameters = (operation.parameters ?? []).map((parameter) => resolve(parameter));
  const selected = parameters.filter((parameter) => parameter.in === location);
  return parameterAjv.compile({
    type: 'object',
    properties: Object.fromEntries(selected.map((parameter) => [parameter.name, inline(parameter.schema)])),
    required: selected.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  });
}

describe('the OpenAPI document', () => {
  let validation: Awaited<ReturnType<Validator['validate']>>;
  let validator: Validator;

  beforeAll(async () => {
    validator = new Validator();
    validation = await validator.validate(structuredClone(document));
  });

  it('is a valid OpenAPI 3.1 document', () => {
    expect(validation.errors).toBeUndefined();
    expect(validation.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toBe('3.1.0');
  });

  it('resolves every reference, as the server does when it loads the contract', () => {
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('serves everything under /api and describes the product and its error bodies', () => {
    expect(document.servers).toEqual([{ url: '/api' }]);
    expect(document.info.title).toBeTruthy();
    expect(document.info.version).toBeTruthy();
    expect(document.info.description).toMatch(/gym/i);
    expect(document.info.description).toContain('detail');
    expect(document.info.description).toContain('locale');
  });
});

describe('the operations', () => {
  it('are exactly the ones the client and the server agree on, each at its method and path', () => {
    const actual = operations
      .map(({ operation, method, path }) => [operation.operationId, method, path])
      .sort();
    const expected = expectedOperations
      .map(([operationId, method, path]) => [operationId, method, path])
      .sort();
    expect(actual).toEqual(expected);
  });

  it('have unique operationIds, since the server maps its handlers by them', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(operations.map(({ operation }) => [operation.operationId, operation] as const))(
    '%s has a tag, a summary and a description',
    (_id, operation) => {
      expect(operation.tags?.length).toBeGreaterThan(0);
      expect(operation.summary).toBeTruthy();
      expect(operation.description).toBeTruthy();
    },
  );

  it.each(operations.map(({ operation }) => [operation.operationId, operation] as const))(
    '%s accepts the optional locale header through the shared parameter',
    (_id, operation) => {
      expect(operation.parameters).toContainEqual({ $ref: '#/components/parameters/Locale' });
    },
  );

  it.each(expectedOperations.map(([operationId, , , access]) => [operationId, access] as const))(
    '%s is %s',
    (operationId, access) => {
      const { operation } = operations.find((entry) => entry.operation.operationId === operationId)!;
      if (access === 'bearer') {
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
      } else if (access === 'operator') {
        expect(operation.security).toEqual([{ operatorAuth: [] }]);
        expect(operation.responses['401']).toMatchObject({ $ref: '#/components/responses/Unauthorized' });
      } else {
        expect(operation.security ?? []).toEqual([]);
      }
    },
  );

  it.each(operations.map(({ operation }) => [operation.operationId, operation] as const))(
    '%s has a success response and documents validation failures and internal errors',
    (_id, operation) => {
      expect(Object.keys(operation.responses).some((status) => /^2\d\d$/.test(status))).toBe(true);
      expect(operation.responses['422']).toMatchObject({ $ref: '#/components/responses/ValidationFailed' });
      expect(operation.responses['500']).toMatchObject({ $ref: '#/components/responses/InternalError' });
    },
  );

  it('answer every 4xx and 5xx with the Error body through a shared response (health 503 aside)', () => {
    const offenders: string[] = [];
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]/.test(status)) continue;
        // A load balancer reads the health body; it stays a Health object when the database is down.
        if (operation.operationId === 'getHealth' && status === '503') continue;
        if (!isReference(response) || !response.$ref.startsWith('#/components/responses/')) {
          offenders.push(`${operation.operationId} ${status} is not a shared response`);
          continue;
        }
        const shared = resolve<Response>(response);
        expect(Object.keys(shared.content ?? {}), `${response.$ref} media types`).toEqual([
          'application/json',
        ]);
        if (shared.content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error') {
          offenders.push(`${operation.operationId} ${status} (${response.$ref}) is not an Error body`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('keep the health 503 body a Health object saying the service is unavailable', () => {
    const health = operations.find(({ operation }) => operation.operationId === 'getHealth')!.operation;
    const unavailable = health.responses['503'] as Response;
    expect(unavailable.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Health',
    });
    const validate = bodyAjv.compile(inline(document.components.schemas.Health) as Schema);
    expect(validate({ status: 'unavailable', database: 'unreachable' })).toBe(true);
  });
});

describe('the shared components', () => {
  it('define the locale header as an optional string of at most 35 characters', () => {
    const locale = document.components.parameters.Locale!;
    expect(locale).toMatchObject({ name: 'locale', in: 'header', required: false });
    expect(locale.schema).toEqual({ type: 'string', maxLength: 35 });
    expect((locale as Parameter & { description: string }).description).toMatch(/pt.*en.*fr.*de.*sk/s);
  });

  it('define bearer authentication with a JWT', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });

  it('define the error body as {detail, code}, the pending verifications of a refused login, the refused fields of a validation error and the price difference of a refused move', () => {
    expect(document.components.schemas.Error).toMatchObject({
      type: 'object',
      required: ['detail', 'code'],
      additionalProperties: false,
      properties: {
        detail: { type: 'string' },
        code: { $ref: '#/components/schemas/ErrorCode' },
        pending: { type: 'array', items: { $ref: '#/components/schemas/PendingVerification' } },
        fields: { type: 'array', items: { $ref: '#/components/schemas/FieldProblem' } },
        price_difference_eur: { $ref: '#/components/schemas/PriceDifference' },
      },
    });
    expect(Object.keys(document.components.schemas.Error!.properties as Schema)).toEqual([
      'detail',
      'code',
      'pending',
      'fields',
      'price_difference_eur',
    ]);
    expect(document.components.schemas.PendingVerification).toEqual(
      expect.objectContaining({ type: 'string', enum: ['email', 'phone'] }),
    );
  });

  it("list as error codes exactly the codes of the server's error catalogue", () => {
    const codes = document.components.schemas.ErrorCode!.enum as string[];
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(Object.keys(errorCatalogue).sort());
  });

  it('let the client hide the detail of exactly the codes the server answers with a 5xx', () => {
    const fiveHundreds = Object.entries(errorCatalogue)
      .filter(([, entry]) => entry.status >= 500)
      .map(([code]) => code);
    expect([...serverFaults].sort()).toEqual(fiveHundreds.sort());
  });

  it('define every schema the product needs', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'Branch',
        'TimeSlot',
        'Coupon',
        'Booking',
        'User',
        'RegisterRequest',
        'ProfileUpdate',
        'LoginForm',
        'LoginResponse',
        'CreateBookingRequest',
        'CreateBookingResponse',
        'CancelBookingsRequest',
        'ResetPasswordRequest',
        'EmailRequest',
        'CheckoutSessionStatus',
        'RefundRatios',
        'Health',
        'OutboxMessage',
        'LocalCheckoutCompleteRequest',
        'LocalCheckoutCompleteResponse',
        'Message',
        'Error',
        'ErrorCode',
        'PendingVerification',
      ]),
    );
  });

  it('keep the spec field names of branches, slots and bookings, including is_bookeable', () => {
    const fields = (name: string) => Object.keys(document.components.schemas[name]!.properties as Schema);
    expect(fields('Branch')).toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'order',
        'image',
        'images_urls',
        'location',
        'active_with_smart_lock',
        'descriptions_data',
        'min_and_max_price_eur_long_cached',
      ]),
    );
    expect(fields('TimeSlot')).toEqual(['id', 'start_time', 'end_time', 'basic_price_eur', 'is_bookeable']);
    expect(fields('Booking')).toEqual(
      expect.arrayContaining([
        'id',
        'time_slot_data',
        'created_at',
        'canceled',
        'active',
        'is_in_past',
        'is_cancelable',
        'final_price_eur',
        'paid',
        'pay_again_url',
        'refunded_eur',
        'refundable_eur',
        'lock_code',
      ]),
    );
  });
});

describe('the schemas as the server validates them', () => {
  // Ajv runs in draft-07 mode: these keywords would be silently ignored there, or are not JSON Schema.
  const foreignKeywords = [
    'prefixItems',
    '$defs',
    'nullable',
    'unevaluatedProperties',
    'unevaluatedItems',
    'dependentRequired',
    'dependentSchemas',
    'contentSchema',
  ];

  it('use only keywords that Ajv understands in draft-07 mode', () => {
    const found: string[] = [];
    const visit = (value: unknown, at: string): void => {
      if (typeof value !== 'object' || value === null) return;
      for (const [key, child] of Object.entries(value)) {
        if (foreignKeywords.includes(key)) found.push(`${at}.${key}`);
        visit(child, `${at}.${key}`);
      }
    };
    visit(document.paths, 'paths');
    visit(document.components, 'components');
    expect(found).toEqual([]);
  });

  it.each(Object.keys(document.components.schemas))('%s compiles with a strict draft-07 Ajv', (name) => {
    const strictAjv = createAjv({ strict: true, strictTypes: false });
    expect(() => strictAjv.compile(inline(document.components.schemas[name]) as Schema)).not.toThrow();
  });

  it('give every example a value its own schema accepts', () => {
    const failures: string[] = [];
    const schemas = [
      ...Object.entries(document.components.schemas).map(([name, schema]) => [name, schema] as const),
      ...operations.flatMap(({ operation }) =>
        (operation.parameters ?? [])
          .filter((parameter): parameter is Parameter => !isReference(parameter))
          .map((parameter) => [`${operation.operationId}.${parameter.name}`, parameter.schema] as const),
      ),
    ];
    for (const [name, schema] of schemas) {
      for (const { node, at } of walk(inline(schema), name)) {
        if (!Array.isArray(node.examples)) continue;
        const validate = bodyAjv.compile(node);
        for (const example of node.examples)
          if (!validate(example)) failures.push(`${at}: ${JSON.stringify(example)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('bound every request value: strings by maxLength, numbers by a minimum and maximum, arrays by maxItems, objects closed', () => {
    const unbounded: string[] = [];
    for (const { operation } of operations) {
      const inputs: [string, unknown][] = (operation.parameters ?? []).map((parameter) => {
        const resolved = resolve(parameter);
        return [`${operation.operationId} ${resolved.in} ${resolved.name}`, resolved.schema];
      });
      // A webhook body is the provider's event: any object, authenticated by its signature rather than its shape.
      if (operation.requestBody && !['stripeWebhook', 'seamWebhook'].includes(operation.operationId)) {
        for (const [media, { schema }] of Object.entries(operation.requestBody.content)) {
          inputs.push([`${operation.operationId} body ${media}`, schema]);
        }
      }
      for (const [label, schema] of inputs) {
        for (const { node, at } of walk(inline(schema), label)) {
          const nodeTypes = types(node);
          const enumerated = node.enum !== undefined || node.const !== undefined;
          if (nodeTypes.includes('string') && !enumerated && node.maxLength === undefined) {
            unbounded.push(`${at}: maxLength`);
          }
          if (nodeTypes.some((type) => type === 'integer' || type === 'number')) {
            const hasMinimum = node.minimum !== undefined || node.exclusiveMinimum !== undefined;
            const hasMaximum = node.maximum !== undefined || node.exclusiveMaximum !== undefined;
            if (!hasMinimum || !hasMaximum) unbounded.push(`${at}: minimum/maximum`);
          }
          if (nodeTypes.includes('array') && node.maxItems === undefined) unbounded.push(`${at}: maxItems`);
          if (nodeTypes.includes('object') && node.additionalProperties !== false) {
            unbounded.push(`${at}: additionalProperties`);
          }
        }
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('mark every e-mail field of a request with format email and at most 254 characters', () => {
    const emails = [
      inline(document.components.schemas.RegisterRequest) as Schema,
      inline(document.components.schemas.ProfileUpdate) as Schema,
      inline(document.components.schemas.EmailRequest) as Schema,
    ].map((schema) => (schema.properties as Record<string, Schema>).email);
    emails.push(
      (inline(document.components.schemas.LoginForm) as { properties: Record<string, Schema> }).properties
        .username,
    );
    for (const email of emails)
      expect(email).toMatchObject({ type: 'string', format: 'email', maxLength: 254 });
  });

  it('refuse a non-numeric, zero or oversized branch id in the path', () => {
    const slotsPath = parametersSchema('listSlots', 'path');
    expect(slotsPath({ branch_id: '3', date: '2026-11-22' })).toBe(true);
    expect(slotsPath({ branch_id: 'abc', date: '2026-11-22' })).toBe(false);
    expect(slotsPath({ branch_id: '0', date: '2026-11-22' })).toBe(false);
    expect(slotsPath({ branch_id: '1.5', date: '2026-11-22' })).toBe(false);
    expect(slotsPath({ branch_id: '99999999999', date: '2026-11-22' })).toBe(false);
    const localTimePath = parametersSchema('getBranchLocalTime', 'path');
    expect(localTimePath({ branchId: '7' })).toBe(true);
    expect(localTimePath({ branchId: 'seven' })).toBe(false);
  });

  it('refuse a slot date that is not written YYYY-MM-DD', () => {
    const slotsPath = parametersSchema('listSlots', 'path');
    expect(slotsPath({ branch_id: '1', date: '2026-1-5' })).toBe(false);
    expect(slotsPath({ branch_id: '1', date: '22-11-2026' })).toBe(false);
    expect(slotsPath({ branch_id: '1', date: '2026-11-22T00:00' })).toBe(false);
  });

  it('require the e-mail query of a password-reset request and the signature header of a webhook', () => {
    expect(parametersSchema('forgotPassword', 'query')({ email: 'ana@example.com' })).toBe(true);
    expect(parametersSchema('forgotPassword', 'query')({})).toBe(false);
    expect(parametersSchema('forgotPassword', 'query')({ email: 'not-an-email' })).toBe(false);
    expect(parametersSchema('stripeWebhook', 'header')({ 'stripe-signature': 't=1,v1=abc' })).toBe(true);
    expect(parametersSchema('stripeWebhook', 'header')({})).toBe(false);
  });

  it('refuse a locale header longer than 35 characters but accept any shorter value', () => {
    const headers = parametersSchema('listBranches', 'header');
    expect(headers({})).toBe(true);
    expect(headers({ locale: 'xx' })).toBe(true);
    expect(headers({ locale: 'x'.repeat(36) })).toBe(false);
  });

  it('accept a booking request as the client sends it and refuse duplicate, too many or extra inputs', () => {
    const validate = requestBodySchema('createBooking');
    const request = {
      time_slot_id: [11, 12],
      max_bookings_per_slot: 1,
      coupon_code: null,
      expected_total_final_price_eur: 37.8,
    };
    expect(validate(request)).toBe(true);
    expect(validate({ ...request, coupon_code: 4 })).toBe(true);
    expect(validate({ ...request, time_slot_id: [] })).toBe(false);
    expect(validate({ ...request, time_slot_id: [11, 11] })).toBe(false);
    expect(validate({ ...request, time_slot_id: Array.from({ length: 51 }, (_, index) => index + 1) })).toBe(
      false,
    );
    expect(validate({ ...request, time_slot_id: ['11'] })).toBe(false);
    expect(validate({ ...request, max_bookings_per_slot: 2 })).toBe(false);
    expect(validate({ ...request, expected_total_final_price_eur: -1 })).toBe(false);
    expect(validate({ ...request, price: 0 })).toBe(false);
  });

  it('accept a cancellation of 1 to 100 bookings with the refund the client showed', () => {
    const validate = requestBodySchema('cancelBookings');
    expect(validate({ booking: [{ booking_id: 5, expected_refund_eur: 12.5 }] })).toBe(true);
    expect(validate({ booking: [] })).toBe(false);
    expect(validate({ booking: [{ booking_id: 5 }] })).toBe(false);
    const many = Array.from({ length: 101 }, (_, index) => ({
      booking_id: index + 1,
      expected_refund_eur: 0,
    }));
    expect(validate({ booking: many })).toBe(false);
  });

  it('accept a move of a booking to one slot with the signed price difference the client showed', () => {
    const validate = requestBodySchema('moveBooking');
    expect(validate({ time_slot_id: 7, expected_price_difference_eur: -4.5 })).toBe(true);
    expect(validate({ time_slot_id: 7, expected_price_difference_eur: 0 })).toBe(true);
    expect(validate({ time_slot_id: 7 })).toBe(false);
    expect(validate({ time_slot_id: [7], expected_price_difference_eur: 0 })).toBe(false);
    expect(validate({ time_slot_id: 0, expected_price_difference_eur: 0 })).toBe(false);
    expect(validate({ time_slot_id: 7, expected_price_difference_eur: -100001 })).toBe(false);
    expect(validate({ time_slot_id: 7, expected_price_difference_eur: 0, coupon_code: 1 })).toBe(false);
  });

  it('take a login as a form with the e-mail as username and a password', () => {
    const { operation } = operations.find((entry) => entry.operation.operationId === 'login')!;
    expect(Object.keys(operation.requestBody!.content)).toEqual(['application/x-www-form-urlencoded']);
    const validate = requestBodySchema('login');
    expect(validate({ username: 'ana@example.com', password: 'secret' })).toBe(true);
    expect(validate({ username: 'ana@example.com' })).toBe(false);
    expect(validate({ username: 'ana@example.com', password: '' })).toBe(false);
    expect(validate({ username: 'ana@example.com', password: 'x'.repeat(129) })).toBe(false);
  });

  it('let a profile update keep the password with null', () => {
    const validate = requestBodySchema('updateMe');
    const profile = {
      email: 'ana@example.com',
      phone_number: '+351912345678',
      first_name: 'Ana',
      last_name: 'Silva',
      agree_newsletter: true,
    };
    expect(validate({ ...profile, password: null, locale: 'en' })).toBe(true);
    expect(validate({ ...profile, password: 'n3w-Passw0rd' })).toBe(true);
    expect(validate({ ...profile, locale: 'es' })).toBe(false);
    expect(validate({ ...profile, first_name: 'x'.repeat(101) })).toBe(false);
  });

  it('describe refund ratios as hour thresholds written as digits mapped to fractions', () => {
    const validate = bodyAjv.compile(inline(document.components.schemas.RefundRatios) as Schema);
    expect(validate({ '48': 1, '24': 0.5, '0': 0 })).toBe(true);
    expect(validate({ '48h': 1 })).toBe(false);
    expect(validate({ '48': 1.5 })).toBe(false);
  });

  it('describe a free booking by a null client secret', () => {
    const validate = bodyAjv.compile(inline(document.components.schemas.CreateBookingResponse) as Schema);
    expect(validate({ checkout_session: { clientSecret: null } })).toBe(true);
    expect(validate({ checkout_session: { clientSecret: 'cs_test_123_secret_456' } })).toBe(true);
    expect(validate({ checkout_session: {} })).toBe(false);
  });

  it('describe a branch price range as exactly two amounts', () => {
    const branch = inline(document.components.schemas.Branch) as { properties: Record<string, Schema> };
    const validate = bodyAjv.compile(branch.properties.min_and_max_price_eur_long_cached!);
    expect(validate([12, 30])).toBe(true);
    expect(validate([12])).toBe(false);
    expect(validate([12, 20, 30])).toBe(false);
  });
});

describe('the client inputs', () => {
  it("carry the contract's length limits (machines/field-limits.ts)", () => {
    const schemas = document.components.schemas as Record<string, { maxLength?: number }>;
    expect(FIELD_LIMITS.email).toBe(schemas.Email?.maxLength);
    expect(FIELD_LIMITS.phone).toBe(schemas.PhoneNumber?.maxLength);
    expect(FIELD_LIMITS.personName).toBe(schemas.PersonName?.maxLength);
    expect(FIELD_LIMITS.password).toBe(schemas.Password?.maxLength);
    expect(FIELD_LIMITS.taxId).toBe(schemas.TaxId?.maxLength);
    const couponPath = (document.paths as Record<string, { get?: { parameters?: unknown[] } }>)[
      '/bookings/coupon-code/{code}'
    ];
    const codeParameter = couponPath?.get?.parameters?.find(
      (parameter) => (parameter as { name?: string }).name === 'code',
    ) as { schema?: { maxLength?: number } } | undefined;
    expect(FIELD_LIMITS.couponCode).toBe(codeParameter?.schema?.maxLength);
  });
});
