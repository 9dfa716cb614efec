import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { isTransientTransactionFailure } from '../kernel/transactions.ts';
import { AppError, type ErrorCode } from '../kernel/errors.ts';
import { resolveLocale } from '../kernel/i18n.ts';
import { describeValidationProblems, fieldProblems } from './validation.ts';

const fastifyCodeToError: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'malformed_body',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_body',
  FST_ERR_CTP_EMPTY_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
};

/**
 * The database went away under the request (a failover, a restart, a dropped connection): a retry may well
 * succeed, so the caller hears 503 rather than 500. SQLSTATE class 08 is a connection exception; 57P01-57P03
 * are an administrator's or a crash's shutdown of the backend.
 */
// 57014 is a statement cut off by `statement_timeout`, 25P03 a transaction left idle too long; the rest are the
// driver's own words for a connection that could not be made, timed out or broke.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|57014|25P03|53300)$/;
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
]);
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|timeout expired|Client has encountered a connection error|the database connection timed out)/;

export function isDatabaseUnavailable(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET_CODES.has(code))) {
    return true;
  }
  return UNAVAILABLE_MESSAGES.test(error.message ?? '');
}

/** How long a caller told 503 should wait before trying again. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Maps anything thrown while handling a request to the catalogue, so every error body is `{detail, code}`. */
function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  // A deadlock or serialization failure still there after runTransaction's tries: nothing was kept, and trying
  // again a moment later should succeed, as after a database that went away.
  if (isDatabaseUnavailable(error) || isTransientTransactionFailure(error)) {
    return new AppError('service_unavailable');
  }
  // The contract's security check wraps what its handler threw into a 401. A token that failed the check is a
  // 401 indeed; a database that could not be asked is not the caller's fault, and must not log them out.
  const wrapped = (error as { errors?: unknown }).errors;
  if (error.name === 'Unauthorized' && Array.isArray(wrapped)) {
    const failure = wrapped.find(
      (inner): inner is Error =>
        inner instanceof Error && !(inner instanceof AppError && inner.code === 'unauthorized'),
    );
    if (failure) return toAppError(failure);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.code && fastifyError.code in fastifyCodeToError) {
    return new AppError(fastifyCodeToError[fastifyError.code] as ErrorCode);
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 401) return new AppError('unauthorized');
  if (status === 429) return new AppError('rate_limited');
  if (status === 413) return new AppError('payload_too_large');
  if (status === 415) return new AppError('unsupported_media_type');
  // Body parsers raise a plain 400 (e.g. a broken form body or JSON with a poisoned __proto__ key).
  if (status === 400 || error instanceof SyntaxError) return new AppError('malformed_body');
  if (status === 404) return new AppError('not_found');
  if (status === 503) return new AppError('service_unavailable');
  return new AppError('internal_error');
}

export function errorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const locale = resolveLocale(request.headers.locale);
  if (error.validation) {
    const errors = error.validation as unknown as ErrorObject[];
    const problems = describeValidationProblems(errors, error.validationContext, locale);
    const fields = fieldProblems(errors, error.validationContext);
    return reply.status(422).send(new AppError('validation_failed', { problems }, { fields }).body(locale));
  }
  const appError = toAppError(error);
  if (appError.status >= 500) {
    // Internals go to the log only; the caller gets the catalogue's sentence.
    request.log.error({ err: error }, 'request failed');
  } else if (!(error instanceof AppError)) {
    request.log.info({ code: appError.code, reason: error.message }, 'request refused');
  }
  if (appError.code === 'rate_limited' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
  if (appError.status === 503 && !reply.hasHeader('retry-after')) {
    reply.header('retry-after', String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS));
  }
  return reply.status(appError.status).send(appError.body(locale));
}
