// The SQLSTATE codes of PostgreSQL's errors the server tells apart (PGlite raises the same ones).

export const SQLSTATE = {
  uniqueViolation: '23505',
  exclusionViolation: '23P01',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
} as const;

/** The SQLSTATE of a database error (the driver's `code`); undefined for anything else. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
