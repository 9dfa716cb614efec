import { useLingui } from '@lingui/react/macro';
import type { components } from '../../../openapi/schema.gen.ts';
import { intlTag } from '../../i18n/format.ts';
import { useAdminLocale } from '../context.tsx';
import { formatLocalDate } from '../dates.tsx';
import { useMoney, useTimes } from './format.ts';

// The audit log in words (issue 32, item 6): each entry as a sentence in the console's language ("ana@… changed
// Monday 00:00–07:00 from 9 € to 6 € at Lisboa"), with what changed as short lines; the raw before and after stay
// one click away on the page. Actions this file does not know are said plainly with their code.

type AuditEntry = components['schemas']['AuditEntry'];
type AuditAction = components['schemas']['AuditAction'];

export type AuditWords = { sentence: string; details: string[] };

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const field = (value: unknown, key: string): unknown => (isFields(value) ? value[key] : undefined);

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

type Band = { weekday: number; from: string; to: string; price_cents: number };

function bandsOf(grid: unknown): Band[] {
  const bands = field(grid, 'bands');
  return Array.isArray(bands) ? (bands.filter(isFields) as unknown as Band[]) : [];
}

export type PriceChange = {
  weekday: number;
  from: string;
  to: string;
  beforeCents: number | null;
  afterCents: number | null;
};

/** What a price grid's change did to each hour band (weekday, start, end): added, removed or re-priced. */
export function priceChanges(before: unknown, after: unknown): PriceChange[] {
  const key = (band: Band) => `${band.weekday} ${band.from} ${band.to}`;
  const old = new Map(bandsOf(before).map((band) => [key(band), band]));
  const changes: PriceChange[] = [];
  for (const band of bandsOf(after)) {
    const previous = old.get(key(band));
    old.delete(key(band));
    if (previous?.price_cents === band.price_cents) continue;
    changes.push({ ...band, beforeCents: previous?.price_cents ?? null, afterCents: band.price_cents });
  }
  for (const band of old.values()) changes.push({ ...band, beforeCents: band.price_cents, afterCents: null });
  return changes.sort((a, b) => a.weekday - b.weekday || a.from.localeCompare(b.from));
}

