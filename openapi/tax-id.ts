// The Portuguese tax number (NIF), the one format of the contract's `tax_id` that a pattern cannot check: nine
// digits whose last is a check digit (modulo 11 over the first eight, weighted 9 down to 2; 10 counts as 0).
// Shared by the server, which refuses a wrong one, and the client, which says so beside the field first.

/** Spaces and a leading 'PT' are how people often write it; the stored form is the nine digits. */
export function normaliseTaxId(input: string): string {
  return input.replace(/\s+/g, '').replace(/^PT/i, '');
}

export function isValidPortugueseTaxId(input: string): boolean {
  const digits = normaliseTaxId(input);
  if (!/^[1-9]\d{8}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < 8; index += 1) sum += Number(digits[index]) * (9 - index);
  const check = 11 - (sum % 11);
  return Number(digits[8]) === (check >= 10 ? 0 : check);
}
