import { z } from 'zod';
import { readRefundRatios, setRefundRatios } from '../../catalog/index.ts';
import { runChange } from '../change.ts';
import { argument, defineCommand } from '../command.ts';

const json = (what: string) =>
  argument(what).transform((raw, context): unknown => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      context.addIssue({
        code: 'custom',
        message: `the ratios must be JSON such as {"48": 1, "24": 0.5, "0": 0}, not '${raw}'`,
      });
      return z.NEVER;
    }
  });

export const refundRatioCommands = {
  'refund-ratios show': defineCommand({
    usage: 'refund-ratios show',
    summary: 'Shows the refund policy given to new bookings: hours before the start -> refunded fraction.',
    schema: z.object({}),
    async run(_input, { db, io }) {
      io.out(JSON.stringify(await readRefundRatios(db)));
    },
  }),

  'refund-ratios set': defineCommand({
    usage: `refund-ratios set '{"48": 1, "24": 0.5, "0": 0}'`,
    summary: 'Sets the refund policy of bookings made from now on (existing bookings keep theirs).',
    schema: z.object({ args: z.tuple([json('the ratios as JSON')]) }),
    async run({ args: [ratios] }, context) {
      const after = await runChange(context, (trx, actor) =>
        setRefundRatios(trx, context, { actor, ratios }),
      );
      context.io.out(`refund ratios set to ${JSON.stringify(after)}`);
    },
  }),
};