/** The top-level fields whose values differ between `before` and `after`. */
export function changedFields(before: unknown, after: unknown): string[] {
  if (!isFields(before) || !isFields(after)) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/** Turns audit entries into sentences in the console's language, with the branches' names where it has them. */
export function useAuditWords(
  branchName: (id: number) => string | undefined,
): (entry: AuditEntry) => AuditWords {
  const { t } = useLingui();
  const money = useMoney();
  const times = useTimes();
  const tag = intlTag(useAdminLocale());
  const weekdayFormat = new Intl.DateTimeFormat(tag, { weekday: 'long', timeZone: 'UTC' });
  // 2024-01-01 was a Monday: ISO weekday n is that date plus n - 1 days.
  const weekday = (isoWeekday: number) => weekdayFormat.format(new Date(Date.UTC(2024, 0, isoWeekday)));
  const euros = (cents: unknown) => (typeof cents === 'number' ? money(cents / 100) : '—');
  /** An amount the audit row keeps in euros. */
  const inEuros = (amount: unknown) => (typeof amount === 'number' ? money(amount) : '—');

  const labels: Record<string, string> = {
    name: t`nome`,
    slug: t`endereço na página`,
    order: t`ordem`,
    location: t`morada`,
    latitude: t`latitude`,
    longitude: t`longitude`,
    map_url: t`mapa`,
    time_zone: t`fuso horário`,
    slot_minutes: t`duração dos horários`,
    opening_hours: t`horário de abertura`,
    images: t`fotografias`,
    descriptions: t`descrições`,
    arrival: t`instruções de chegada`,
    active_with_smart_lock: t`reservável`,
    lock_devices: t`fechaduras`,
    vat_rate: t`taxa de IVA`,
    guest_limit: t`convidados por reserva`,
    discount: t`desconto`,
    valid_from: t`válido de`,
    valid_until: t`válido até`,
    max_uses: t`utilizações máximas`,
    max_uses_per_user: t`utilizações por cliente`,
    registered_before: t`para contas registadas antes de`,
    active: t`ativo`,
    branch: t`filial`,
    all_branches: t`todas as filiais`,
    unit: t`unidade`,
    credit: t`crédito`,
    price_eur: t`preço`,
    validity_days: t`validade (dias)`,
    weekdays: t`dias da semana`,
    from_time: t`a partir das`,
    to_time: t`até às`,
    blocked: t`bloqueado`,
    status: t`estado`,
    email: t`e-mail`,
    phone: t`telefone`,
  };

  const value = (raw: unknown): string => {
    if (raw === null || raw === undefined) return '—';
    if (typeof raw === 'boolean') return raw ? t`sim` : t`não`;
    if (typeof raw === 'string' && ISO_INSTANT.test(raw)) return times.instant(raw);
    if (typeof raw === 'string' || typeof raw === 'number') return String(raw);
    return t`alterado`;
  };

  const fieldLines = (before: unknown, after: unknown) =>
    changedFields(before, after).map(
      (key) => `${labels[key] ?? key}: ${value(field(before, key))} → ${value(field(after, key))}`,
    );

  const branchOf = (id: unknown) =>
    (typeof id === 'number' || typeof id === 'string' ? branchName(Number(id)) : undefined) ??
    t`filial ${String(id)}`;

  const datePriceLines = (price: unknown): string[] => {
    const day = euros(field(price, 'day_price_cents'));
    const bands = field(price, 'bands');
    if (!Array.isArray(bands) || bands.length === 0) return [t`Todo o dia: ${day}`];
    return [
      ...bands.map(
        (band) =>
          `${value(field(band, 'from'))}–${value(field(band, 'to'))}: ${euros(field(band, 'price_cents'))}`,
      ),
      t`Restantes horas: ${day}`,
    ];
  };
  const localDate = (raw: unknown) =>
    (typeof raw === 'string' && formatLocalDate(raw, tag, false)) || value(raw);
  const branchList = (ids: unknown) =>
    Array.isArray(ids) ? ids.map((id) => branchOf(id)).join(', ') : t`todas as filiais`;
  const channelNames: Record<string, string> = { email: t`e-mail`, sms: 'SMS' };
  const listOf = (raw: unknown, name: (item: string) => string = (item) => item) =>
    Array.isArray(raw) ? raw.map((item) => name(String(item))).join(', ') : '—';

  type Say = (entry: AuditEntry, who: string) => AuditWords;
  const said = (sentence: string, details: string[] = []): AuditWords => ({ sentence, details });

  // One sentence for every action the server records (the contract's AuditAction): a new action does not compile
  // until it is worded here.
  const words: Record<AuditAction, Say> = {
    'booking.cancel': ({ entity_id: id, after }, who) =>
      said(
        t`${who} cancelou a reserva #${id}`,
        typeof field(after, 'refunded_eur') === 'number'
          ? [t`Reembolso: ${money(field(after, 'refunded_eur') as number)}`]
          : [],
      ),
    'booking.move': ({ entity_id: id, before, after }, who) =>
      said(t`${who} mudou a reserva #${id}`, [
        t`De ${value(field(before, 'start_time'))} para ${value(field(after, 'start_time'))}`,
      ]),
    'booking.resend_code': ({ entity_id: id }, who) =>
      said(t`${who} reenviou o código da porta da reserva #${id}`),
    'branch.prices': ({ entity_id: id, before, after }, who) => {
      const branch = branchOf(id);
      const lines = priceChanges(before, after).map((change) => {
        const band = `${weekday(change.weekday)} ${change.from}–${change.to}`;
        if (change.beforeCents === null) return t`${band}: novo, ${euros(change.afterCents)}`;
        if (change.afterCents === null) return t`${band}: retirado (era ${euros(change.beforeCents)})`;
        return t`${band}: de ${euros(change.beforeCents)} para ${euros(change.afterCents)}`;
      });
      const beforeDefault = field(before, 'default_price_cents');
      const afterDefault = field(after, 'default_price_cents');
      if (beforeDefault !== afterDefault)
        lines.push(t`Restantes horas: de ${euros(beforeDefault)} para ${euros(afterDefault)}`);
      const from = field(after, 'from');
      return said(
        typeof from === 'string'
          ? t`${who} mudou os preços de ${branch} a partir de ${from}`
          : t`${who} mudou os preços de ${branch}`,
        lines,
      );
    },
    'branch.date_price': ({ entity_id: id, before, after }, who) => {
      const branch = branchOf(id);
      const date = localDate(field(after, 'date'));
      const earlier = field(before, 'price');
      const previous = earlier ? datePriceLines(earlier).join('; ') : null;
      return said(t`${who} deu a ${date} um preço próprio em ${branch}`, [
        ...datePriceLines(field(after, 'price')),
        ...(previous ? [t`Antes: ${previous}`] : []),
      ]);
    },
    'branch.date_price_removed': ({ entity_id: id, before }, who) => {
      const branch = branchOf(id);
      const date = localDate(field(before, 'date'));
      const previous = datePriceLines(field(before, 'price')).join('; ');
      return said(t`${who} devolveu ${date} ao preço da grelha em ${branch}`, [t`Antes: ${previous}`]);
    },
    'branch.on_call': ({ entity_id: id, before, after }, who) => {
      const branch = branchOf(id);
      return said(t`${who} mudou os contactos de piquete de ${branch}`, fieldLines(before, after));
    },
    'branch.create': ({ after }, who) => said(t`${who} criou a filial ${value(field(after, 'name'))}`),
    'branch.update': ({ entity_id: id, before, after }, who) =>
      said(t`${who} alterou a filial ${branchOf(id)}`, fieldLines(before, after)),
    'broadcast.send': ({ after }, who) => {
      const branch = branchOf(field(after, 'branch_id'));
      const from = value(field(after, 'starts_at'));
      const to = value(field(after, 'ends_at'));
      const count = value(field(after, 'recipients'));
      const channels = listOf(field(after, 'channels'), (channel) => channelNames[channel] ?? channel);
      const languages = listOf(field(after, 'languages'));
      return said(t`${who} enviou uma mensagem a quem tem reserva em ${branch} entre ${from} e ${to}`, [
        t`Destinatários: ${count}`,
        t`Por: ${channels}`,
        t`Textos em: ${languages}`,
      ]);
    },
    'closure.create': ({ after }, who) => {
      const canceled = field(after, 'canceled_booking_ids');
      const count = Array.isArray(canceled) ? canceled.length : 0;
      const refunded = field(after, 'refunded_eur');
      return said(
        t`${who} encerrou ${branchOf(field(after, 'branch_id'))} de ${value(field(after, 'starts_at'))} a ${value(field(after, 'ends_at'))}`,
        [
          t`Reservas canceladas: ${count}; reembolsado: ${money(typeof refunded === 'number' ? refunded : 0)}`,
        ],
      );
    },
    'closure.reopen': ({ entity_id: id, before, after }, who) =>
      said(t`${who} reabriu o encerramento #${id}`, fieldLines(before, after)),
    'coupon.create': ({ entity_id: id }, who) => said(t`${who} criou o cupão ${id}`),
    'coupon.update': ({ entity_id: id, before, after }, who) =>
      said(t`${who} alterou o cupão ${id}`, fieldLines(before, after)),
    'credit_pack.create': ({ after }, who) => said(t`${who} criou o pacote ${value(field(after, 'name'))}`),
    'credit_pack.update': ({ before, after }, who) =>
      said(t`${who} alterou o pacote ${value(field(after, 'name'))}`, fieldLines(before, after)),
    'door.unlock': ({ entity_id: door, after }, who) => {
      const branch = branchOf(field(after, 'branch_id'));
      const outcome = field(after, 'outcome');
      if (outcome === 'opened') return said(t`${who} abriu à distância a porta ${door} de ${branch}`);
      const error = value(field(after, 'error'));
      return said(
        t`${who} tentou abrir à distância a porta ${door} de ${branch}`,
        outcome === 'offline'
          ? [t`A porta estava sem ligação.`]
          : [t`A fechadura não confirmou a abertura: ${error}`],
      );
    },
    'member.block': ({ entity_id: id, entity_label }, who) => {
      const member = entity_label ?? id;
      return said(t`${who} bloqueou o cliente ${member}`);
    },
    'member.unblock': ({ entity_id: id, entity_label }, who) => {
      const member = entity_label ?? id;
      return said(t`${who} desbloqueou o cliente ${member}`);
    },
    'member.export': ({ entity_id: id, entity_label }, who) => {
      const member = entity_label ?? id;
      return said(t`${who} exportou os dados do cliente ${member}`);
    },
    'member.erase': ({ entity_id: id, entity_label }, who) => {
      const member = entity_label ?? id;
      return said(t`${who} eliminou a conta do cliente ${member}`);
    },
    'member.note': ({ entity_id: id, entity_label }, who) => {
      const member = entity_label ?? id;
      return said(t`${who} escreveu uma nota sobre o cliente ${member}`);
    },
    'contact.block': ({ entity_id: id }, who) => said(t`${who} bloqueou o contacto ${id}`),
    'contact.unblock': ({ entity_id: id }, who) => said(t`${who} desbloqueou o contacto ${id}`),
    'operator.create': ({ after }, who) =>
      said(
        field(after, 'role') === 'owner'
          ? t`${who} criou o operador ${value(field(after, 'email'))} (responsável)`
          : t`${who} criou o operador ${value(field(after, 'email'))} (equipa)`,
      ),
    'operator.remove': ({ entity_id: id }, who) => said(t`${who} removeu o operador #${id}`),
    'operator.set_password': ({ entity_id: id }, who) =>
      said(t`${who} definiu a palavra-passe do operador #${id}`),
    'operator.set_branches': ({ entity_id: id, before, after }, who) => {
      const limited = field(after, 'branch_ids');
      const branches = branchList(limited);
      const previous = branchList(field(before, 'branch_ids'));
      return said(
        Array.isArray(limited)
          ? t`${who} limitou o operador #${id} a ${branches}`
          : t`${who} deu ao operador #${id} todas as filiais`,
        [t`Antes: ${previous}`],
      );
    },
    'refund_policy.set': (_entry, who) => said(t`${who} alterou a política de reembolso`),
    'refund_ceiling.set': ({ before, after }, who) =>
      said(t`${who} alterou o limite de reembolso da equipa`, [
        t`De ${inEuros(field(before, 'staff_refund_ceiling_eur'))} para ${inEuros(field(after, 'staff_refund_ceiling_eur'))}`,
      ]),
    'refund_approval.request': ({ after }, who) =>
      said(t`${who} pediu aprovação para cancelar a reserva #${value(field(after, 'booking_id'))}`, [
        t`Reembolso: ${inEuros(field(after, 'refund_eur'))} (limite: ${inEuros(field(after, 'ceiling_eur'))})`,
      ]),
    'refund_approval.approve': ({ entity_id: id, after }, who) =>
      said(t`${who} aprovou o pedido #${id}: reserva #${value(field(after, 'booking_id'))} cancelada`, [
        t`Reembolso: ${inEuros(field(after, 'refunded_eur'))}`,
      ]),
    'refund_approval.refuse': ({ entity_id: id }, who) => said(t`${who} recusou o pedido #${id}`),
    'refund_approval.close': ({ entity_id: id, after }, who) =>
      said(
        t`${who} fechou o pedido #${id}: a reserva #${value(field(after, 'booking_id'))} já não estava ativa`,
      ),
    'session.end': ({ before }, who) =>
      said(t`${who} terminou uma sessão do operador #${value(field(before, 'operator_id'))}`),
    'tax_document.resend': ({ entity_id: id }, who) => said(t`${who} reenviou o documento fiscal #${id}`),
  };

  return (entry) => {
    const who = entry.operator_email ?? t`A linha de comandos`;
    if (Object.hasOwn(words, entry.action)) return words[entry.action as AuditAction](entry, who);
    const id = entry.entity_id;
    return said(
      t`${who}: ${entry.action} (${entry.entity_type} ${id})`,
      fieldLines(entry.before, entry.after),
    );
  };
}
