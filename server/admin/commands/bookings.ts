import { z } from 'zod';
import { formatLocalTime } from '../../catalog/index.ts';
import { listBookingRecords } from '../../booking/index.ts';
import { instantFromDate } from '../../kernel/clock.ts';
import { doorStatesOfBookings } from '../../doors/index.ts';
import { defineCommand, money, oneOf, period, periodOptions, table, text, wholeNumber } from '../command.ts';

export const bookingCommands = {
  'bookings list': defineCommand({
    usage:
      'bookings list [--branch <id>] [--status pending|confirmed|canceled|expired] [--from <when>] [--until <when>] [--email <address>] [--limit 50] [--json]',
    summary: 'Lists bookings by start, newest first; times in each branch’s zone.',
    schema: z.object({
      ...periodOptions,
      branch: wholeNumber({ min: 1 }).optional(),
      status: oneOf(['pending', 'confirmed', 'canceled', 'expired']).optional(),
      email: text().optional(),
    }),
    async run(input, { db, io }) {
      const rows = await listBookingRecords(db, {
        ...period(input),
        branchId: input.branch,
        status: input.status,
        email: input.email,
      });
      const doors = await doorStatesOfBookings(
        db,
        rows.map((row) => row.id),
      );
      const when = (at: Date | null, zone: string) =>
        at ? formatLocalTime(instantFromDate(at), zone) : null;
      table(
        io,
        rows.map((row) => ({
          id: row.id,
          branch: row.branch_name,
          start: formatLocalTime(instantFromDate(row.start_time), row.time_zone),
          end: formatLocalTime(instantFromDate(row.end_time), row.time_zone),
          status: row.status,
          price_eur: money(row.final_price_cents),
          credit_eur: row.credit_cents > 0 ? money(row.credit_cents) : null,
          paid: row.paid_at !== null,
          coupon: row.coupon_code,
          client: row.email,
          session: row.checkout_session_id,
          move_of: row.move_of,
          series: row.series_id,
          guests: Number(row.guests ?? 0),
          lock_code: doors.get(row.id)?.code ?? null,
          lock_code_state: doors.get(row.id)?.state ?? null,
          checked_in_at: when(row.checked_in_at, row.time_zone),
          no_show_at: when(row.no_show_at, row.time_zone),
          overstay_at: when(row.overstay_at, row.time_zone),
        })),
        input.json,
      );
    },
  }),
};
