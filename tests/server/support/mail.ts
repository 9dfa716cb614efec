import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

// A real SMTP server for tests (the `smtp-server` package) and just enough MIME decoding to read what
// nodemailer sends: encoded-word headers and quoted-printable or base64 parts.

export type ReceivedAttachment = { filename: string; contentType: string; content: string };

export type ReceivedMail = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  attachments: ReceivedAttachment[];
  raw: string;
};

function decodeBytes(text: string, encoding: string): string {
  const kind = encoding.toLowerCase();
  if (kind === 'base64') return Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind === 'quoted-printable') {
    const joined = text.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let index = 0; index < joined.length; index += 1) {
      const hex = joined.slice(index + 1, index + 3);
      if (joined[index] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
        bytes.push(parseInt(hex, 16));
        index += 2;
      } else {
        bytes.push(...Buffer.from(joined[index] as string, 'utf8'));
      }
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return text;
}

function decodeWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_whole, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeBytes(data.replace(/_/g, ' '), 'quoted-printable'),
    );
}

function headerValue(head: string, name: string): string {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

function splitPart(part: string): { head: string; body: string } {
  const at = part.search(/\r?\n\r?\n/);
  return { head: part.slice(0, at), body: part.slice(at).replace(/^\r?\n\r?\n/, '') };
}

/** Reads a MIME entity into `mail`, descending into nested multiparts (mixed > alternative > text, html). */
function readEntity(entity: string, mail: ReceivedMail): void {
  const { head, body } = splitPart(entity);
  const type = headerValue(head, 'content-type');
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1, -1)) readEntity(part.replace(/^\r?\n/, ''), mail);
    return;
  }
  const decoded = decodeBytes(body.trimEnd(), headerValue(head, 'content-transfer-encoding') || '7bit');
  const disposition = headerValue(head, 'content-disposition');
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  // SMTP ends lines with CRLF; the tests compare with the LF text the templates produce.
  if (filename) {
    mail.attachments.push({ filename, contentType: type, content: decoded.replace(/\r\n/g, '\n') });
  } else if (type.toLowerCase().startsWith('text/plain')) {
    mail.text = decoded.replace(/\r\n/g, '\n');
  } else if (type.toLowerCase().startsWith('text/html')) {
    mail.html = decoded.replace(/\r\n/g, '\n');
  }
}

export function parseMail(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const { head } = splitPart(raw);
  const mail: ReceivedMail = {
    ...envelope,
    subject: decodeWords(headerValue(head, 'subject')),
    text: '',
    html: '',
    attachments: [],
    raw,
  };
  readEntity(raw, mail);
  return mail;
}

export type TestSmtpServer = {
  url: string;
  port: number;
  received: ReceivedMail[];
  close: () => Promise<void>;
};

/** Listens on 127.0.0.1 (a free port unless one is given), without TLS or authentication. */
export async function startSmtpServer(
  options: Partial<SMTPServerOptions> & { port?: number } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push(
          parseMail(Buffer.concat(chunks).toString('utf8'), {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
          }),
        );
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
