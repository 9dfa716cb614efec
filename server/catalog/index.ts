// The catalog's public face: branches, slots, prices, closures and the refund policy. Other modules and the
// composition root import this file, never the files behind it (a lint rule holds it).

export { branchHandlers } from './handlers.ts';
export { checkBranchLinks } from './links.ts';
export { bandOfRule, priceGridsFromToday } from './price-grids.ts';
export { changeRefundRatios, readRefundRatios, writeRefundRatios } from './refund-ratios.ts';
export { countBranches, findBranch, findPriceRule, listBranches } from './repository.ts';
export type { PriceGrid, PriceRule } from './schedule.ts';
export {
  createBranchService,
  formatEpochInZone,
  formatLocalTime,
  insertBranchDefinition,
  newBranchDefinition,
} from './service.ts';
export type { BranchDefinition } from './service.ts';
export { readSetting, writeSetting } from './settings-repository.ts';
export { setPriceGrid } from './use-cases/set-price-grid.ts';
export type { SetPriceGridResult } from './use-cases/set-price-grid.ts';
export * as catalogRepository from './repository.ts';
