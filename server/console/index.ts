// The console's public face: the operator console's read models, reports and handlers. The composition root
// imports this file, never the files behind it (a lint rule holds it).

export { createCatalogueService } from './catalogue.ts';
export { consoleHandlers } from './handlers.ts';
export { createReportService } from './reports.ts';
export { createConsoleService } from './service.ts';
export { stripeReconciliationCsv } from './reconciliation.ts';
export { createDoorControl } from './door-control.ts';
export type { DoorControl } from './door-control.ts';
export { addMemberNote, forgetMemberNotes, listMemberNotes } from './member-notes.ts';
export { DEFAULT_STAFF_REFUND_CEILING_CENTS, readStaffRefundCeiling } from './refund-approvals.ts';
export { listRefundApprovals } from './refund-approvals-repository.ts';
export { refuseRefund } from './use-cases/decide-refund-approval.ts';
export { setStaffRefundCeiling } from './use-cases/set-refund-ceiling.ts';
