import type { Temporal } from 'temporal-polyfill';
import { recordAudit, type Actor } from '../kernel/audit.ts';
import { closurePeriod } from '../booking/index.ts';
import { formatLocalTime } from '../catalog/index.ts';
import { dateFromInstant, instantFromDate, type Clock } from '../kernel/clock.ts';
import { GREETING } from '../kernel/email-layout.ts';
import { AppError } from '../kernel/errors.ts';
import { escapeHtml } from '../kernel/html.ts';
import { LOCALES, translator, type Locale, type Message } from '../kernel/i18n.ts';
import { insertOutboxMessage } from '../kernel/outbox.ts';
import { formatLocalClock, formatLocalDay } from '../kernel/time-format.ts';
import type { Db } from '../db/database.ts';
import type { BroadcastTexts, OutboxStatus } from '../db/schema.ts';
import type { components } from '../../openapi/schema.gen.ts';

// Talking to members (issue 32, item 3): one message from an operator to everyone booked at a branch in a period
// ('the air conditioning is broken tonight'), by e-mail and/or SMS, in each member's language. Sending is one
// transaction: the broadcast's row, then one outbox message per member per channel, each with the dedupe key
// `broadcast:<id>:<member>:<channel>`, and the audit row. The client's idempotency key is unique, so a replayed or
// doubly-submitted request (through any process) finds the broadcast made and writes nothing more. What each
// message became is read from its outbox row: the outbox is the one record of delivery.

type Schemas = components['schemas'];
export type BroadcastChannel = Schemas['BroadcastChannel'];

const TEXTS = {
  why: /*i18n*/ {
    id: 'email.broadcast.why',
    message: 'Recebe esta mensagem porque tem uma reserva em {branch} neste período: {when}.',
  },
} as const satisfies Record<string, Message>;

export type BroadcastRecipient = {
  id: string;
  email: string | null;
  phone_number: string | null;
  first_name: string;
  locale: Locale;
};

/**
 * Who a broadcast reaches: the live accounts with a confirmed booking overlapping the period at the branch, each
 * once however many bookings they have. A pending booking is a checkout under way, not a booking yet (it is paid,
 * or released, within the hold); guests of a booking are the member's to tell.
 */
export async function broadcastRecipients(
  db: Db,
  branchId: number,
  period: { from: Date; until: Date },
): Promise<BroadcastRecipient[]> {
  return db
    .selectFrom('users as user')
    .select(['user.id', 'user.email', 'user.phone_number', 'user.first_name', 'user.locale'])
    .where('user.deleted_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('bookings as booking')
          .select('booking.id')
          .whereRef('booking.user_id', '=', 'user.id')
          .where('booking.branch_id', '=', branchId)
          .where('booking.status', '=', 'confirmed')
          .where('booking.end_time', '>', period.from)
          .where('booking.start_time', '<', period.until),
      ),
    )
    .orderBy('user.id')
    .execute();
}

async function requireBranch(db: Db, branchId: number) {
  const branch = await db
    .selectFrom('branches')
    .select(['id', 'name', 'time_zone'])
    .where('id', '=', branchId)
    .executeTakeFirst();
  if (!branch) throw new AppError('branch_not_found');
  return branch;
}

/** The text a member reads: theirs when the operator wrote one in their language, the pt one otherwise. */
export function textFor(
  texts: BroadcastTexts,
  locale: Locale,
): { locale: Locale; subject: string; body: string } {
  const own = texts[locale];
  if (own) return { locale, ...own };
  return { locale: 'pt', ...texts.pt };
}

function describePeriod(locale: Locale, timeZone: string, from: Date, until: Date): string {
  const start = instantFromDate(from);
  const end = instantFromDate(until);
  const day = (at: Temporal.Instant) => formatLocalDay(locale, timeZone, at);
  const clock = (at: Temporal.Instant) => formatLocalClock(locale, timeZone, at);
  const sameDay = day(start) === day(end);
  return sameDay
    ? `${day(start)}, ${clock(start)}–${clock(end)} (${timeZone})`
    : `${day(start)}, ${clock(start)} – ${day(end)}, ${clock(end)} (${timeZone})`;
}

