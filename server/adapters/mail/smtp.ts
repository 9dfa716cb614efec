import nodemailer from 'nodemailer';
import { PermanentDeliveryError } from '../delivery.ts';
import type { Mailer } from './mailer.ts';

/** E-mail over SMTP (`smtp://user:pass@host:587`, or `smtps://` for implicit TLS), one connection per message. */
export function createSmtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url, { from: options.from });
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
            // The outbox keeps attachments as text (a calendar file); nodemailer encodes them for the wire.
            content: attachment.content,
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
