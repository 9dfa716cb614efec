import type { Client } from 'openapi-fetch';
import type { paths } from '../openapi/schema.gen.ts';
import type { FieldProblem } from './field-limits.ts';

/** The typed API client the machines' actors are built over (src/api creates it with its middleware). */
export type ApiClient = Client<paths>;

/**
 * A failed API call. `status` is 0 when no answer arrived (network failure). `detail` is the server's
 * localised message; 5xx details are never shown (the UI maps the error to text, spec 8).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | null;
  readonly code: string | null;
  /** On `validation_failed`: the refused fields, for the form to word beside each. */
  readonly fields: readonly FieldProblem[];

  constructor(
    status: number,
    detail: string | null,
    code: string | null = null,
    message?: string,
    fields: readonly FieldProblem[] = [],
  ) {
    super(message ?? detail ?? `request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.fields = fields;
  }
}

function field(body: unknown, name: string): string | null {
  if (typeof body !== 'object' || body === null || !(name in body)) return null;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function fieldProblems(body: unknown): FieldProblem[] {
  const fields =
    typeof body === 'object' && body !== null ? (body as { fields?: unknown }).fields : undefined;
  return Array.isArray(fields)
    ? fields.filter(
        (item): item is FieldProblem =>
          typeof item === 'object' && item !== null && typeof (item as FieldProblem).field === 'string',
      )
    : [];
}

export function apiErrorFromResponse(status: number, body: unknown): ApiError {
  return new ApiError(
    status,
    status >= 500 ? null : field(body, 'detail'),
    field(body, 'code'),
    undefined,
    fieldProblems(body),
  );
}

type Result<T> = { data?: T; error?: unknown; response: Response };

async function settle<T>(pending: Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await pending;
  } catch (error) {
    throw new ApiError(0, null, null, error instanceof Error ? error.message : String(error));
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
