import { z } from 'zod';
import {
  blockContact,
  createBlockedContactService,
  normaliseContact,
  unblockContact,
} from '../../accounts/index.ts';
import { AppError } from '../../kernel/errors.ts';
import { runChange } from '../change.ts';
import { argument, defineCommand, listCommand, text } from '../command.ts';

const contactArguments = z.tuple([
  z.enum(['email', 'phone'], {
    error: (issue) =>
      issue.input === undefined
        ? 'missing what to block: email or phone'
        : `the first argument is email or phone, not '${typeof issue.input === 'string' ? issue.input : JSON.stringify(issue.input)}'`,
  }),
  argument('the e-mail address or phone number'),
]);

export const blockCommands = {
  'block add': defineCommand({
    usage: 'block add email|phone <value> [--reason <text>]',
    summary: 'Blocks an e-mail address or phone number from registering and booking.',
    schema: z.object({ args: contactArguments, reason: text().optional() }),
    async run({ args: [kind, raw], reason }, context) {
      try {
        const { contact } = await runChange(context, (trx, actor) =>
          blockContact(trx, context, { actor, kind, value: raw, reason: reason ?? null }),
        );
        context.io.out(`blocked ${contact.kind} ${contact.value}`);
      } catch (error) {
        // Blocked already is what the operator wanted: said, and not a failure.
        if (!(error instanceof AppError && error.code === 'contact_already_blocked')) throw error;
        const contact = normaliseContact(kind, raw);
        context.io.out(`${contact.kind} ${contact.value} was blocked already`);
      }
    },
  }),

  'block remove': defineCommand({
    usage: 'block remove email|phone <value>',
    summary: 'Lifts a block.',
    schema: z.object({ args: contactArguments }),
    async run({ args: [kind, raw] }, context) {
      const contact = await runChange(
        context,
        (trx, actor) => unblockContact(trx, context, { actor, blocked: { kind, value: raw } }),
        { blocked_contact_not_found: `${kind} ${raw} is not blocked` },
      );
      context.io.out(`unblocked ${contact.kind} ${contact.value}`);
    },
  }),

  'block list': listCommand({
    usage: 'block list [--json]',
    summary: 'Lists blocked e-mail addresses and phone numbers.',
    list: ({ db }) => createBlockedContactService({ db }).list(),
  }),
};
