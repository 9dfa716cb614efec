import { useLingui } from '@lingui/react/macro';
import type { components } from '../../../openapi/schema.gen.ts';
import { intlTag } from '../../i18n/format.ts';
import { useAdminLocale } from '../context.tsx';
import { useMoney, useTimes } from './format.ts';

// The audit log in words (issue 32, item 6): each entry as a sentence in the console's language ("ana@… changed
// Monday 00:00–07:00 from 9 € to 6 € at Lisboa"), with what changed as short lines; the raw before and after stay
// one click away on the page. Actions this file does not know are said plainly with their code.

type AuditEntry = components['schemas']['AuditEntry'];

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

  return (entry) => {
    const who = entry.operator_email ?? t`A linha de comandos`;
    const id = entry.entity_id;
    // A member by their e-mail while the account holds one.
    const member = entry.entity_label ?? id;
    const { before, after } = entry;
    switch (entry.action) {
      case 'booking.cancel':
        return {
          sentence: t`${who} cancelou a reserva #${id}`,
          details:
            typeof field(after, 'refunded_eur') === 'number'
              ? [t`Reembolso: ${money(field(after, 'refunded_eur') as number)}`]
              : [],
        };
      case 'booking.move':
        return {
          sentence: t`${who} mudou a reserva #${id}`,
          details: [t`De ${value(field(before, 'start_time'))} para ${value(field(after, 'start_time'))}`],
        };
      case 'booking.resend_code':
        return { sentence: t`${who} reenviou o código da porta da reserva #${id}`, details: [] };
      case 'branch.prices': {
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
        return {
          sentence:
            typeof from === 'string'
              ? t`${who} mudou os preços de ${branch} a partir de ${from}`
              : t`${who} mudou os preços de ${branch}`,
          details: lines,
        };
      }
      case 'branch.create':
        return { sentence: t`${who} criou a filial ${value(field(after, 'name'))}`, details: [] };
      case 'branch.update':
        return {
          sentence: t`${who} alterou a filial ${branchOf(id)}`,
          details: fieldLines(before, after),
        };
      case 'closure.create': {
        const canceled = field(after, 'canceled_booking_ids');
        const count = Array.isArray(canceled) ? canceled.length : 0;
        const refunded = field(after, 'refunded_eur');
        return {
          sentence: t`${who} encerrou ${branchOf(field(after, 'branch_id'))} de ${value(field(after, 'starts_at'))} a ${value(field(after, 'ends_at'))}`,
          details: [
            t`Reservas canceladas: ${count}; reembolsado: ${money(typeof refunded === 'number' ? refunded : 0)}`,
          ],
        };
      }
      case 'closure.reopen':
        return { sentence: t`${who} reabriu o encerramento #${id}`, details: fieldLines(before, after) };
      case 'coupon.create':
        return { sentence: t`${who} criou o cupão ${id}`, details: [] };
      case 'coupon.update':
        return { sentence: t`${who} alterou o cupão ${id}`, details: fieldLines(before, after) };
      case 'credit_pack.create':
        return {
          sentence: t`${who} criou o pacote ${value(field(after, 'name'))}`,
          details: [],
        };
      case 'credit_pack.update':
        return {
          sentence: t`${who} alterou o pacote ${value(field(after, 'name'))}`,
          details: fieldLines(before, after),
        };
      case 'member.block':
        return { sentence: t`${who} bloqueou o cliente ${member}`, details: [] };
      case 'member.unblock':
        return { sentence: t`${who} desbloqueou o cliente ${member}`, details: [] };
      case 'member.export':
        return { sentence: t`${who} exportou os dados do cliente ${member}`, details: [] };
      case 'member.erase':
        return { sentence: t`${who} eliminou a conta do cliente ${member}`, details: [] };
      case 'contact.block':
        return { sentence: t`${who} bloqueou o contacto ${id}`, details: [] };
      case 'contact.unblock':
        return { sentence: t`${who} desbloqueou o contacto ${id}`, details: [] };
      case 'operator.create':
        return {
          sentence:
            field(after, 'role') === 'owner'
              ? t`${who} criou o operador ${value(field(after, 'email'))} (responsável)`
              : t`${who} criou o operador ${value(field(after, 'email'))} (equipa)`,
          details: [],
        };
      case 'operator.remove':
        return { sentence: t`${who} removeu o operador #${id}`, details: [] };
      case 'operator.set_password':
        return { sentence: t`${who} definiu a palavra-passe do operador #${id}`, details: [] };
      case 'refund_policy.set':
        return { sentence: t`${who} alterou a política de reembolso`, details: [] };
      case 'refund_ceiling.set':
        return {
          sentence: t`${who} alterou o limite de reembolso da equipa`,
          details: [
            t`De ${inEuros(field(before, 'staff_refund_ceiling_eur'))} para ${inEuros(field(after, 'staff_refund_ceiling_eur'))}`,
          ],
        };
      case 'refund_approval.request':
        return {
          sentence: t`${who} pediu aprovação para cancelar a reserva #${value(field(after, 'booking_id'))}`,
          details: [
            t`Reembolso: ${inEuros(field(after, 'refund_eur'))} (limite: ${inEuros(field(after, 'ceiling_eur'))})`,
          ],
        };
      case 'refund_approval.approve':
        return {
          sentence: t`${who} aprovou o pedido #${id}: reserva #${value(field(after, 'booking_id'))} cancelada`,
          details: [t`Reembolso: ${inEuros(field(after, 'refunded_eur'))}`],
        };
      case 'refund_approval.refuse':
        return { sentence: t`${who} recusou o pedido #${id}`, details: [] };
      case 'refund_approval.close':
        return {
          sentence: t`${who} fechou o pedido #${id}: a reserva #${value(field(after, 'booking_id'))} já não estava ativa`,
          details: [],
        };
      case 'session.end':
        return {
          sentence: t`${who} terminou uma sessão do operador #${value(field(before, 'operator_id'))}`,
          details: [],
        };
      case 'tax_document.resend':
        return { sentence: t`${who} reenviou o documento fiscal #${id}`, details: [] };
      default:
        return {
          sentence: t`${who}: ${entry.action} (${entry.entity_type} ${id})`,
          details: fieldLines(before, after),
        };
    }
  };
}
