// The notifications module's public face: the outbox's reads, the delivery worker, message context. Other
// modules and the composition root import this file, never the files behind it (a lint rule holds it).

export { createDeliveryAdapters } from './delivery.ts';
export { notificationHandlers } from './handlers.ts';
export { messageAddressee, messageBookingTimes } from './message-context.ts';
export { deleteMessagesTo, findMessageContext } from './repository.ts';
export type { MessageContextRow } from './repository.ts';
export {
  emailChangedMessage,
  resetPasswordMessage,
  verifyEmailMessage,
  verifyPhoneSmsMessage,
} from './templates/account.ts';
export { createOutboxWorker } from './worker.ts';
export type { OutboxWorker } from './worker.ts';
