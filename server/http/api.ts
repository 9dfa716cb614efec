import formBody from '@fastify/formbody';
import responseValidation from '@fastify/response-validation';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import type { Ajv } from 'ajv';
import type { Config } from '../config.ts';
import type { OperationHandlers } from './operations.ts';
import { AppError } from '../kernel/errors.ts';
import { resolveLocale } from '../kernel/i18n.ts';
import { ajvCompilingOnFirstUse, contractDocument } from './compiled-schemas.ts';
import { ajvOptions, withFormats } from './validation.ts';

export { contractPath } from './compiled-schemas.ts';

export type { OperationHandlers } from './operations.ts';
export type SecurityHandlers = Record<
  string,
  (request: never, reply: never, scopes: string[]) => Promise<void>
>;

type ContractDocument = {
  paths: Record<string, Record<string, { operationId?: string; security?: Record<string, string[]>[] }>>;
};

/** For a request path, the methods the contract declares on the path it matches (`GET, PUT`), or null. */
function methodsByPath(document: ContractDocument): (path: string) => string | null {
  const methods = ['get', 'put', 'post', 'delete', 'patch'];
  const routes = Object.entries(document.paths).map(([template, item]) => ({
    pattern: new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    ),
    allow: methods
      .filter((method) => method in item)
      .map((method) => method.toUpperCase())
      .join(', '),
  }));
  return (path) => routes.find((route) => route.pattern.test(path))?.allow ?? null;
}

/**
 * The security check of each protected operation, as an `onRequest` hook: it runs before the body is read and
 * before parameters and body are validated, so a caller without a valid token hears 401 and learns nothing
 * about the operation's input (fastify-openapi-glue would run it as a `preHandler`, after validation). As the
 * contract reads, one satisfied requirement is enough, and every scheme of a requirement must pass; a refusal
 * is shaped as the glue's `SecurityError` (name `Unauthorized`, status 401, what each check threw in `errors`), so
 * the error handler still tells a refused token from a database it could not ask.
 */
function securityChecks(document: ContractDocument, handlers: SecurityHandlers) {
  const checks = new Map<string, (request: FastifyRequest, reply: FastifyReply) => Promise<void>>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const requirements = operation.security ?? [];
      if (!operation.operationId || requirements.length === 0) continue;
      for (const name of requirements.flatMap((requirement) => Object.keys(requirement))) {
        if (!handlers[name]) throw new Error(`the contract's security scheme ${name} has no handler`);
      }
      checks.set(operation.operationId, async (request, reply) => {
        const failures: unknown[] = [];
        for (const requirement of requirements) {
          try {
            for (const [name, scopes] of Object.entries(requirement)) {
              await handlers[name]!(request as never, reply as never, scopes);
            }
            return;
          } catch (error) {
            failures.push(error);
          }
        }
        throw Object.assign(new Error('no security requirement of the operation was met'), {
          name: 'Unauthorized',
          statusCode: 401,
          errors: failures,
        });
      });
    }
  }
  return checks;
}

/** The answers' checks (VALIDATE_RESPONSES), one Ajv for the process. */
let responseAjvInstance: Ajv | null = null;
function responseAjv(): Ajv {
  responseAjvInstance ??= withFormats(ajvCompilingOnFirstUse(ajvOptions));
  return responseAjvInstance;
}

/**
 * Everything under /api: every route comes from the contract, so fastify validates each request
 * against it before a handler runs (and, in tests, each response too).
 */
export async function registerApi(
  app: FastifyInstance,
  options: { config: Config; handlers: OperationHandlers; security: SecurityHandlers },
): Promise<void> {
  const document = contractDocument<ContractDocument>();
  const security = securityChecks(document, options.security);
  await app.register(
    async (api) => {
      await api.register(formBody, { bodyLimit: 16 * 1024 });
      // No cache along the way keeps an API answer unless its handler says it may (server/http/caching.ts): what
      // is personal or changes state never lands in a shared cache by omission.
      api.addHook('onSend', async (_request, reply, payload) => {
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
        return payload;
      });
      if (options.config.validateResponses) {
        // An answer with a status the operation does not declare fails too, not only a wrong body.
        await api.register(responseValidation, {
          ajv: responseAjv() as never,
          responseStatusCodeValidation: true,
        });
      }
      await api.register(swagger, {
        mode: 'static',
        // The plugin's type for an OpenAPI document; the contract is one (tests/contract checks it).
        specification: { document: contractDocument<never>() },
      });
      await api.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
      await api.register(openapiGlue, {
        specification: contractDocument<Record<string, unknown>>(),
        operationResolver: (operationId: string) => {
          const handler = (options.handlers as Partial<Record<string, unknown>>)[operationId];
          if (typeof handler !== 'function') {
            throw new Error(`the contract's operation ${operationId} has no handler`);
          }
          const check = security.get(operationId);
          if (!check) return handler as RouteHandlerMethod;
          // Route options the glue spreads over its own (method, url and schema stay the contract's); its types
          // ask for a whole route.
          return { handler, onRequest: check } as unknown as RouteOptions;
        },
      });
      const allowedMethods = methodsByPath(document);
      api.setNotFoundHandler((request, reply) => {
        const locale = resolveLocale(request.headers.locale);
        // A path of the contract called with a method it does not declare: 405 and the methods it does take.
        const allow = allowedMethods(request.url.slice('/api'.length).split('?')[0] ?? '');
        if (allow) {
          return reply
            .status(405)
            .header('allow', allow)
            .send(new AppError('method_not_allowed').body(locale));
        }
        return reply.status(404).send(new AppError('not_found').body(locale));
      });
    },
    { prefix: '/api' },
  );
}
