import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import ajvFormats from 'ajv-formats/dist/formats.js';
import type { FastifySchemaCompiler } from 'fastify';
import { inAcceptedYears } from '../kernel/clock.ts';
import type { FieldProblem } from '../kernel/errors.ts';
import { compiledOnFirstUse } from './compiled-schemas.ts';
import { translate, type Locale, type Message } from '../kernel/i18n.ts';

// ajv-formats ships CommonJS with a default export object; under Node's ESM loader the callable sits on `.default`.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as unknown as (ajv: Ajv) => Ajv;

export const ajvOptions: Options = {
  // OpenAPI carries keywords (example, description, discriminator...) that are not JSON Schema.
  strict: false,
  allErrors: false,
  // Unknown fields are refused rather than silently dropped: a client that sends `price` learns it may not.
  removeAdditional: false,
  useDefaults: true,
};

/** Adds the formats of ajv-formats (date, date-time, email, uri...). */
export function withFormats<T extends Ajv>(ajv: T): T {
  addFormats(ajv);
  return ajv;
}

export function createAjv(options: Options = {}): Ajv {
  return withFormats(new Ajv({ ...ajvOptions, ...options }));
}

const { fullFormats } = ajvFormats as unknown as {
  fullFormats: Record<'date' | 'date-time', { validate: (value: string) => boolean }>;
};

/**
 * A request's dates and instants must exist (2026-02-30 does not) and fall in the accepted years: the formats
 * `date` and `date-time` as ajv-formats checks them, bounded (server/kernel/clock.ts). Answers are checked against
 * the plain formats.
 */
function boundedDates(ajv: Ajv): Ajv {
  for (const name of ['date', 'date-time'] as const) {
    const { validate } = fullFormats[name];
    ajv.addFormat(name, { type: 'string', validate: (value) => validate(value) && inAcceptedYears(value) });
  }
  return ajv;
}

// Path, query and header values arrive as strings and must be coerced to the declared types;
// JSON bodies must already have the right types, so a string where a number belongs is an error.
const coercingAjv = boundedDates(createAjv({ coerceTypes: 'array' }));
const strictAjv = boundedDates(createAjv({ coerceTypes: false }));

