import type { FastifyBaseLogger } from 'fastify';

// What every message adapter (e-mail, SMS) answers, and how it says a message can never be delivered.

/** `sent`: handed to the provider. `logged`: no provider is configured; the message was printed to the log. */
export type DeliveryResult = 'sent' | 'logged';

/** The provider refused the message for good (a rejected address, a malformed number): retrying is pointless. */
export class PermanentDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentDeliveryError';
  }
}

/** Secrets that must not reach a log even in development: reset tokens (codes are shown there on purpose). */
export function redactSecrets(text: string): string {
  return text.replace(/(reset_token=)[^&\s"<]+/g, '$1[redacted]');
}

/** Messages whose text never reaches a log, not even in development: door codes open a real door. */
const CONFIDENTIAL_KINDS: ReadonlySet<string> = new Set(['access_code', 'guest_code']);

function isConfidential(kind: string): boolean {
  return CONFIDENTIAL_KINDS.has(kind);
}

/** `ana@example.com` -> `a***@example.com`, `+351912345678` -> `+351*****678`: enough to tell messages apart. */
function maskRecipient(recipient: string): string {
  const at = recipient.indexOf('@');
  if (at > 0) return `${recipient.slice(0, 1)}***${recipient.slice(at)}`;
  return recipient.length > 7 ? `${recipient.slice(0, 4)}*****${recipient.slice(-3)}` : '***';
}

/**
 * A message no provider is configured for stays in the outbox (status `logged`) and is printed to the log: who and
 * what always (the recipient masked), its text only when `showContent` (development) and the kind may be shown.
 */
export function logUndelivered(
  log: FastifyBaseLogger,
  message: { id: number; kind: string; to: string; text: string; subject?: string | null },
  options: { showContent: boolean },
  note: string,
): 'logged' {
  const showContent = options.showContent && !isConfidential(message.kind);
  log.info(
    {
      outboxId: message.id,
      kind: message.kind,
      to: showContent ? message.to : maskRecipient(message.to),
      ...(message.subject === undefined ? {} : { subject: message.subject }),
      ...(showContent ? { text: redactSecrets(message.text) } : {}),
    },
    note,
  );
  return 'logged';
}
