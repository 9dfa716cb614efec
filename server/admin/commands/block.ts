import { z } from 'zod';
import { blockAuditSubject, createBlockedContactService, normaliseContact } from '../../accounts/index.ts';
import { argument, auditedChange, defineCommand, listCommand, text, UsageError } from '../command.ts';

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
      const contact = normaliseContact(kind, raw);
      const added = await auditedChange(context, async (trx) => {
        const blocked = await createBlockedContactService({ db: trx }).block(contact, reason ?? null);
        return {
          result: blocked,
          audit: blocked
            ? {
                ...blockAuditSubject('contact.block', contact),
                reason: reason ?? null,
                after: contact,
              }
            : null,
        };
      });
      context.io.out(
        added
          ? `blocked ${contact.kind} ${contact.value}`
          : `${contact.kind} ${contact.value} was blocked already`,
      );
    },
  }),

  'block remove': defineCommand({
    usage: 'block remove email|phone <value>',
    summary: 'Lifts a block.',
    schema: z.object({ args: contactArguments }),
    async run({ args: [kind, raw] }, context) {
      const contact = normaliseContact(kind, raw);
      await auditedChange(context, async (trx) => {
        if (!(await createBlockedContactService({ db: trx }).unblock(contact))) {
          throw new UsageError(`${contact.kind} ${contact.value} is not blocked`);
        }
        return {
          result: undefined,
          audit: { ...blockAuditSubject('contact.unblock', contact), before: contact },
        };
      });
      context.io.out(`unblocked ${contact.kind} ${contact.value}`);
    },
  }),

  'block list': listCommand({
    usage: 'block list [--json]',
    summary: 'Lists blocked e-mail addresses and phone numbers.',
    list: ({ db }) => createBlockedContactService({ db }).list(),
  }),
};