/** The e-mail: a greeting, the operator's words as written, and why the member gets it. */
export function broadcastEmail(input: {
  locale: Locale;
  firstName: string;
  subject: string;
  body: string;
  branchName: string;
  timeZone: string;
  from: Date;
  until: Date;
}): { subject: string; text: string; html: string } {
  const t = translator(input.locale);
  const greeting = t(GREETING, { name: input.firstName });
  const why = t(TEXTS.why, {
    branch: input.branchName,
    when: describePeriod(input.locale, input.timeZone, input.from, input.until),
  });
  const paragraphs = input.body.trim().split(/\n\s*\n/);
  const html = [greeting, ...paragraphs, why]
    .map((paragraph) => `<p>${escapeHtml(paragraph).replaceAll('\n', '<br>')}</p>`)
    .join('\n');
  return { subject: input.subject, text: [greeting, '', input.body.trim(), '', why].join('\n'), html };
}

export type SendBroadcastInput = {
  actor: Actor;
  idempotencyKey: string;
  branchId: number;
  /** Instants with their offset (ISO 8601). */
  startsAt: string;
  endsAt: string;
  channels: readonly BroadcastChannel[];
  texts: BroadcastTexts;
};

/** The use case: answers the broadcast's id, the one made before when the idempotency key was used already. */
export async function sendBroadcast(
  trx: Db,
  deps: { clock: Clock },
  input: SendBroadcastInput,
): Promise<number> {
  const period = closurePeriod({ starts_at: input.startsAt, ends_at: input.endsAt });
  const branch = await requireBranch(trx, input.branchId);
  const at = dateFromInstant(deps.clock.now());
  const texts = Object.fromEntries(
    LOCALES.flatMap((locale) => {
      const text = input.texts[locale];
      return text ? [[locale, { subject: text.subject.trim(), body: text.body.trim() }]] : [];
    }),
  ) as BroadcastTexts;
  // A second request with the key waits here on the unique index until the first commits, then finds its row.
  const inserted = await trx
    .insertInto('broadcasts')
    .values({
      idempotency_key: input.idempotencyKey,
      branch_id: branch.id,
      starts_at: period.from,
      ends_at: period.until,
      by_email: input.channels.includes('email'),
      by_sms: input.channels.includes('sms'),
      texts: JSON.stringify(texts),
      recipients: 0,
      created_at: at,
      created_by: input.actor.operatorId,
      created_by_email: input.actor.email ?? '',
    })
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    const made = await trx
      .selectFrom('broadcasts')
      .select('id')
      .where('idempotency_key', '=', input.idempotencyKey)
      .executeTakeFirstOrThrow();
    return made.id;
  }
  const id = inserted.id;
  const members = await broadcastRecipients(trx, branch.id, period);
  for (const member of members) {
    const text = textFor(texts, member.locale);
    const common = { locale: text.locale, kind: 'broadcast', created_at: at, next_attempt_at: at };
    if (input.channels.includes('email') && member.email) {
      const email = broadcastEmail({
        locale: text.locale,
        firstName: member.first_name,
        subject: text.subject,
        body: text.body,
        branchName: branch.name,
        timeZone: branch.time_zone,
        from: period.from,
        until: period.until,
      });
      await insertOutboxMessage(trx, {
        ...common,
        channel: 'email',
        recipient: member.email.toLowerCase(),
        subject: email.subject,
        text_body: email.text,
        html_body: email.html,
        dedupe_key: `broadcast:${id}:${member.id}:email`,
      });
    }
    if (input.channels.includes('sms') && member.phone_number) {
      await insertOutboxMessage(trx, {
        ...common,
        channel: 'sms',
        recipient: member.phone_number,
        subject: null,
        text_body: text.body,
        html_body: null,
        dedupe_key: `broadcast:${id}:${member.id}:sms`,
      });
    }
  }
  await trx.updateTable('broadcasts').set({ recipients: members.length }).where('id', '=', id).execute();
  await recordAudit(
    trx,
    input.actor,
    {
      action: 'broadcast.send',
      entityType: 'broadcast',
      entityId: id,
      after: {
        branch_id: branch.id,
        starts_at: period.from.toISOString(),
        ends_at: period.until.toISOString(),
        channels: input.channels,
        languages: Object.keys(texts),
        recipients: members.length,
      },
    },
    at,
  );
  return id;
}

