import type { Db } from '../db/database.ts';
import { AppError } from '../kernel/errors.ts';
import type { components } from '../../openapi/schema.gen.ts';
import { adminArrivalKit } from './arrival.ts';
import * as repository from './repository.ts';

type Schemas = components['schemas'];

/**
 * A branch as operators see it: the console's answer, and what the audit log keeps of a branch before and after
 * a change (the console's and the CLI's alike).
 */
export async function readAdminBranch(db: Db, branchId: number): Promise<Schemas['AdminBranch']> {
  const branch = await repository.findBranch(db, branchId);
  if (!branch) throw new AppError('branch_not_found');
  const images = (await repository.listBranchImages(db)).get(branchId) ?? [branch.image];
  return {
    id: branch.id,
    slug: branch.slug,
    name: branch.name,
    order: branch.order,
    location: branch.location,
    latitude: branch.latitude,
    longitude: branch.longitude,
    map_url: branch.map_url,
    time_zone: branch.time_zone,
    slot_minutes: branch.slot_minutes,
    opening_hours: (branch.opening_hours ?? null) as Schemas['OpeningHours'],
    images,
    descriptions: branch.descriptions,
    arrival: adminArrivalKit(branch.arrival),
    active_with_smart_lock: branch.active_with_smart_lock,
    lock_devices: branch.lock_device_ids,
    slots_generated_until: branch.slots_generated_until,
    vat_rate: branch.vat_rate === null ? null : Number(branch.vat_rate),
    guest_limit: branch.guest_limit,
  };
}
