import type { ErrorBody } from './support/accounts.ts';
import { readFileSync } from 'node:fs';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PGLITE_ONLY } from './support/databases.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';

// Authentication comes before validation (shared DECISIONS.md): a caller without a valid token learns nothing
// about an operation's parameters or body, so every protected operation of the contract answers 401 whatever
// else is wrong with the request.

type Operation = { operationId: string; security?: Record<string, unknown>[] };
const contract = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const secured = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, operation]) => (operation.security ?? []).length > 0)
    .map(([method, operation]) => ({
      id: operation.operationId,
      method: method.toUpperCase(),
      path,
      forOperators: operation.security!.some((entry) => 'operatorAuth' in entry),
    })),
);

/** The operation's URL with every path parameter broken and query parameters of the wrong type and range. */
const brokenUrl = (path: string) =>
  `/api${path.replace(/\{[a-zA-Z_]+\}/g, 'not%20an%20id%20%27%3B--')}?from=0000-00-00&page=-1&date=2026-02-30&q=${'x'.repeat(5000)}`;

const BROKEN_BODIES: { label: string; payload: string; contentType: string }[] = [
  { label: 'broken JSON', payload: '{"time_slot_id": ', contentType: 'application/json' },
  {
    label: 'fields of the wrong type',
    payload: '{"__proto__": {"x": 1}, "id": []}',
    contentType: 'application/json',
  },
  { label: 'a type it does not take', payload: '<a/>', contentType: 'application/xml' },
  {
    label: 'an oversized body',
    payload: JSON.stringify({ padding: 'p'.repeat(70 * 1024) }),
    contentType: 'application/json',
  },
];

describe.each(PGLITE_ONLY)('authentication before validation on %s', (target) => {
  let server: AccountApp;
  let memberToken: string;

  beforeAll(async () => {
    server = await startAccountApp(target);
    memberToken = (await verifiedAccount(newClient(server.app), server.app)).token;
  });
  afterAll(async () => server?.close());

  it('answers 401 to every protected operation of the contract without a valid token, whatever its parameters and body', async () => {
    expect(secured.length).toBeGreaterThan(50);
    const client = newClient(server.app);
    const problems: string[] = [];
    for (const operation of secured) {
      const authorizations: [string, string | undefined][] = [
        ['no token', undefined],
        ['a garbage token', 'Bearer garbage'],
        ['Basic credentials', 'Basic dXNlcjpwYXNz'],
        // A member's genuine token is no operator's token.
        ...(operation.forOperators ? [['a member token', `Bearer ${memberToken}`] as [string, string]] : []),
      ];
      for (const [who, authorization] of authorizations) {
        for (const body of BROKEN_BODIES) {
          const request: InjectOptions = {
            method: operation.method,
            url: brokenUrl(operation.path),
            headers: {
              'content-type': body.contentType,
              locale: 'en',
              ...(authorization ? { authorization } : {}),
            },
            payload: body.payload,
          };
          const response = await client.call(request);
          const answer = response.json<ErrorBody>();
          if (response.statusCode !== 401 || answer.code !== 'unauthorized' || 'fields' in answer) {
            problems.push(
              `${operation.id} (${who}, ${body.label}) -> ${response.statusCode} ${response.body.slice(0, 120)}`,
            );
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
