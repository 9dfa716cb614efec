// The reports' CSV: comma-separated, CRLF line ends, a header row; what a spreadsheet would run as a formula is
// quoted with a ' before it.

export function csvCell(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean'
          ? String(value)
          : value instanceof Date
            ? value.toString()
            : JSON.stringify(value);
  // A leading = + - @ would be a formula to a spreadsheet: quoted with a ' before it.
  // A number (a refund's negative amount) is not a formula.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) || safe !== text ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One row of cells as a CSV line, its CRLF included. */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function csv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map(csvLine).join('');
}

/** Integer cents as euros with two decimals, by integer arithmetic: -630 is '-6.30'. */
export function eurosOfCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const whole = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}
