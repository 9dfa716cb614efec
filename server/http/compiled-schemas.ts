import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Ajv, type AnySchema, type Options } from 'ajv';
import { parse } from 'yaml';

// The contract's schemas are compiled when a route first needs them, and once per process: a validator or
// serializer is a pure function of its schema's text, so every app a process builds (the tests build hundreds,
// each from the same contract) shares them, and a start compiles nothing it does not use. A server starts in a
// fraction of the time (no validator is compiled before the first request to its route); the first request to
// each route pays its compilation once (milliseconds). tests/server/operations.test.ts compiles them all.

export const contractPath = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));

let contract: unknown = null;

/** The contract as parsed from openapi/openapi.yaml, read once per process; each caller gets its own copy. */
export function contractDocument<T>(): T {
  contract ??= parse(readFileSync(contractPath, 'utf8')) as unknown;
  return structuredClone(contract) as T;
}

type Check = ((data: unknown) => boolean | Promise<unknown>) & { errors?: unknown };

const checks = new Map<string, Check>();
const serializers = new Map<string, (data: unknown) => string>();
/**
 * The compilations routes asked for that no request has made yet, one per schema (by its key): a process that
 * builds many apps (the tests) keeps one waiting compilation per schema, not one per route of every app.
 */
const pending = new Map<string, () => void>();

/**
 * Compiles every schema the process's routes asked for and no request has needed yet; returns how many. A test
 * proves with it that every route's schemas compile (a start no longer does).
 */
export function compileEverySchema(): number {
  const compilations = [...pending.values()];
  for (const compile of compilations) compile();
  return compilations.length;
}

/** How many distinct schemas the process has compiled (checks and serializers). */
export function compiledSchemaCount(): number {
  return checks.size + serializers.size;
}

/**
 * A check compiled on its first call, and at most once per process for one key: it answers as the compiled one
 * does and carries its `errors`, as ajv's functions do.
 */
export function compiledOnFirstUse<T extends Check>(key: string, compile: () => T): T {
  let compiled: Check | undefined;
  const ensure = (): Check => {
    if (!compiled) {
      pending.delete(key);
      compiled = checks.get(key);
      if (!compiled) {
        compiled = compile();
        checks.set(key, compiled);
      }
    }
    return compiled;
  };
  if (!checks.has(key)) pending.set(key, ensure);
  const lazy = ((data: unknown) => {
    const check = ensure();
    const result = check(data);
    lazy.errors = check.errors;
    return result;
  }) as T;
  lazy.errors = null;
  return lazy;
}

/**
 * An Ajv for @fastify/response-validation (it must be one), whose compilations wait for their first answer and
 * are shared by every app of the process.
 */
export function ajvCompilingOnFirstUse(options: Options): Ajv {
  const ajv = new Ajv(options);
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: AnySchema, meta?: boolean) =>
    compiledOnFirstUse(`response:${JSON.stringify(schema)}`, () => compile(schema, meta))) as Ajv['compile'];
  return ajv;
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type RouteSchema = Parameters<ReturnType<SerializerFactory>>[0];

const defaultSerializers: SerializerFactory = SerializerSelector();

/**
 * Fastify's answer serializer (fast-json-stringify, as by default), compiled on the first answer of its route
 * and status and shared by every app of the process.
 */
export const buildSerializerOnFirstUse: SerializerFactory = (externalSchemas, options) => {
  const compile = defaultSerializers(externalSchemas, options);
  const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
  return (route: RouteSchema) => {
    const key = `${context}:${JSON.stringify(route.schema)}`;
    let compiled: ((data: unknown) => string) | undefined;
    const ensure = () => {
      if (!compiled) {
        pending.delete(`serializer:${key}`);
        compiled = serializers.get(key);
        if (!compiled) {
          compiled = compile(route) as (data: unknown) => string;
          serializers.set(key, compiled);
        }
      }
      return compiled;
    };
    if (!serializers.has(key)) pending.set(`serializer:${key}`, ensure);
    return (data: unknown) => ensure()(data);
  };
};
