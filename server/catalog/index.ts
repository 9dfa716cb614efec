// The catalog's public face: branches, slots, prices, closures and the refund policy. Other modules and the
// composition root import this file, never the files behind it (a lint rule holds it).

export { readAdminBranch } from './admin-branch.ts';
export { adminArrivalKit, arrivalKitFor, mergeArrival } from './arrival.ts';
export type { ArrivalChange, ArrivalKit } from './arrival.ts';
export { branchHandlers } from './handlers.ts';
export { checkBranchLinks } from './links.ts';
export { bandOfRule, priceGridsFromToday } from './price-grids.ts';
export { readRefundRatios, writeRefundRatios } from './refund-ratios.ts';
export { refundPolicyText } from './refund-policy-text.ts';
export { countBranches, findBranch, findPriceRule, listBranches } from './repository.ts';
export type { DatePrice, PriceGrid, PriceRule } from './schedule.ts';
export {
  createBranchService,
  formatEpochInZone,
  formatLocalTime,
  insertBranchDefinition,
  listSlotsOfDay,
  newBranchDefinition,
} from './service.ts';
export type { BranchChanges, BranchDefinition, NewBranch } from './service.ts';
export { readSetting, writeSetting } from './settings-repository.ts';
export { createSlotDayCache } from './slot-day-cache.ts';
export { createBranch } from './use-cases/create-branch.ts';
export type { BranchChangeDependencies, MapBranchDoors } from './use-cases/create-branch.ts';
export { setPriceGrid } from './use-cases/set-price-grid.ts';
export { removeDatePrice, setDatePrice } from './use-cases/set-date-price.ts';
export type { SetPriceGridResult } from './use-cases/set-price-grid.ts';
export { setRefundRatios } from './use-cases/set-refund-ratios.ts';
export { updateBranch } from './use-cases/update-branch.ts';
export * as catalogRepository from './repository.ts';