/** Where a string holding U+0000 sits in the value (a JSON pointer), or null when there is none. */
function nulCharacterAt(value: unknown, pointer = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = nulCharacterAt(item, `${pointer}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

const DECIMAL = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?$/ };

/**
 * Where a path, query or header value meant as a number is not written in decimals (`0x10`, `1e3`, ` 12`,
 * `Infinity`), or null. Coercion alone would read those as numbers (JavaScript's `+value` does); the contract
 * means decimal digits.
 */
function looseNumberAt(schema: unknown, data: unknown): string | null {
  const properties = (schema as { properties?: Record<string, { type?: string | string[] }> }).properties;
  if (!properties || data === null || typeof data !== 'object') return null;
  for (const [name, property] of Object.entries(properties)) {
    const value = (data as Record<string, unknown>)[name];
    const types = [property.type ?? []].flat();
    const decimal = types.includes('integer')
      ? DECIMAL.integer
      : types.includes('number')
        ? DECIMAL.number
        : null;
    if (decimal && typeof value === 'string' && !decimal.test(value)) return `/${name}`;
  }
  return null;
}

// PostgreSQL text cannot hold U+0000: a value carrying it would fail in the database (a 500) instead of being
// refused, and it can never match anything stored, so it is refused here like any other malformed value.
function compileValidator(schema: unknown, httpPart: string | undefined) {
  const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
  const validate = ajv.compile(schema as object);
  const validateWithoutNul = (data: unknown): boolean => {
    // Before coercion, which turns the text into a number in place.
    const loose = httpPart === 'body' ? null : looseNumberAt(schema, data);
    if (loose !== null) {
      validateWithoutNul.errors = [{ keyword: 'type', instancePath: loose, schemaPath: '', params: {} }];
      return false;
    }
    if (!validate(data)) {
      validateWithoutNul.errors = validate.errors;
      return false;
    }
    const at = nulCharacterAt(data);
    validateWithoutNul.errors =
      at === null ? null : [{ keyword: 'format', instancePath: at, schemaPath: '', params: {} }];
    return at === null;
  };
  validateWithoutNul.errors = null as ErrorObject[] | null | undefined;
  return validateWithoutNul;
}

/** Each request part's validator, compiled on the route's first request (server/http/compiled-schemas.ts). */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  compiledOnFirstUse(`${httpPart === 'body' ? 'body' : 'coerced'}:${JSON.stringify(schema)}`, () =>
    compileValidator(schema, httpPart),
  ) as ReturnType<FastifySchemaCompiler<unknown>>;

const problemTemplates = {
  required: /*i18n*/ { id: 'validation.required', message: 'o campo «{field}» é obrigatório' },
  additionalProperties: /*i18n*/ {
    id: 'validation.additionalProperties',
    message: 'o campo «{field}» não é permitido',
  },
  type: /*i18n*/ { id: 'validation.type', message: '«{field}» tem um tipo de valor inválido' },
  format: /*i18n*/ { id: 'validation.format', message: '«{field}» tem um formato inválido' },
  tooLong: /*i18n*/ { id: 'validation.tooLong', message: '«{field}» é demasiado longo ou grande' },
  tooShort: /*i18n*/ { id: 'validation.tooShort', message: '«{field}» é demasiado curto ou pequeno' },
  notAllowedValue: /*i18n*/ {
    id: 'validation.notAllowedValue',
    message: '«{field}» tem um valor não permitido',
  },
  invalid: /*i18n*/ { id: 'validation.invalid', message: '«{field}» é inválido' },
} satisfies Record<string, Message>;

const templateByKeyword: Record<string, keyof typeof problemTemplates> = {
  required: 'required',
  additionalProperties: 'additionalProperties',
  type: 'type',
  format: 'format',
  pattern: 'format',
  maxLength: 'tooLong',
  maxItems: 'tooLong',
  maximum: 'tooLong',
  exclusiveMaximum: 'tooLong',
  maxProperties: 'tooLong',
  minLength: 'tooShort',
  minItems: 'tooShort',
  minimum: 'tooShort',
  exclusiveMinimum: 'tooShort',
  minProperties: 'tooShort',
  enum: 'notAllowedValue',
  const: 'notAllowedValue',
  uniqueItems: 'notAllowedValue',
};

/** Names the field a validation error is about, the way a client developer writes it: `booking[0].booking_id`. */
function fieldName(error: ErrorObject, httpPart: string | undefined): string {
  const segments = error.instancePath.split('/').filter(Boolean);
  const extra =
    error.keyword === 'required'
      ? (error.params as { missingProperty: string }).missingProperty
      : error.keyword === 'additionalProperties'
        ? (error.params as { additionalProperty: string }).additionalProperty
        : undefined;
  if (extra) segments.push(extra);
  const path = segments.reduce(
    (joined, segment) =>
      /^\d+$/.test(segment) ? `${joined}[${segment}]` : joined ? `${joined}.${segment}` : segment,
    '',
  );
  return path || httpPart || 'body';
}

const problemByTemplate: Record<keyof typeof problemTemplates, FieldProblem['problem']> = {
  required: 'required',
  additionalProperties: 'not_allowed',
  type: 'invalid',
  format: 'format',
  tooLong: 'too_long',
  tooShort: 'too_short',
  notAllowedValue: 'not_allowed',
  invalid: 'invalid',
};

/** The refused fields, each with its problem and, for a length or size, the limit: clients word it themselves. */
export function fieldProblems(errors: readonly ErrorObject[], httpPart: string | undefined): FieldProblem[] {
  return errors.map((error) => {
    const problem = problemByTemplate[templateByKeyword[error.keyword] ?? 'invalid'];
    const limit = (error.params as { limit?: unknown }).limit;
    return {
      field: fieldName(error, httpPart),
      problem,
      ...((problem === 'too_long' || problem === 'too_short') && typeof limit === 'number' ? { limit } : {}),
    };
  });
}

/** Turns schema-validation errors into one sentence in the caller's language. */
export function describeValidationProblems(
  errors: readonly ErrorObject[],
  httpPart: string | undefined,
  locale: Locale,
): string {
  return errors
    .map((error) =>
      translate(locale, problemTemplates[templateByKeyword[error.keyword] ?? 'invalid'], {
        field: fieldName(error, httpPart),
      }),
    )
    .join('; ');
}
