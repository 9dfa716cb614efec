import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';

// The contract's answers, for tests that answer the client's calls themselves (the component model tests):
// which operation a request is, and whether a body is one the contract allows for that operation and status.

type Reference = { $ref: string };
type MediaType = { schema?: Record<string, unknown> };
type Response = { content?: Record<string, MediaType> };
type Operation = { operationId: string; responses: Record<string, Response | Reference> };
type Document = {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response> } & Record<string, unknown>;
};

const document = parse(
  readFileSync(path.resolve(import.meta.dirname, '../../openapi/openapi.yaml'), 'utf8'),
) as Document;

// ajv-formats ships CommonJS with a default export object; under Node's ESM loader the callable sits on `.default`.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as unknown as (ajv: Ajv) => Ajv;
// OpenAPI carries keywords (example, discriminator...) that are not JSON Schema; bodies are checked as they are.
const ajv = addFormats(new Ajv({ strict: false, allowUnionTypes: true }));
ajv.addSchema({ $id: 'contract.json', components: document.components });

type Route = { operationId: string; method: string; pattern: RegExp };
const routes: Route[] = Object.entries(document.paths).flatMap(([template, operations]) =>
  Object.entries(operations)
    .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
    .map(([method, operation]) => ({
      operationId: operation.operationId,
      method: method.toUpperCase(),
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
);

/** The contract's operation for a request (its path taken after the API's base path `/api`). */
export function operationOf(method: string, pathname: string): string {
  const path = pathname.replace(/^\/api(?=\/)/, '');
  const route = routes.find((candidate) => candidate.method === method && candidate.pattern.test(path));
  if (!route) throw new Error(`the contract has no operation for ${method} ${pathname}`);
  return route.operationId;
}

function operation(operationId: string): Operation {
  for (const operations of Object.values(document.paths))
    for (const candidate of Object.values(operations))
      if (candidate.operationId === operationId) return candidate;
  throw new Error(`the contract has no operation ${operationId}`);
}

const validators = new Map<string, ValidateFunction | null>();

/** The JSON body's schema of an operation's answer with this status, or null when that answer has no body. */
function validatorFor(operationId: string, status: number): ValidateFunction | null {
  const key = `${operationId} ${status}`;
  if (validators.has(key)) return validators.get(key)!;
  const declared = operation(operationId).responses[String(status)];
  if (!declared) throw new Error(`the contract declares no ${status} answer for ${operationId}`);
  const response =
    '$ref' in declared
      ? document.components.responses[declared.$ref.replace('#/components/responses/', '')]
      : declared;
  const schema = response?.content?.['application/json']?.schema;
  const validate = schema
    ? ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"contract.json#/components/')),
      )
    : null;
  validators.set(key, validate);
  return validate;
}

/** Throws unless the contract allows `body` as the operation's answer with `status` (no body: `undefined`). */
export function assertContractAnswer(operationId: string, status: number, body: unknown): void {
  const validate = validatorFor(operationId, status);
  if (!validate) {
    if (body !== undefined) throw new Error(`${operationId} ${status} has no body in the contract`);
    return;
  }
  if (!validate(body))
    throw new Error(
      `the answer ${operationId} ${status} breaks the contract: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`,
    );
}
