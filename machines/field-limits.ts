import type { components } from '../openapi/schema.gen.ts';

/**
 * The contract's length limits of the fields people type (openapi.yaml: Email, PhoneNumber, PersonName,
 * Password, the coupon code). Inputs carry them as `maxLength`; tests/contract checks they equal the contract.
 */
export const FIELD_LIMITS = {
  email: 254,
  phone: 32,
  personName: 100,
  password: 128,
  couponCode: 64,
  taxId: 20,
} as const;

export type FieldProblem = components['schemas']['FieldProblem'];
