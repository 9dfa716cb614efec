import { z } from 'zod';
import { listPayments } from '../../booking/index.ts';
import { defineCommand, money, oneOf, period, periodOptions, table } from '../command.ts';

export const paymentCommands = {
  'payments list': defineCommand({
    usage:
      'payments list [--status paid|unpaid|no_payment_required] [--from <when>] [--until <when>] [--limit 50] [--json]',
    summary: 'Lists checkout sessions (payments), newest first, with their refunds.',
    schema: z.object({
      ...periodOptions,
      status: oneOf(['paid', 'unpaid', 'no_payment_required']).optional(),
    }),
    async run(input, { db, io }) {
      const rows = await listPayments(db, {
        ...period(input),
        paymentStatus: input.status,
      });
      table(
        io,
        rows.map((row) => ({
          session: row.id,
          provider: row.provider,
          status: row.status,
          payment: row.payment_status,
          amount_eur: money(row.amount_cents),
          refunded_eur: money(Number(row.refunded_cents ?? 0)),
          client: row.email,
          created: row.created_at,
          payment_intent: row.payment_intent_id,
        })),
        input.json,
      );
    },
  }),
};
