import type { FastifyBaseLogger } from 'fastify';
import { Temporal } from 'temporal-polyfill';
import type { LockProvider } from '../adapters/locks/provider.ts';
import { formatLocalTime } from '../catalog/index.ts';
import type { Db } from '../db/database.ts';
import { branchDoorPage, findOnCall, setOnCall, unlockDoor } from '../doors/index.ts';
import { recordAudit, type Actor } from '../kernel/audit.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import { AppError } from '../kernel/errors.ts';
import type { Locale } from '../kernel/i18n.ts';
import { runTransaction } from '../kernel/transactions.ts';
import type { OperationQuery } from '../http/operations.ts';
import type { components } from '../../openapi/schema.gen.ts';
import { checkPeriod } from './service.ts';

type Schemas = components['schemas'];

/** The no-shows and overstays shown by default: the branch's last 7 days. */
const DEFAULT_DAYS = 7;
const INTERNATIONAL_PHONE = /^\+\d{8,17}$/;

// The door page of the console (issue 32, item 1): read, 'Open now', and the branch's on-call contacts.

export function createDoorControl(deps: {
  db: Db;
  clock: Clock;
  lockProvider: LockProvider;
  log: FastifyBaseLogger;
}) {
  const { db, clock } = deps;
  return {
    async page(
      branchId: number,
      query: OperationQuery<'getBranchDoors'>,
      locale: Locale,
    ): Promise<Schemas['BranchDoorPage']> {
      checkPeriod(query.from, query.to, 366);
      const branch = await findOnCall(db, branchId);
      if (!branch) throw new AppError('branch_not_found');
      const zone = branch.time_zone;
      const today = clock.now().toZonedDateTimeISO(zone).toPlainDate();
      const to = query.to ? Temporal.PlainDate.from(query.to) : today;
      const from = query.from ? Temporal.PlainDate.from(query.from) : to.subtract({ days: DEFAULT_DAYS - 1 });
      if (Temporal.PlainDate.compare(from, to) > 0) throw new AppError('invalid_period');
      const instant = (day: Temporal.PlainDate) => dateFromInstant(day.toZonedDateTime(zone).toInstant());
      const page = await branchDoorPage(
        db,
        deps.lockProvider,
        { branchId, from: instant(from), to: instant(to.add({ days: 1 })) },
        locale,
      );
      const local = (date: Date) => formatLocalTime(instantFromDate(date), zone);
      const attendance = (rows: typeof page.no_shows) =>
        rows.map((row) => ({
          ...row,
          start_time: local(row.start_time),
          end_time: local(row.end_time),
          at: local(row.at),
          checked_in_at: row.checked_in_at ? local(row.checked_in_at) : null,
        }));
      return {
        ...page,
        feed: page.feed.map((item) => ({ ...item, at: local(item.at) })),
        no_shows: attendance(page.no_shows),
        overstays: attendance(page.overstays),
      };
    },

    async unlock(
      by: Actor,
      branchId: number,
      deviceId: string,
      body: Schemas['DoorUnlockRequest'],
    ): Promise<Schemas['DoorUnlock']> {
      const row = await unlockDoor(
        { db, clock, provider: deps.lockProvider, log: deps.log },
        { actor: by, branchId, deviceId, reason: body.reason, requestId: body.request_id },
      );
      return {
        device_id: row.device_id,
        outcome: 'opened',
        requested_at: row.requested_at.toISOString(),
        finished_at: (row.finished_at ?? row.requested_at).toISOString(),
      };
    },

    async setOnCall(
      by: Actor,
      branchId: number,
      body: Schemas['BranchOnCall'],
    ): Promise<Schemas['BranchOnCall']> {
      const email = body.email?.trim().toLowerCase() || null;
      const phone = body.phone?.replace(/\s+/g, '') || null;
      if (phone !== null && !INTERNATIONAL_PHONE.test(phone)) throw new AppError('invalid_phone_number');
      return runTransaction(db, { name: 'setBranchOnCall', log: deps.log }, async (trx) => {
        const before = await findOnCall(trx, branchId);
        if (!before || !(await setOnCall(trx, branchId, { email, phone })))
          throw new AppError('branch_not_found');
        await recordAudit(
          trx,
          by,
          {
            action: 'branch.on_call',
            entityType: 'branch',
            entityId: branchId,
            before: { email: before.on_call_email, phone: before.on_call_phone },
            after: { email, phone },
          },
          dateFromInstant(clock.now()),
        );
        return { email, phone };
      });
    },
  };
}

export type DoorControl = ReturnType<typeof createDoorControl>;