/** The broadcasts' reads for the console. */
export function createBroadcastReads(db: Db) {
  const columns = () =>
    db
      .selectFrom('broadcasts as broadcast')
      .innerJoin('branches as branch', 'branch.id', 'broadcast.branch_id')
      .select([
        'broadcast.id',
        'broadcast.starts_at',
        'broadcast.ends_at',
        'broadcast.by_email',
        'broadcast.by_sms',
        'broadcast.texts',
        'broadcast.recipients',
        'broadcast.created_at',
        'broadcast.created_by_email',
        'branch.id as branch_id',
        'branch.name as branch_name',
        'branch.time_zone',
      ]);
  type Row = Awaited<ReturnType<ReturnType<typeof columns>['executeTakeFirstOrThrow']>>;

  /** The outbox rows of these broadcasts (their dedupe keys name them). */
  async function messagesOf(ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .selectFrom('outbox')
      .select(['dedupe_key', 'channel', 'recipient', 'locale', 'status', 'last_error', 'sent_at'])
      .where((eb) => eb.or(ids.map((id) => eb('dedupe_key', 'like', `broadcast:${id}:%`))))
      .orderBy('id')
      .execute();
  }

  function view(row: Row, messages: Awaited<ReturnType<typeof messagesOf>>): Schemas['Broadcast'] {
    const local = (date: Date) => formatLocalTime(instantFromDate(date), row.time_zone);
    const counts = { queued: 0, sent: 0, failed: 0 };
    for (const message of messages) {
      const status = deliveryStatus(message.status);
      counts[status === 'logged' ? 'sent' : status] += 1;
    }
    return {
      id: row.id,
      branch: { id: row.branch_id, name: row.branch_name, time_zone: row.time_zone },
      starts_at: local(row.starts_at),
      ends_at: local(row.ends_at),
      channels: [...(row.by_email ? ['email' as const] : []), ...(row.by_sms ? ['sms' as const] : [])],
      subject: row.texts.pt.subject,
      recipients: row.recipients,
      created_at: local(row.created_at),
      created_by: row.created_by_email,
      counts,
    };
  }

  const idOf = (key: string | null) => Number(key?.split(':')[1]);

  return {
    /** The last 100 broadcasts, at the given branches only (every branch when undefined): narrowed before the limit. */
    async list(branchIds?: readonly number[]): Promise<Schemas['Broadcast'][]> {
      if (branchIds?.length === 0) return [];
      const rows = await columns()
        .$if(branchIds !== undefined, (query) => query.where('broadcast.branch_id', 'in', branchIds!))
        .orderBy('broadcast.created_at', 'desc')
        .orderBy('broadcast.id', 'desc')
        .limit(100)
        .execute();
      const messages = await messagesOf(rows.map((row) => row.id));
      return rows.map((row) =>
        view(
          row,
          messages.filter((message) => idOf(message.dedupe_key) === row.id),
        ),
      );
    },

    async detail(actor: Actor, id: number): Promise<Schemas['BroadcastDetail']> {
      const row = await columns().where('broadcast.id', '=', id).executeTakeFirst();
      if (!row) throw new AppError('broadcast_not_found');
      const messages = await messagesOf([id]);
      const memberIds = [...new Set(messages.map((message) => message.dedupe_key!.split(':')[2]!))];
      const members = new Map(
        (memberIds.length === 0
          ? []
          : await db
              .selectFrom('users')
              .select(['id', 'first_name', 'last_name'])
              .where('id', 'in', memberIds)
              .execute()
        ).map((member) => [member.id, member]),
      );
      return {
        ...view(row, messages),
        texts: row.texts,
        deliveries: messages
          .map((message) => {
            const memberId = message.dedupe_key!.split(':')[2]!;
            const member = members.get(memberId);
            return {
              member: {
                id: memberId,
                first_name: member?.first_name ?? '',
                last_name: member?.last_name ?? '',
              },
              channel: message.channel,
              recipient: message.recipient,
              locale: message.locale,
              status: deliveryStatus(message.status),
              error: message.last_error,
              sent_at: message.sent_at?.toISOString() ?? null,
            };
          })
          .sort(
            (a, b) =>
              `${a.member.first_name} ${a.member.last_name}`.localeCompare(
                `${b.member.first_name} ${b.member.last_name}`,
              ) || a.channel.localeCompare(b.channel),
          ),
      };
    },

    async preview(actor: Actor, input: Schemas['BroadcastAudience']): Promise<Schemas['BroadcastPreview']> {
      const period = closurePeriod(input);
      await requireBranch(db, input.branch_id);
      const members = await broadcastRecipients(db, input.branch_id, period);
      const byLocale = new Map<Locale, number>();
      for (const member of members) byLocale.set(member.locale, (byLocale.get(member.locale) ?? 0) + 1);
      return {
        members: members.length,
        by_email: members.filter((member) => member.email).length,
        by_sms: members.filter((member) => member.phone_number).length,
        languages: LOCALES.filter((locale) => byLocale.has(locale)).map((locale) => ({
          locale,
          members: byLocale.get(locale)!,
        })),
      };
    },
  };
}

function deliveryStatus(status: OutboxStatus): Schemas['DeliveryStatus'] {
  return status === 'pending' ? 'queued' : status;
}
