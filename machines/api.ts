import type { Client } from 'openapi-fetch';
import type { components, paths } from '../openapi/schema.gen.ts';
import type { FieldProblem } from './field-limits.ts';

/** The typed API client the machines' actors are built over (src/api creates it with its middleware). */
export type ApiClient = Client<paths>;

export type ErrorCode = components['schemas']['ErrorCode'];
export type PendingVerification = components['schemas']['PendingVerification'];

/**
 * The catalogue's codes answered with a 5xx: their detail is never shown, the UI says its generic sentence
 * (docs/decisions.md, 'Client': errors).
 */
export const serverFaults: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'internal_error',
  'service_unavailable',
  'not_implemented',
  'payment_provider_unavailable',
  'provider_balance_refused',
  'provider_balance_unavailable',
]);

/**
 * A failed API call, as the contract's `Error` body says it: machines branch on `code`, never on the status
 * or the text. `code` is null when no answer arrived (a network failure); `detail` is the server's localised
 * sentence, null for server faults; `pending` names the verifications a refused login still needs.
 */
export class ApiError extends Error {
  readonly code: ErrorCode | null;
  readonly detail: string | null;
  readonly pending: readonly PendingVerification[];
  /** On `validation_failed`: the refused fields, for the form to word beside each. */
  readonly fields: readonly FieldProblem[];
  /** On `price_difference_changed`: the move's price difference as the server computes it now. */
  readonly priceDifferenceEur: number | null;

  constructor(
    code: ErrorCode | null,
    detail: string | null = null,
    extra: {
      pending?: readonly PendingVerification[];
      fields?: readonly FieldProblem[];
      priceDifferenceEur?: number | null;
      message?: string;
    } = {},
  ) {
    super(extra.message ?? detail ?? code ?? 'no answer');
    this.name = 'ApiError';
    this.code = code;
    this.detail = code !== null && serverFaults.has(code) ? null : detail;
    this.pending = extra.pending ?? [];
    this.fields = extra.fields ?? [];
    this.priceDifferenceEur = extra.priceDifferenceEur ?? null;
  }

  /** The server (or the gateway in front of it) failed: show the generic sentence. */
  get isServerFault(): boolean {
    return this.code !== null && serverFaults.has(this.code);
  }
}

/** Is `error` an API failure with one of these codes? */
export function hasErrorCode(error: unknown, ...codes: ErrorCode[]): error is ApiError {
  return error instanceof ApiError && error.code !== null && codes.includes(error.code);
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && name in body
    ? (body as Record<string, unknown>)[name]
    : undefined;
}

/**
 * The one place that reads an error answer. A body without a code (a gateway's 502 page, a proxy's 404) is
 * named by its status class: a 5xx is `service_unavailable`, anything else has no code.
 */
export function apiErrorFromResponse(status: number, body: unknown): ApiError {
  const code = field(body, 'code');
  const detail = field(body, 'detail');
  const pending = field(body, 'pending');
  const fields = field(body, 'fields');
  const priceDifference = field(body, 'price_difference_eur');
  return new ApiError(
    typeof code === 'string' ? (code as ErrorCode) : status >= 500 ? 'service_unavailable' : null,
    typeof detail === 'string' && detail !== '' ? detail : null,
    {
      pending: Array.isArray(pending) ? (pending as PendingVerification[]) : [],
      fields: Array.isArray(fields)
        ? fields.filter(
            (item): item is FieldProblem =>
              typeof item === 'object' && item !== null && typeof (item as FieldProblem).field === 'string',
          )
        : [],
      priceDifferenceEur: typeof priceDifference === 'number' ? priceDifference : null,
    },
  );
}

type Result<T> = { data?: T; error?: unknown; response: Response };

async function settle<T>(pending: Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await pending;
  } catch (error) {
    throw new ApiError(null, null, { message: error instanceof Error ? error.message : String(error) });
  }
}

/** The data of a successful call, or an `ApiError` (promise actors throw it; their states catch it). */
export async function expectData<T>(pending: Promise<Result<T>>): Promise<T> {
  const result = await settle(pending);
  if (result.response.ok && result.data !== undefined) return result.data;
  throw apiErrorFromResponse(result.response.status, result.error);
}

/** For calls whose answer is only success or failure. */
export async function expectOk(pending: Promise<Result<unknown>>): Promise<void> {
  const result = await settle(pending);
  if (!result.response.ok) throw apiErrorFromResponse(result.response.status, result.error);
}
