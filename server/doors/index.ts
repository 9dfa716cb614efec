// The doors module's public face: door codes, their lifecycle on the locks, door events. Other modules and the
// composition root import this file, never the files behind it (a lint rule holds it).

export { createOperatorAlerts } from './alerts.ts';
export { DoorsNotSettledError, createDoorService } from './doors.ts';
export type { DoorService, LockSyncScheduler, MessageReadiness } from './doors.ts';
export { lockHandlers } from './handlers.ts';
export { findLockCode } from './repository.ts';
export { issueGuestLockCode, issueLockCodes, releaseLockCodes } from './service.ts';
export type { LockDependencies } from './service.ts';
export { doorStatesOfBookings, doorStatesOfCodes, lockStatus, mapBranchDoors } from './status.ts';
export { branchDoorPage, findOnCall, setOnCall } from './control.ts';
export type { BranchDoorPage } from './control.ts';
export { unlockDoor } from './use-cases/unlock-door.ts';
export type { UnlockDoorDependencies } from './use-cases/unlock-door.ts';
