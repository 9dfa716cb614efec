import type { DeliveryResult } from '../delivery.ts';

export type OutgoingSms = {
  to: string;
  text: string;
  /** Kind and outbox id, for the log; never sent. */
  kind: string;
  id: number;
};

/** Sends SMS. `twilio` when configured; otherwise `log`. */
export type SmsProvider = {
  readonly name: 'twilio' | 'log';
  send(sms: OutgoingSms): Promise<DeliveryResult>;
};
