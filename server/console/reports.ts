import { Temporal } from 'temporal-polyfill';
import type { LockProvider } from '../adapters/locks/provider.ts';
import { listAudit } from '../kernel/audit.ts';
import type { Locale } from '../kernel/i18n.ts';
import { centsToEuros } from '../kernel/money.ts';
import { dateFromInstant, type Clock } from '../kernel/clock.ts';
import type { Db } from '../db/database.ts';
import { lockStatus } from '../doors/index.ts';
import type { components } from '../../openapi/schema.gen.ts';
import * as repository from './repository.ts';
import type { OperationQuery } from '../http/operations.ts';
import { checkPeriod, paging, type ConsoleService } from './service.ts';
import type { DocumentLinks } from '../invoicing/index.ts';
import { csv, csvLine } from './csv.ts';
import { stripeReconciliationCsv } from './reconciliation.ts';
import type { PaymentProvider } from '../adapters/payments/provider.ts';
import { ALL_BRANCHES, branchFilter, type BranchScope } from '../operators/index.ts';
import type { BackgroundLane } from '../kernel/background-lane.ts';

// Money and use, the day's timeline and the audit log: reads only.

type Schemas = components['schemas'];
type Granularity = 'day' | 'week' | 'month';

/** The first day of the period a local day belongs to: itself, its ISO week's Monday, or its month's first. */
function periodStart(day: string, granularity: Granularity): string {
  const date = Temporal.PlainDate.from(day);
  if (granularity === 'week') return date.subtract({ days: date.dayOfWeek - 1 }).toString();
  if (granularity === 'month') return date.with({ day: 1 }).toString();
  return day;
}

/** Booked over open hours, hours to the hundredth, the ratio to the ten-thousandth; null without open hours. */
function occupancyOf(booked: number, open: number) {
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    booked_hours: round(booked),
    open_hours: round(open),
    occupancy: open > 0 ? Math.round((booked / open) * 10000) / 10000 : null,
  };
}

function branchRef(branch: { id: number; name: string; time_zone: string }): Schemas['BranchRef'] {
  return { id: branch.id, name: branch.name, time_zone: branch.time_zone };
}

/** What the money and occupancy reports are asked: a period of local days, one branch or all, a granularity. */
/** The reports' query (money and occupancy, JSON and CSV share it in the contract). */
type ReportQuery = OperationQuery<'getMoneyReport'>;

/** A report's period checked (at most a year) and its granularity (by day unless asked), with the rows' filter. */
function reportScope(query: ReportQuery) {
  checkPeriod(query.from, query.to, 366);
  return {
    granularity: query.granularity ?? 'day',
    filter: { branchId: query.branch_id, from: query.from, to: query.to },
  };
}

const LOW_BATTERY = 0.2;

/** The ledger CSV's rows read at a time. */
const LEDGER_CSV_BATCH = 2000;

