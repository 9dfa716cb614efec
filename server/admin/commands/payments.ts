import { z } from 'zod';
import { listPayments } from '../../booking/index.ts';
import { stripeReconciliationCsv } from '../../console/index.ts';
import { AppError } from '../../kernel/errors.ts';
import { argument, defineCommand, money, oneOf, period, periodOptions, table } from '../command.ts';

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
  'payments stripe-reconciliation': defineCommand({
    usage: 'payments stripe-reconciliation <from YYYY-MM-DD> <to YYYY-MM-DD>',
    summary:
      'Prints as CSV each Stripe ledger row of the period (Lisbon days) with its balance transaction (gross, fee, net) and payout, then what matches nothing; the same CSV as the console. Needs Stripe (a key that reads balance transactions and payouts).',
    schema: z.object({ args: z.tuple([argument('the first day'), argument('the last day')]) }),
    async run(input, { db, payments, io }) {
      const [from, to] = input.args;
      if (!payments) throw new AppError('provider_balance_missing');
      const text = await stripeReconciliationCsv({ db, payments }, { from, to });
      for (const line of text.split('\r\n').slice(0, -1)) io.out(line);
    },
  }),
};
