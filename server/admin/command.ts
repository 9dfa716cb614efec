import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import type { LockProvider } from '../adapters/locks/provider.ts';
import type { PaymentProvider } from '../adapters/payments/provider.ts';
import { userInfo } from 'node:os';
import { cliActor, type Actor } from '../kernel/audit.ts';
import { ACCEPTED_YEARS, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import type { LocaleCode } from '../db/schema.ts';
import type { Modules } from '../modules.ts';

// A back-office command is a module `server/admin/commands/<noun>.ts` exporting a record of
// `AdminCommand`s keyed by '<noun> <verb>' (registered in `server/admin/cli.ts`). Each is `{ usage, summary,
// schema, run }`:
// - `schema` is a zod object over the command line: `args` (a tuple, the positional arguments) and one key
//   per `--option`, named as typed. Its shape declares the options to the argument parser (z.boolean() is a
//   flag, z.array() may repeat, anything else takes a value); its coercions turn text into values and its
//   messages say what was wrong ('--price must be ...').
// - `run(input, context)` gets the parsed input and calls the same services as the HTTP handlers: no SQL and
//   no business rule lives in a command, only reading arguments and writing output to `context.io`.

export type AdminIo = { out(line: string): void; err(line: string): void };
export type AdminContext = {
  db: Db;
  clock: Clock;
  horizonDays: number;
  io: AdminIo;
  /** The configured lock provider (Seam or the virtual doors); by default the virtual doors. */
  lockProvider?: LockProvider;
  /** The configured payment provider (Stripe or the local one); without it, none with a balance. */
  payments?: PaymentProvider;
  /** Where links point (`PUBLIC_URL`) and the operators' default language (`OPERATOR_LOCALE`). */
  publicUrl?: string;
  operatorLocale?: LocaleCode;
  /** Whether branch map and image links may be plain `http:` (outside production); https only by default. */
  allowPlainHttp?: boolean;
  /** Who the audit log names for this run's changes; by default `cli:<the OS user running it>`. */
  actor?: Actor;
  /** The server's services, from the one composition root (admin/main.ts builds them as the server does). */
  modules?: Modules;
};

function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    // A container user without a passwd entry has no name, only a uid.
    return `uid ${process.getuid?.() ?? 'unknown'}`;
  }
}

/** The CLI's actor in the audit log: the context's, or `cli:<OS user>`. */
export function actorOf(context: AdminContext): Actor {
  return context.actor ?? cliActor(osUserName());
}

/** Bad input: the message is for the operator, and the exit code is 2. */
export class UsageError extends Error {}

type CommandSchema = z.ZodObject<{ args?: z.ZodTuple } & z.ZodRawShape>;

export type AdminCommand<Schema extends CommandSchema = CommandSchema> = {
  usage: string;
  summary: string;
  schema: Schema;
  run(input: z.output<Schema>, context: AdminContext): Promise<void>;
};

/** Keeps `run`'s input typed by the command's own schema. */
export function defineCommand<Schema extends CommandSchema>(command: AdminCommand<Schema>): AdminCommand {
  return command;
}

// --- Argument types: text in, values out, with the operator's message on bad text --------------------------

const not = (what: string) => (issue: { input?: unknown }) => `${what}, not '${String(issue.input)}'`;

/** A positional argument; missing, it says which. */
export function argument(what: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? `missing ${what}` : undefined) });
}

/** A positional id: digits only. */
export function idArgument(what: string) {
  return argument(what)
    .regex(/^\d+$/, { error: not(`${what} must be a number`) })
    .transform(Number);
}

export const text = () => z.string();

export function wholeNumber({ min, max }: { min?: number; max?: number } = {}) {
  const range = `${min !== undefined ? ` from ${min}` : ''}${max !== undefined ? ` to ${max}` : ''}`;
  return z
    .string()
    .regex(/^-?\d+$/, { error: not(`must be a whole number${range}`) })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min ?? -Infinity, { error: not(`must be a whole number${range}`) })
        .max(max ?? Infinity, { error: not(`must be a whole number${range}`) }),
    );
}

export const decimal = () =>
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, { error: not('must be a number') })
    .transform(Number);

/** Euros as '15' or '15.50' into cents, exactly. */
export const euros = () =>
  z
    .string()
    .regex(/^\d+(?:[.,]\d{1,2})?$/, { error: not('must be an amount in euros such as 15 or 15.50') })
    .transform((raw) => {
      const [whole, fraction = ''] = raw.split(/[.,]/);
      return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
    });

