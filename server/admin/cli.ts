import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ZodError, type z } from 'zod';
import { sqlState } from '../kernel/database-errors.ts';
import { AppError } from '../kernel/errors.ts';
import { UsageError, type AdminCommand, type AdminContext } from './command.ts';
import { approvalCommands } from './commands/approvals.ts';
import { blockCommands } from './commands/block.ts';
import { bookingCommands } from './commands/bookings.ts';
import { branchCommands } from './commands/branch.ts';
import { couponCommands } from './commands/coupon.ts';
import { packCommands } from './commands/pack.ts';
import { lockCommands } from './commands/locks.ts';
import { noteCommands } from './commands/note.ts';
import { operatorCommands } from './commands/operator.ts';
import { paymentCommands } from './commands/payments.ts';
import { priceRuleCommands } from './commands/price-rule.ts';
import { priceCommands } from './commands/prices.ts';
import { refundRatioCommands } from './commands/refund-ratios.ts';

// The back office: `npm run admin -- <command> [arguments] [options]`. Every command is a function of the same
// database, clock and services as the server; output goes to `io`, so tests read it. A new command is a
// module in ./commands (see ./command.ts for its shape) added to this list.

export type { AdminContext, AdminIo } from './command.ts';

const COMMANDS: Record<string, AdminCommand> = {
  ...branchCommands,
  ...priceCommands,
  ...priceRuleCommands,
  ...couponCommands,
  ...packCommands,
  ...refundRatioCommands,
  ...blockCommands,
  ...noteCommands,
  ...bookingCommands,
  ...approvalCommands,
  ...paymentCommands,
  ...lockCommands,
  ...operatorCommands,
};

function helpText(): string {
  const lines = [
    'Back office of the private gym. Uses the server’s configuration (DATABASE_URL, or the PGlite DATA_DIR).',
    '',
    'Usage: npm run admin -- <command> [arguments] [options]',
    '',
    'Commands:',
  ];
  for (const command of Object.values(COMMANDS)) lines.push(`  ${command.usage}`, `      ${command.summary}`);
  lines.push(
    '',
    '<when> is a date (2026-05-01, midnight UTC) or an instant with its offset (2026-05-01T09:00:00+01:00).',
    'Exit codes: 0 done, 2 bad input (the message says what), 1 anything else.',
  );
  return lines.join('\n');
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** What the argument parser must know of an option: does it take a value, may it repeat. */
function optionKind(schema: z.ZodType): 'boolean' | 'multiple' | 'string' {
  const def = schema.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  if (def.type === 'boolean') return 'boolean';
  if (def.type === 'array') return 'multiple';
  const inner = def.innerType ?? def.in;
  return inner ? optionKind(inner) : 'string';
}

function parserOptions(command: AdminCommand): Options {
  const options: Options = {};
  for (const [name, schema] of Object.entries(command.schema.shape)) {
    if (name === 'args') continue;
    const kind = optionKind(schema as z.ZodType);
    options[name] = kind === 'multiple' ? { type: 'string', multiple: true } : { type: kind };
  }
  return options;
}

/** Issues of the command line, named as the operator typed them. */
function describeUsage(error: ZodError): string {
  return error.issues
    .map((issue) => {
      const [key] = issue.path;
      if (key === undefined || key === 'args') return issue.message;
      if (issue.code === 'invalid_type' && issue.input === undefined) return `--${String(key)} is required`;
      return `--${String(key)} ${issue.message}`;
    })
    .join('; ');
}

/** Issues of a service's own validation, named by the field they concern. */
function describeInvalid(error: ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ');
}

/** A service's refusal; the fields its problems name are said as this command's options. */
function describeRefusal(error: AppError, command: AdminCommand): string {
  if (error.code !== 'validation_failed') return error.code;
  const described = error.params.problems;
  // Problems worded per language are said in English, as the rest of the CLI.
  let problems = typeof described === 'function' ? described('en') : String(described);
  for (const option of Object.keys(parserOptions(command))) {
    problems = problems.replace(new RegExp(`\\b${option.replaceAll('-', '_')}\\b`, 'g'), `--${option}`);
  }
  return problems;
}

function parseInput(command: AdminCommand, rest: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...rest],
    options: { ...parserOptions(command), help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return 'help' as const;
  const { help: _help, ...options } = values;
  const tuple = command.schema.shape.args;
  const count = tuple?.def.items.length ?? 0;
  const args = Array.from({ length: count }, (_, index) => positionals[index]);
  const parsed = command.schema.safeParse({ ...options, args });
  if (!parsed.success) throw new UsageError(describeUsage(parsed.error));
  return parsed.data;
}

/** Runs one command line; answers the process exit code. */
export async function runAdmin(argv: readonly string[], context: AdminContext): Promise<number> {
  const [noun, verb, ...rest] = argv;
  if (noun === undefined || noun === '--help' || noun === '-h' || noun === 'help') {
    context.io.out(helpText());
    return noun === undefined ? 2 : 0;
  }
  const command = COMMANDS[`${noun} ${verb ?? ''}`];
  if (!command) {
    context.io.err(
      `unknown command '${[noun, verb].filter(Boolean).join(' ')}'. Run with --help for the list.`,
    );
    return 2;
  }
  try {
    const input = parseInput(command, rest);
    if (input === 'help') {
      context.io.out(`Usage: npm run admin -- ${command.usage}\n${command.summary}`);
      return 0;
    }
    await command.run(input, context);
    return 0;
  } catch (error) {
    const invalid =
      error instanceof UsageError
        ? error.message
        : error instanceof ZodError
          ? describeInvalid(error)
          : error instanceof AppError
            ? describeRefusal(error, command)
            : sqlState(error)?.startsWith('ERR_PARSE_ARGS')
              ? (error as Error).message
              : sqlState(error)?.startsWith('23')
                ? `refused by the database: ${(error as { detail?: string }).detail ?? (error as Error).message}`
                : null;
    if (invalid === null) throw error;
    context.io.err(`${noun} ${verb}: ${invalid}`);
    context.io.err(`usage: npm run admin -- ${command.usage}`);
    return 2;
  }
}
