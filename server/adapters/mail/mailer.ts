import type { DeliveryResult } from '../delivery.ts';

export type OutgoingEmail = {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: { filename: string; contentType: string; content: string; encoding?: 'base64' }[];
  /** Kind and outbox id, for the log; never sent. */
  kind: string;
  id: number;
};

/** Sends e-mail. `smtp` when SMTP_URL is set; otherwise `log`. */
export type Mailer = {
  readonly name: 'smtp' | 'log';
  send(email: OutgoingEmail): Promise<DeliveryResult>;
  close: () => Promise<void>;
};