export function createReportService(deps: {
  db: Db;
  clock: Clock;
  lockProvider: LockProvider;
  console: ConsoleService;
  links: DocumentLinks;
  /** The configured payment provider: Stripe's balance for the reconciliation. */
  payments: PaymentProvider;
  /**
   * Where the reports over a period and the ledger export take their turn: one step at a time, resting while
   * other requests come (server/kernel/background-lane.ts).
   */
  lane: BackgroundLane;
}) {
  const { db, clock, lane } = deps;

  async function branchesById(branchId?: number, scope: BranchScope = ALL_BRANCHES) {
    let query = db.selectFrom('branches').select(['id', 'name', 'time_zone']).orderBy('id');
    const branchIds = branchFilter(scope, branchId);
    if (branchIds !== undefined) query = query.where('id', 'in', [...branchIds, 0]);
    return new Map((await query.execute()).map((row) => [row.id, row]));
  }

  async function money(query: ReportQuery): Promise<Schemas['MoneyReport']> {
    const { granularity, filter } = reportScope(query);
    const sums = await repository.moneyPerPeriod(db, { ...filter, granularity });
    const cents = { payments: 0, refunds: 0, payments_count: 0, refunds_count: 0 };
    const rows = sums.map((row): Schemas['MoneyRow'] => {
      cents.payments += row.payments_cents;
      cents.refunds += row.refunds_cents;
      cents.payments_count += row.payments_count;
      cents.refunds_count += row.refunds_count;
      return {
        period: row.period,
        branch: { id: row.branch_id, name: row.branch_name, time_zone: row.time_zone },
        payments_eur: centsToEuros(row.payments_cents),
        refunds_eur: centsToEuros(row.refunds_cents),
        revenue_eur: (row.payments_cents - row.refunds_cents) / 100,
        payments_count: row.payments_count,
        refunds_count: row.refunds_count,
      };
    });
    return {
      granularity,
      rows,
      totals: {
        payments_eur: centsToEuros(cents.payments),
        refunds_eur: centsToEuros(cents.refunds),
        revenue_eur: (cents.payments - cents.refunds) / 100,
        payments_count: cents.payments_count,
        refunds_count: cents.refunds_count,
      },
    };
  }

  async function occupancy(query: ReportQuery): Promise<Schemas['OccupancyReport']> {
    const { granularity, filter } = reportScope(query);
    const [days, branches] = await Promise.all([
      repository.occupancyPerDay(db, filter),
      branchesById(query.branch_id),
    ]);
    const rows = new Map<string, { period: string; branchId: number; booked: number; open: number }>();
    for (const day of days) {
      const period = periodStart(day.day, granularity);
      const key = `${period}|${day.branch_id}`;
      const row = rows.get(key) ?? { period, branchId: day.branch_id, booked: 0, open: 0 };
      row.booked += day.booked_hours;
      row.open += day.open_hours;
      rows.set(key, row);
    }
    return {
      granularity,
      rows: [...rows.values()]
        .sort((a, b) => a.period.localeCompare(b.period) || a.branchId - b.branchId)
        .map((row) => ({
          period: row.period,
          branch: branchRef(branches.get(row.branchId)!),
          ...occupancyOf(row.booked, row.open),
        })),
    };
  }

  /** Per branch, the period's open and booked hours by local weekday and hour (a 7 × 24 grid). */
  async function occupancyHeatmap(
    query: OperationQuery<'getOccupancyHeatmap'>,
  ): Promise<Schemas['OccupancyHeatmap']> {
    checkPeriod(query.from, query.to, 366);
    const [cells, branches] = await Promise.all([
      repository.occupancyPerWeekHour(db, { branchId: query.branch_id, from: query.from, to: query.to }),
      branchesById(query.branch_id),
    ]);
    const byCell = new Map(cells.map((cell) => [`${cell.branch_id}|${cell.weekday}|${cell.hour}`, cell]));
    return {
      from: query.from,
      to: query.to,
      branches: [...branches.values()].map((branch) => {
        const total = { booked: 0, open: 0 };
        const weekdays = Array.from({ length: 7 }, (_, index) => ({
          weekday: index + 1,
          hours: Array.from({ length: 24 }, (_, hour) => {
            const cell = byCell.get(`${branch.id}|${index + 1}|${hour}`);
            total.booked += cell?.booked_hours ?? 0;
            total.open += cell?.open_hours ?? 0;
            return { hour, ...occupancyOf(cell?.booked_hours ?? 0, cell?.open_hours ?? 0) };
          }),
        }));
        return { branch: branchRef(branch), ...occupancyOf(total.booked, total.open), weekdays };
      }),
    };
  }

  // Each report over a period is one step of the background lane, its CSV included.
  const moneyInTurn = (query: ReportQuery) => lane.step(() => money(query));
  const occupancyInTurn = (query: ReportQuery) => lane.step(() => occupancy(query));

  return {
    money: moneyInTurn,
    occupancy: occupancyInTurn,
    occupancyHeatmap: (query: OperationQuery<'getOccupancyHeatmap'>) =>
      lane.step(() => occupancyHeatmap(query)),

    async moneyCsv(query: ReportQuery): Promise<string> {
      const report = await moneyInTurn(query);
      return csv(
        [
          'period',
          'branch_id',
          'branch',
          'payments_eur',
          'refunds_eur',
          'revenue_eur',
          'payments_count',
          'refunds_count',
        ],
        report.rows.map((row) => [
          row.period,
          row.branch.id,
          row.branch.name,
          row.payments_eur.toFixed(2),
          row.refunds_eur.toFixed(2),
          row.revenue_eur.toFixed(2),
          row.payments_count,
          row.refunds_count,
        ]),
      );
    },

    /**
     * The ledger line by line for the accountant: each payment and refund (a refund negative) with its VAT, the
     * provider's reference, the card when the provider told, and its tax document. Streamed: the header and the
     * first batch are read before anything is answered (a database down is a 503, not a cut file), then a batch
     * of rows at a time, so a year of a real business's ledger never sits whole in memory nor holds the event
     * loop. Rows written while it streams are in it if they come after the last row sent. Each batch is a step
     * of the background lane.
     */
    async ledgerCsv(query: OperationQuery<'getLedgerCsv'>): Promise<AsyncIterable<string>> {
      checkPeriod(query.from, query.to, 366);
      const filter = { branchId: query.branch_id, from: query.from, to: query.to };
      const read = (after: repository.LedgerPlace | null) =>
        lane.step(() => repository.ledgerCsvBatch(db, filter, { after, limit: LEDGER_CSV_BATCH }));
      const first = await read(null);
      return (async function* () {
        yield csvLine(repository.LEDGER_CSV_HEADER);
        let batch = first;
        while (true) {
          if (batch.csv !== '') yield batch.csv;
          if (batch.last === null) return;
          batch = await read(batch.last);
        }
      })();
    },

    /** The period's ledger rows matched to Stripe's balance transactions and payouts (reconciliation.ts). */
    stripeReconciliationCsv(query: OperationQuery<'getStripeReconciliationCsv'>): Promise<string> {
      return stripeReconciliationCsv({ db, payments: deps.payments }, query);
    },

    /** The tax documents of a period (Lisbon days) and/or a booking, newest first, with their PDF's link. */
    async documents(query: OperationQuery<'listAdminDocuments'>): Promise<Schemas['TaxDocumentPage']> {
      checkPeriod(query.from, query.to, 366);
      const page = paging(query);
      const { rows, total } = await repository.searchDocuments(db, {
        from: query.from,
        to: query.to,
        bookingId: query.booking_id,
        offset: page.offset,
        limit: page.limit,
      });
      return page.answer(
        rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          status: row.status,
          ledger_entry_id: row.ledger_entry_id,
          booking_ids: row.booking_ids ?? [],
          member_id: row.user_id,
          number: row.number,
          atcud: row.atcud,
          buyer_name: row.buyer_name,
          buyer_tax_id: row.buyer_tax_id,
          total_eur: centsToEuros(Number(row.total_cents)),
          vat_rate: Number(row.vat_rate),
          vat_eur: centsToEuros(Number(row.vat_cents)),
          created_at: new Date(row.created_at).toISOString(),
          issued_at: row.issued_at ? new Date(row.issued_at).toISOString() : null,
          credited_document_id: row.credited_document_id,
          pdf_url: row.status === 'issued' ? deps.links.url(row.id) : null,
        })),
        total,
      );
    },

    async occupancyCsv(query: ReportQuery): Promise<string> {
      const report = await occupancyInTurn(query);
      return csv(
        ['period', 'branch_id', 'branch', 'booked_hours', 'open_hours', 'occupancy'],
        report.rows.map((row) => [
          row.period,
          row.branch.id,
          row.branch.name,
          row.booked_hours,
          row.open_hours,
          row.occupancy ?? '',
        ]),
      );
    },

    async payments(query: OperationQuery<'listAdminPayments'>): Promise<Schemas['MoneyMovementPage']> {
      checkPeriod(query.from, query.to, 366);
      const page = paging(query);
      const filter = { branchId: query.branch_id, from: query.from, to: query.to };
      const [movements, total] = await Promise.all([
        repository.moneyMovements(db, filter, page),
        repository.movementsCount(db, filter),
      ]);
      return page.answer(movements.map(deps.console.movementView), total);
    },

    /** Each branch's local day (today by default): its bookings and its doors, alerts first. */
    /** The caller's branches only: another branch asked for is 403 `branch_forbidden`. */
    async today(
      query: OperationQuery<'getAdminToday'>,
      locale: Locale,
      scope: BranchScope,
    ): Promise<Schemas['AdminToday']> {
      checkPeriod(query.date, query.date);
      const now = clock.now();
      const nowDate = dateFromInstant(now);
      const branches = await branchesById(query.branch_id, scope);
      const doors = await lockStatus(db, deps.lockProvider, query.branch_id, locale);
      const alerts: Schemas['AdminAlert'][] = [];
      const result: Schemas['AdminToday']['branches'] = [];
      for (const branch of branches.values()) {
        const date = query.date ?? now.toZonedDateTimeISO(branch.time_zone).toPlainDate().toString();
        const [rows, canceledCount] = await Promise.all([
          repository.bookingsOfLocalDay(db, branch.id, date, nowDate),
          repository.canceledOnLocalDay(db, branch.id, date),
        ]);
        const bookings = await deps.console.views(rows);
        const dayStart = Temporal.PlainDate.from(date).toZonedDateTime(branch.time_zone).toInstant();
        const dayEnd = Temporal.PlainDate.from(date)
          .add({ days: 1 })
          .toZonedDateTime(branch.time_zone)
          .toInstant();
        const closed = await db
          .selectFrom('branch_closures')
          .select('id')
          .where('branch_id', '=', branch.id)
          .where('reopened_at', 'is', null)
          .where('starts_at', '<', dateFromInstant(dayEnd))
          .where('ends_at', '>', dateFromInstant(dayStart))
          .executeTakeFirst();
        const branchDoors = doors.filter((door) => door.branch_id === branch.id);
        for (const door of branchDoors) {
          if (door.online === false)
            alerts.push({
              kind: 'door_offline',
              branch_id: branch.id,
              booking_id: null,
              door_id: door.device_id,
              at: null,
            });
          if (door.battery_level !== null && door.battery_level < LOW_BATTERY) {
            alerts.push({
              kind: 'battery_low',
              branch_id: branch.id,
              booking_id: null,
              door_id: door.device_id,
              at: null,
            });
          }
        }
        for (const booking of bookings) {
          const base = { branch_id: branch.id, booking_id: booking.id, door_id: null };
          if (booking.status !== 'confirmed') continue;
          if (booking.door_code_state === 'failed')
            alerts.push({ kind: 'code_failed', ...base, at: booking.start_time });
          if (
            booking.door_code_state === 'pending' &&
            Date.parse(booking.start_time) - now.epochMilliseconds < 45 * 60_000 &&
            Date.parse(booking.end_time) > now.epochMilliseconds
          ) {
            alerts.push({ kind: 'code_not_programmed', ...base, at: booking.start_time });
          }
          if (booking.no_show) alerts.push({ kind: 'no_show', ...base, at: booking.start_time });
          if (booking.overstay) alerts.push({ kind: 'overstay', ...base, at: booking.end_time });
        }
        result.push({
          branch: branchRef(branch),
          date,
          closed: closed !== undefined,
          doors: branchDoors.map((door) => ({
            id: door.device_id,
            name: door.name,
            provider: door.provider_error ? 'unreachable' : deps.lockProvider.name,
            online: door.online,
            battery_level: door.battery_level,
            last_event_at: null,
          })),
          bookings,
          canceled_count: canceledCount,
        });
      }
      return { alerts, branches: result };
    },

    async audit(query: OperationQuery<'listAuditLog'>): Promise<Schemas['AuditPage']> {
      checkPeriod(query.from, query.to);
      const page = paging(query);
      // Days in UTC: the log spans every branch.
      const { rows, total } = await listAudit(db, {
        operatorId: query.operator_id,
        action: query.action,
        entityType: query.entity_type,
        entityId: query.entity_id,
        from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
        until: query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000) : undefined,
        offset: page.offset,
        limit: page.limit,
      });
      // A member's entries name them by their e-mail (or phone) while the account holds one.
      const members = await repository.memberLabels(
        db,
        rows.filter((row) => row.entity_type === 'member').map((row) => row.entity_id),
      );
      return page.answer(
        rows.map((row) => ({
          id: row.id,
          at: row.at.toISOString(),
          operator_id: row.operator_id,
          operator_email: row.operator_email,
          action: row.action,
          entity_type: row.entity_type,
          entity_id: row.entity_id,
          entity_label: (row.entity_type === 'member' && members.get(row.entity_id)) || null,
          reason: row.reason,
          before: row.before ?? null,
          after: row.after ?? null,
        })),
        total,
      );
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
