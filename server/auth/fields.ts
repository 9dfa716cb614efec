import { AppError } from '../errors.ts';

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
