import nodemailer from 'nodemailer';
import { PermanentDeliveryError } from '../delivery.ts';
import type { Mailer } from './mailer.ts';

export type SmtpTimeouts = {
  /** Connecting: the DNS lookup, TCP, TLS, and (cut short by what is left of it) the greeting. */
  connectionMs: number;
  /** Waiting for the server's first words once connected. */
  greetingMs: number;
  /** How long the conversation may go quiet after that. */
  socketMs: number;
};

/**
 * E-mail over SMTP (`smtp://user:pass@host:587`, or `smtps://` for implicit TLS), one connection per message.
 * Every step has a deadline (nodemailer's own defaults wait 2 minutes to connect and 10 minutes on a quiet
 * socket): a server that hangs fails the message, which the outbox retries like any failed delivery.
 */
export function createSmtpMailer(options: { url: string; from: string; timeouts: SmtpTimeouts }): Mailer {
  const transport = nodemailer.createTransport(
    {
      url: options.url,
      connectionTimeout: options.timeouts.connectionMs,
      greetingTimeout: options.timeouts.greetingMs,
      socketTimeout: options.timeouts.socketMs,
    },
    { from: options.from },
  );
  return {
    name: 'smtp',
    send: async (email) => {
      try {
        await transport.sendMail({
          from: options.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          ...(email.html ? { html: email.html } : {}),
          attachments: email.attachments.map((attachment) => ({
            filename: attachment.filename,
            contentType: attachment.contentType,
            // The outbox keeps attachments as text (a calendar file), a binary one (a PDF) in base64; nodemailer
            // encodes them for the wire.
            content: attachment.content,
            ...(attachment.encoding ? { encoding: attachment.encoding } : {}),
          })),
        });
        return 'sent';
      } catch (error) {
        // 5xx replies are the server's final word on this message (unknown mailbox, refused content).
        const responseCode = (error as { responseCode?: number }).responseCode;
        if (responseCode !== undefined && responseCode >= 500 && responseCode < 600) {
          throw new PermanentDeliveryError(`SMTP refused the message with ${responseCode}`, { cause: error });
        }
        throw error;
      }
    },
    close: async () => transport.close(),
  };
}
