import path from 'node:path';
import { fileURLToPath } from 'node:url';
import formBody from '@fastify/formbody';
import responseValidation from '@fastify/response-validation';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
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
      if (options.config.validateResponses) {
        await api.register(responseValidation, { ajv: createAjv() as never });
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
      api.setNotFoundHandler((request, reply) =>
        reply.status(404).send(new AppError('not_found').body(resolveLocale(request.headers.locale))),
      );
    },
    { prefix: '/api' },
  );
}
