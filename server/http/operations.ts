import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../openapi/schema.gen.ts';
import { AppError } from '../kernel/errors.ts';

// Handlers are typed from the contract's operations: each domain's `handlers.ts` returns
// `defineHandlers({ <operationId>: async (request, reply) => ... })`, and the request (path, query, body) and
// the answer come from openapi/schema.gen.ts. `OperationHandlers` names every operation, so the app does
// not compile while one lacks its handler (and registerApi refuses to start without it).

export type OperationId = keyof operations;
type Operation<Id extends OperationId> = operations[Id];

type Content<Body> = Body extends { content: infer ByType } ? ByType[keyof ByType] : undefined;

type RequestBody<Id extends OperationId> =
  Operation<Id> extends { requestBody: infer Body } ? Content<NonNullable<Body>> : undefined;

/** The operation's query parameters, as the contract defines them (what services that answer it take). */
export type OperationQuery<Id extends OperationId> = NonNullable<Operation<Id>['parameters']['query']>;

export type OperationRequest<Id extends OperationId> = FastifyRequest<{
  Params: NonNullable<Operation<Id>['parameters']['path']>;
  Querystring: OperationQuery<Id>;
  Body: RequestBody<Id>;
}>;

type SuccessStatus = 200 | 201 | 202 | 204;
type Responses<Id extends OperationId> = Operation<Id>['responses'];

/** What the operation answers on success, as the contract defines it. */
type OperationResult<Id extends OperationId> = {
  [Status in keyof Responses<Id> & SuccessStatus]: Content<Responses<Id>[Status]>;
}[keyof Responses<Id> & SuccessStatus];

/** A handler answers the contract's success body, or sends its own reply (another status, headers, HTML). */
export type OperationHandler<Id extends OperationId> = (
  request: OperationRequest<Id>,
  reply: FastifyReply,
) => Promise<OperationResult<Id> | FastifyReply>;

export type OperationHandlers = { [Id in OperationId]: OperationHandler<Id> };

/** Some operations' handlers, each typed by its operation. */
export function defineHandlers<Ids extends OperationId>(handlers: {
  [Id in Ids]: OperationHandler<Id>;
}): { [Id in Ids]: OperationHandler<Id> } {
  return handlers;
}

/** The caller the operation's security handler found: 401 `unauthorized` without one. */
export function signedIn<Caller>(caller: Caller | null | undefined): Caller {
  if (!caller) throw new AppError('unauthorized');
  return caller;
}

/**
 * A security handler for `Authorization: Bearer <token>`: `authenticate` names the caller of a token it accepts,
 * kept on the request as `request[key]`; no token, or one it refuses, is 401 `unauthorized`.
 */
export function bearerSecurity<Key extends 'user' | 'operatorCaller'>(
  key: Key,
  authenticate: (token: string) => Promise<FastifyRequest[Key]>,
) {
  return async (request: FastifyRequest): Promise<void> => {
    const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,4096})$/i.exec(request.headers.authorization ?? '');
    request[key] = signedIn(match?.[1] ? await authenticate(match[1]) : null);
  };
}
