import { z } from 'zod';
import { AppError } from '../../kernel/errors.ts';
import { createOperatorAccounts } from '../../operators/index.ts';
import {
  actorOf,
  type AdminContext,
  argument,
  defineCommand,
  flag,
  listCommand,
  oneOf,
  wholeNumber,
} from '../command.ts';

function accounts(context: AdminContext) {
  return createOperatorAccounts({
    db: context.db,
    clock: context.clock,
    publicUrl: context.publicUrl ?? 'http://localhost:3000',
    defaultLocale: context.operatorLocale ?? 'en',
  });
}

export const operatorCommands = {
  'operator add': defineCommand({
    usage: 'operator add <email> --role owner|staff',
    summary:
      'Adds a console operator; prints a one-time password-setup link (72 hours) and the TOTP secret as an otpauth:// URI.',
    schema: z.object({ args: z.tuple([argument('the e-mail address')]), role: oneOf(['owner', 'staff']) }),
    async run({ args: [email], role }, context) {
      const created = await accounts(context).createOperator(actorOf(context), { email, role });
      context.io.out(`added ${created.operator.role} ${created.operator.email} (id ${created.operator.id})`);
      context.io.out(`password setup link (once, until ${created.setupExpiresAt.toISOString()}):`);
      context.io.out(`  ${created.setupUrl}`);
      context.io.out('TOTP secret for an authenticator app (shown once):');
      context.io.out(`  ${created.totpUri}`);
    },
  }),

  'operator list': listCommand({
    usage: 'operator list [--json]',
    summary: 'Lists the console operators.',
    async list(context) {
      const operators = await accounts(context).listOperators();
      return operators.map(({ operator, branches }) => ({
        id: operator.id,
        email: operator.email,
        role: operator.role,
        branches: branches.all ? 'all' : branches.branchIds.join(' '),
        password_set: operator.password_hash !== null,
        created_at: operator.created_at.toISOString(),
      }));
    },
  }),

  'operator branches': defineCommand({
    usage: 'operator branches <email> (--branch <id> [--branch <id>...] | --all)',
    summary:
      'Limits a staff member to some branches (they see and act on those only), or gives every branch again (--all). Audited.',
    schema: z
      .object({
        args: z.tuple([argument('the e-mail address')]),
        branch: z.array(wholeNumber({ min: 1 })).optional(),
        all: flag(),
      })
      .refine((input) => (input.all === true) !== (input.branch !== undefined && input.branch.length > 0), {
        message: 'give --branch <id> (repeatable) or --all, not both',
      }),
    async run({ args: [email], branch, all }, context) {
      const service = accounts(context);
      const operator = await service.findOperatorByEmail(email);
      if (!operator) throw new AppError('operator_not_found');
      const changed = await service.setOperatorBranches(actorOf(context), operator.id, all ? null : branch!);
      context.io.out(
        changed.branches.all
          ? `${operator.email} now has every branch`
          : `${operator.email} now has branches ${changed.branches.branchIds.join(', ')}`,
      );
    },
  }),

  'operator remove': defineCommand({
    usage: 'operator remove <email>',
    summary: 'Removes a console operator and ends their sessions (the last owner stays).',
    schema: z.object({ args: z.tuple([argument('the e-mail address')]) }),
    async run({ args: [email] }, context) {
      const service = accounts(context);
      const operator = await service.findOperatorByEmail(email);
      if (!operator) throw new AppError('operator_not_found');
      await service.removeOperator(actorOf(context), operator.id);
      context.io.out(`removed ${operator.email}`);
    },
  }),
};
