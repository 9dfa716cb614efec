import { recordAudit, type Actor } from '../../kernel/audit.ts';
import { dateFromInstant, type Clock } from '../../kernel/clock.ts';
import type { Db } from '../../db/database.ts';
import type { CreditUnit } from '../../db/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { centsToEuros, eurosToCents } from '../../kernel/money.ts';
import * as repository from '../wallet/repository.ts';
import { clockTime } from '../wallet/service.ts';
import type { components } from '../../../openapi/schema.gen.ts';

// Putting a prepaid pack on sale and changing it (issue 31), for the console (POST/PATCH /admin/credit-packs) and
// the CLI (`pack create`, `pack update`) alike: in the caller's transaction, checked, stored and audited with the
// pack before and after. A change applies to packs sold from then on: a lot keeps what it was sold with.

export type CreditPackSettings = {
  name: string;
  branchId: number;
  allBranches: boolean;
  unit: CreditUnit;
  /** Minutes or cents. */
  credit: number;
  priceCents: number;
  validityDays: number;
  weekdays: number[] | null;
  fromMinute: number | null;
  toMinute: number | null;
  active: boolean;
};

/** The console's view of a pack, also what its audit rows record. */
export function adminCreditPack(pack: repository.CreditPackRow): components['schemas']['AdminCreditPack'] {
  return {
    id: pack.id,
    name: pack.name,
    branch: { id: pack.branch_id, name: pack.branch_name },
    all_branches: pack.all_branches,
    unit: pack.unit === 'minutes' ? 'hours' : 'eur',
    credit: pack.unit === 'minutes' ? pack.credit / 60 : centsToEuros(pack.credit),
    price_eur: centsToEuros(pack.price_cents),
    validity_days: pack.validity_days,
    weekdays: pack.weekdays === null ? null : [...pack.weekdays].sort((a, b) => a - b),
    from_time: pack.from_minute === null ? null : clockTime(pack.from_minute),
    to_time: pack.to_minute === null ? null : clockTime(pack.to_minute),
    active: pack.active,
    sold: pack.sold,
  };
}

async function check(trx: Db, settings: CreditPackSettings): Promise<void> {
  if ((settings.fromMinute === null) !== (settings.toMinute === null))
    throw new AppError('invalid_credit_pack_hours');
  if (
    settings.fromMinute !== null &&
    settings.toMinute !== null &&
    settings.fromMinute >= settings.toMinute
  ) {
    throw new AppError('invalid_credit_pack_hours');
  }
  const branch = await trx
    .selectFrom('branches')
    .select('id')
    .where('id', '=', settings.branchId)
    .executeTakeFirst();
  if (!branch) throw new AppError('branch_not_found');
}

function columns(settings: CreditPackSettings) {
  return {
    name: settings.name.trim(),
    branch_id: settings.branchId,
    all_branches: settings.allBranches,
    unit: settings.unit,
    credit: settings.credit,
    price_cents: settings.priceCents,
    validity_days: settings.validityDays,
    weekdays: settings.weekdays === null ? null : [...new Set(settings.weekdays)].sort((a, b) => a - b),
    from_minute: settings.fromMinute,
    to_minute: settings.toMinute,
    active: settings.active,
  };
}

/**
 * A pack's settings from the contract's shape (the console's form, the CLI's options): hours to minutes, euros
 * to cents; a change keeps what it does not name. Credit changes unit only when given again in the new one (422 otherwise: 5 would mean hours or euros).
 */
export function packSettings(
  input: components['schemas']['AdminCreditPackUpdate'],
  current: CreditPackSettings | null,
): CreditPackSettings {
  const unit = input.unit === undefined ? current!.unit : input.unit === 'hours' ? 'minutes' : 'cents';
  if (current && unit !== current.unit && input.credit === undefined) {
    throw new AppError(
      'validation_failed',
      { problems: 'credit: required when the unit changes' },
      {
        fields: [{ field: 'credit', problem: 'required' }],
      },
    );
  }
  const credit =
    input.credit === undefined
      ? current!.credit
      : unit === 'minutes'
        ? Math.round(input.credit * 60)
        : eurosToCents(input.credit);
  const time = (value: string | null | undefined, kept: number | null | undefined) =>
    value === undefined ? (kept ?? null) : value === null ? null : minuteOf(value);
  return {
    name: input.name ?? current!.name,
    branchId: input.branch_id ?? current!.branchId,
    allBranches: input.all_branches ?? current?.allBranches ?? false,
    unit,
    credit,
    priceCents: input.price_eur === undefined ? current!.priceCents : eurosToCents(input.price_eur),
    validityDays: input.validity_days ?? current!.validityDays,
    weekdays: input.weekdays === undefined ? (current?.weekdays ?? null) : input.weekdays,
    fromMinute: time(input.from_time, current?.fromMinute),
    toMinute: time(input.to_time, current?.toMinute),
    active: input.active ?? current?.active ?? true,
  };
}

/** Answers the new pack's id. */
export async function createCreditPack(
  trx: Db,
  deps: { clock: Clock },
  input: { actor: Actor; settings: CreditPackSettings },
): Promise<number> {
  const now = dateFromInstant(deps.clock.now());
  await check(trx, input.settings);
  const id = await repository.insertPack(trx, {
    ...columns(input.settings),
    created_at: now,
    updated_at: now,
  });
  const after = adminCreditPack((await repository.findPack(trx, id))!);
  await recordAudit(
    trx,
    input.actor,
    { action: 'credit_pack.create', entityType: 'credit_pack', entityId: id, after },
    now,
  );
  return id;
}

/** The pack's settings as stored, for a change that gives only some. */
export function settingsOf(pack: repository.CreditPackRow): CreditPackSettings {
  return {
    name: pack.name,
    branchId: pack.branch_id,
    allBranches: pack.all_branches,
    unit: pack.unit,
    credit: pack.credit,
    priceCents: pack.price_cents,
    validityDays: pack.validity_days,
    weekdays: pack.weekdays,
    fromMinute: pack.from_minute,
    toMinute: pack.to_minute,
    active: pack.active,
  };
}

export async function updateCreditPack(
  trx: Db,
  deps: { clock: Clock },
  input: { actor: Actor; packId: number; changes: (current: CreditPackSettings) => CreditPackSettings },
): Promise<void> {
  const now = dateFromInstant(deps.clock.now());
  const current = await repository.findPack(trx, input.packId);
  if (!current) throw new AppError('credit_pack_not_found');
  const settings = input.changes(settingsOf(current));
  await check(trx, settings);
  await repository.updatePack(trx, current.id, columns(settings), now);
  const after = adminCreditPack((await repository.findPack(trx, current.id))!);
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'credit_pack.update',
      entityType: 'credit_pack',
      entityId: current.id,
      before: adminCreditPack(current),
      after,
    },
    now,
  );
}

function minuteOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}
