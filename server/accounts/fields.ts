import { isValidPortugueseTaxId, normaliseTaxId } from '../../openapi/tax-id.ts';
import { AppError } from '../kernel/errors.ts';

// What people type into account forms, brought to the one form the database keeps.

// Spec section 5: trimmed, every whitespace removed, then '+', a 1-3 digit country code and 7-14 digits.
const INTERNATIONAL_PHONE = /^\+\d{1,3}\d{7,14}$/;

export function sanitisePhoneNumber(input: string): string {
  const phone = input.trim().replace(/\s+/g, '');
  if (!INTERNATIONAL_PHONE.test(phone)) throw new AppError('invalid_phone_number');
  return phone;
}

export function normaliseEmail(input: string): string {
  return input.trim().toLowerCase();
}

/** A first or last name: trimmed, inner runs of whitespace made one space, control characters refused. */
export function cleanName(input: string): string {
  const name = input.trim().replace(/\s+/g, ' ');
  // eslint-disable-next-line no-control-regex
  if (!name || /[\u0000-\u001f\u007f]/.test(name)) throw new AppError('invalid_name');
  return name;
}

/**
 * The member's tax number as stored: the nine digits of a valid NIF, or null when none is given. A wrong check
 * digit is a field problem of `tax_id`, shown beside the field.
 */
export function cleanTaxId(input: string | null | undefined): string | null {
  if (input === null || input === undefined || input.trim() === '') return null;
  if (!isValidPortugueseTaxId(input)) {
    throw new AppError(
      'validation_failed',
      { problems: "'tax_id' is not a valid Portuguese tax number (NIF)" },
      { fields: [{ field: 'tax_id', problem: 'invalid' }] },
    );
  }
  return normaliseTaxId(input);
}
