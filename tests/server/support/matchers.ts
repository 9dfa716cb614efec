import { expect } from 'vitest';

/**
 * Vitest's `expect.any(String)`, typed `unknown` instead of `any`: the asymmetric matcher inside an expected
 * object literal then keeps that literal typed (the type-checked lint refuses an `any` in it).
 */
export function anyOf(type: StringConstructor | NumberConstructor | ArrayConstructor): unknown {
  return expect.any(type);
}

/** Vitest's `expect.objectContaining(...)`, typed `unknown` for the same reason. */
export function objectContaining(expected: Record<string, unknown>): unknown {
  return expect.objectContaining(expected);
}