/** An instant: ISO 8601 with an offset, or a date (midnight UTC), in the accepted years (2000 to 2100). */
export const instant = () =>
  z.string().transform((raw, context) => {
    let value: Date;
    try {
      value = /^\d{4}-\d{2}-\d{2}$/.test(raw)
        ? new Date(Temporal.PlainDate.from(raw, { overflow: 'reject' }).toString() + 'T00:00:00Z')
        : new Date(Temporal.Instant.from(raw).epochMilliseconds);
    } catch {
      context.addIssue({
        code: 'custom',
        message: `must be a date (2026-05-01) or an instant with its offset (2026-05-01T09:00:00+01:00), not '${raw}'`,
      });
      return z.NEVER;
    }
    const year = value.getUTCFullYear();
    if (Number.isNaN(year) || year < ACCEPTED_YEARS.first || year > ACCEPTED_YEARS.last) {
      context.addIssue({
        code: 'custom',
        message: `must lie in the years ${ACCEPTED_YEARS.first} to ${ACCEPTED_YEARS.last}, not '${raw}'`,
      });
      return z.NEVER;
    }
    return value;
  });

/** `none` lifts a limit: null; anything else is read by `value`. */
export function orNone<Out>(value: z.ZodType<Out, string>) {
  return z.string().transform((raw, context): Out | null => {
    if (raw === 'none') return null;
    const parsed = value.safeParse(raw);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });
}

export const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: not(`is one of ${values.join(', ')}`) });

/** A time of day, '07:00', into minutes after midnight; `24:00` where `allowEnd`. */
export function minuteOfDay(allowEnd: boolean) {
  const message = `must be a time of day such as 07:00${allowEnd ? ' (or 24:00)' : ''}`;
  return z.string().transform((raw, context) => {
    const match = /^(\d{1,2}):(\d{2})$/.exec(raw);
    const minutes = match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
    if (!match || Number(match[2]) > 59 || minutes > (allowEnd ? 1440 : 1439)) {
      context.addIssue({ code: 'custom', message: `${message}, not '${raw}'` });
      return z.NEVER;
    }
    return minutes;
  });
}

export const flag = () => z.boolean().optional();

/** `--active` / `--inactive` into true, false or undefined (neither given). */
export const activationOptions = { active: flag(), inactive: flag() };

export function activation(values: { active?: boolean; inactive?: boolean }): boolean | undefined {
  if (values.active) return true;
  if (values.inactive) return false;
  return undefined;
}

export function refuseBothActivations(values: { active?: boolean; inactive?: boolean }): boolean {
  return !(values.active && values.inactive);
}

export const BOTH_ACTIVATIONS = { message: '--active and --inactive exclude each other' };

export const jsonOption = { json: flag() };

/** The options of a listing over time: `--from`, `--until`, `--limit` (50 unless given) and `--json`. */
export const periodOptions = {
  ...jsonOption,
  from: instant().optional(),
  until: instant().optional(),
  limit: wholeNumber({ min: 1, max: 10_000 }).default(50),
};

/** The period and row limit a list command read with `periodOptions`, as the services' filters take them. */
export function period(input: { from?: Date; until?: Date; limit: number }) {
  return { from: input.from, until: input.until, limit: input.limit };
}

// --- Output ------------------------------------------------------------------------------------------------

/** A `<noun> list [--json]` command: the rows `list` reads, as a table (or JSON). */
export function listCommand(command: {
  usage: string;
  summary: string;
  list(context: AdminContext): Promise<Record<string, unknown>[]>;
}): AdminCommand {
  return defineCommand({
    usage: command.usage,
    summary: command.summary,
    schema: z.object(jsonOption),
    async run({ json }, context) {
      table(context.io, await command.list(context), json);
    },
  });
}

/** Rows as aligned columns, or as JSON with `--json`. */
export function table(io: AdminIo, rows: Record<string, unknown>[], asJson: boolean | undefined): void {
  if (asJson) {
    io.out(JSON.stringify(rows, null, 2));
    return;
  }
  if (rows.length === 0) {
    io.out('(none)');
    return;
  }
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return '-';
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
      return String(value);
    return JSON.stringify(value);
  };
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => cell(row[column]).length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((value, index) => value.padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  io.out(line(columns));
  for (const row of rows) io.out(line(columns.map((column) => cell(row[column]))));
}

/** Cents as the operator reads euros: '15.00'. */
export const money = (cents: number) => (cents / 100).toFixed(2);
