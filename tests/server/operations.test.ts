import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../server/config.ts';
import { contractPath, registerApi, type OperationHandlers } from '../../server/http/api.ts';
import { compiledSchemaCount, compileEverySchema } from '../../server/http/compiled-schemas.ts';
import { startAccountApp } from './support/accounts.ts';

// Every operation of the contract has a handler: one the router cannot resolve stops the server at startup,
// naming it, instead of answering 501 to whoever calls it first.

const contract = parse(readFileSync(contractPath, 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};
const operationIds = Object.values(contract.paths).flatMap((path) =>
  Object.values(path).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
);

function handlersFor(ids: readonly string[]): OperationHandlers {
  return Object.fromEntries(ids.map((id) => [id, async () => ({ id })])) as unknown as OperationHandlers;
}

async function startWith(
  handlers: OperationHandlers,
  security: Parameters<typeof registerApi>[1]['security'] = {
    bearerAuth: async () => undefined,
    operatorAuth: async () => undefined,
  },
) {
  const app = Fastify();
  try {
    await registerApi(app, { config: loadConfig({ NODE_ENV: 'test' }), handlers, security });
    await app.ready();
  } finally {
    await app.close();
  }
}

describe('the contract’s operations', () => {
  it('are all routed when each has a handler', async () => {
    expect(operationIds.length).toBeGreaterThan(20);
    await expect(startWith(handlersFor(operationIds))).resolves.toBeUndefined();
  });

  it('stop the server at startup when one has no handler, naming it', async () => {
    await expect(startWith(handlersFor(operationIds.filter((id) => id !== 'createBooking')))).rejects.toThrow(
      /createBooking/,
    );
  });

  it('stop the server at startup when a security scheme they use has no check, naming it', async () => {
    // Its operations would otherwise refuse every caller, found only when someone calls one.
    await expect(startWith(handlersFor(operationIds), { bearerAuth: async () => undefined })).rejects.toThrow(
      /operatorAuth/,
    );
  });
});

describe('the schemas of every route', () => {
  it('compile as the server checks requests and writes and checks answers', async () => {
    // A start compiles none of them (each waits for its route's first request): here all are compiled at once,
    // so one the compilers refuse fails here rather than on some member's request.
    const { app, close } = await startAccountApp('pglite', { VALIDATE_RESPONSES: 'true' });
    try {
      compileEverySchema();
      // Nothing is left waiting, and the process holds at least one answer's schema per operation, most with
      // parameters or a body too (earlier suites of the same worker may have compiled some of them already).
      expect(compileEverySchema()).toBe(0);
      expect(compiledSchemaCount()).toBeGreaterThan(operationIds.length);
      const answer = await app.inject({ method: 'GET', url: '/api/bookings/branches' });
      expect(answer.statusCode).toBe(200);
    } finally {
      await close();
    }
  });
});
