import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import formBody from '@fastify/formbody';
import responseValidation from '@fastify/response-validation';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { parse } from 'yaml';
import type { Config } from '../config.ts';
import type { OperationHandlers } from './operations.ts';
import { AppError } from '../errors.ts';
import { resolveLocale } from '../i18n.ts';
import { createAjv } from './validation.ts';

export const contractPath = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));

export type { OperationHandlers } from './operations.ts';
export type SecurityHandlers = Record<
  string,
  (request: never, reply: never, scopes: string[]) => Promise<void>
>;

/** For a request path, the methods the contract declares on the path it matches (`GET, PUT`), or null. */
function methodsByPath(file: string): (path: string) => string | null {
  const document = parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
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
 * Everything under /api: every route comes from the contract, so fastify validates each request
 * against it before a handler runs (and, in tests, each response too).
 */
export async function registerApi(
  app: FastifyInstance,
  options: { config: Config; handlers: OperationHandlers; security: SecurityHandlers },
): Promise<void> {
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
          ajv: createAjv() as never,
          responseStatusCodeValidation: true,
        });
      }
      await api.register(swagger, {
        mode: 'static',
        specification: { path: contractPath, baseDir: path.dirname(contractPath) },
      });
      await api.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
      await api.register(openapiGlue, {
        specification: contractPath,
        operationResolver: (operationId: string) => {
          const handler = (options.handlers as Partial<Record<string, unknown>>)[operationId];
          if (typeof handler !== 'function') {
            throw new Error(`the contract's operation ${operationId} has no handler`);
          }
          return handler as RouteHandlerMethod;
        },
        securityHandlers: options.security,
      });
      const allowedMethods = methodsByPath(contractPath);
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
