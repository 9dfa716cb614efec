import { z } from 'zod';
import { addMemberNote, listMemberNotes } from '../../console/index.ts';
import { runChange } from '../change.ts';
import { argument, defineCommand, jsonOption, table, UsageError, type AdminContext } from '../command.ts';

// Notes on a member from the back office, as the console's member page writes and reads them (issue 32, item 3):
// the same use case, audited as the CLI. The member is named by their account's e-mail.

async function memberIdOf(context: AdminContext, email: string): Promise<string> {
  const member = await context.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  if (!member) throw new UsageError(`there is no account with the e-mail ${email}`);
  return member.id;
}

export const noteCommands = {
  'note add': defineCommand({
    usage: 'note add <member-email> <text>',
    summary:
      'Writes a note on a member (why blocked, an incident): operators read it, the member never does.',
    schema: z.object({
      args: z.tuple([
        argument('the member’s e-mail'),
        // As the console's request is checked: some text, at most 2000 characters.
        z
          .string({ error: 'missing the note’s text' })
          .trim()
          .min(1, 'the note is empty')
          .max(2000, 'a note has at most 2000 characters'),
      ]),
    }),
    async run({ args: [email, body] }, context) {
      const memberId = await memberIdOf(context, email);
      const note = await runChange(context, (trx, actor) =>
        addMemberNote(trx, context, { actor, memberId, body }),
      );
      context.io.out(`note ${note.id} written on ${email}`);
    },
  }),

  'note list': defineCommand({
    usage: 'note list <member-email> [--json]',
    summary: 'Lists the notes on a member, newest first, with their author.',
    schema: z.object({ args: z.tuple([argument('the member’s e-mail')]), ...jsonOption }),
    async run({ args: [email], json }, context) {
      const notes = await listMemberNotes(context.db, await memberIdOf(context, email));
      table(
        context.io,
        notes.map((note) => ({ id: note.id, at: note.created_at, by: note.created_by, note: note.body })),
        json,
      );
    },
  }),
};
