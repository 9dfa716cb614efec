import { translate, type Locale, type Message } from './i18n.ts';

/**
 * The one error catalogue. Every error a caller can see has an HTTP status, a stable `code`
 * (for programs) and a `detail` in each of the five interface languages (for people).
 */
export const errorCatalogue = {
  validation_failed: {
    status: 422,
    detail: /*i18n*/ { id: 'error.validation_failed', message: 'Pedido inválido: {problems}' },
  },
  malformed_body: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.malformed_body',
      message: 'O corpo do pedido não pôde ser lido. Envie JSON ou um formulário válido.',
    },
  },
  unsupported_media_type: {
    status: 415,
    detail: /*i18n*/ { id: 'error.unsupported_media_type', message: 'Tipo de conteúdo não suportado.' },
  },
  payload_too_large: {
    status: 413,
    detail: /*i18n*/ { id: 'error.payload_too_large', message: 'O pedido é demasiado grande.' },
  },
  not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.not_found', message: 'Recurso não encontrado.' },
  },
  branch_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.branch_not_found', message: 'Filial não encontrada.' },
  },
  invalid_date: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.invalid_date',
      message: 'A data tem de ser uma data de calendário real no formato AAAA-MM-DD.',
    },
  },
  unauthorized: {
    status: 401,
    detail: /*i18n*/ {
      id: 'error.unauthorized',
      message: 'Sessão inválida ou expirada. Inicie sessão novamente.',
    },
  },
  rate_limited: {
    status: 429,
    detail: /*i18n*/ {
      id: 'error.rate_limited',
      message: 'Demasiados pedidos. Tente novamente dentro de alguns minutos.',
    },
  },
  not_implemented: {
    status: 501,
    detail: /*i18n*/ { id: 'error.not_implemented', message: 'Esta operação ainda não está disponível.' },
  },
  service_unavailable: {
    status: 503,
    detail: /*i18n*/ {
      id: 'error.service_unavailable',
      message: 'O serviço está temporariamente indisponível. Tente novamente.',
    },
  },
  internal_error: {
    status: 500,
    detail: /*i18n*/ { id: 'error.internal_error', message: 'Ocorreu um erro inesperado. Tente novamente.' },
  },
  // --- Accounts ---
  invalid_credentials: {
    status: 401,
    detail: /*i18n*/ { id: 'error.invalid_credentials', message: 'E-mail ou palavra-passe incorretos.' },
  },
  account_not_verified: {
    status: 403,
    detail: /*i18n*/ {
      id: 'error.account_not_verified',
      message: 'Confirme a sua conta antes de iniciar sessão.',
    },
  },
  passwords_do_not_match: {
    status: 400,
    detail: /*i18n*/ { id: 'error.passwords_do_not_match', message: 'As palavras-passe não coincidem.' },
  },
  password_too_short: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.password_too_short',
      message: 'A palavra-passe tem de ter pelo menos {min, plural, one {# carácter} other {# caracteres}}.',
    },
  },
  password_too_long: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.password_too_long',
      message: 'A palavra-passe pode ter no máximo {max, plural, one {# carácter} other {# caracteres}}.',
    },
  },
  password_too_common: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.password_too_common',
      message: 'Esta palavra-passe é demasiado comum e fácil de adivinhar. Escolha outra.',
    },
  },
  invalid_phone_number: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.invalid_phone_number',
      message:
        'O número de telefone tem de incluir o indicativo do país e ser válido (por exemplo, +351912345678).',
    },
  },
  invalid_name: {
    status: 400,
    detail: /*i18n*/ { id: 'error.invalid_name', message: 'Indique o nome próprio e o apelido.' },
  },
  email_in_use: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.email_in_use',
      message: 'Já existe uma conta com este e-mail. Inicie sessão ou recupere a palavra-passe.',
    },
  },
  phone_in_use: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.phone_in_use',
      message: 'Este número de telefone já está associado a outra conta.',
    },
  },
  contact_blocked: {
    status: 403,
    detail: /*i18n*/ {
      id: 'error.contact_blocked',
      message:
        'Não é possível criar uma conta com este e-mail ou número de telefone. Contacte-nos para mais informações.',
    },
  },
  method_not_allowed: {
    status: 405,
    detail: /*i18n*/ {
      id: 'error.method_not_allowed',
      message: 'Este endereço não aceita este método. Veja o cabeçalho Allow.',
    },
  },
  invalid_verification_code: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.invalid_verification_code',
      message: 'Este código é inválido ou já foi utilizado.',
    },
  },
  verification_code_expired: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.verification_code_expired',
      message: 'Este código expirou. Peça um novo código.',
    },
  },
  url_too_long: {
    status: 414,
    detail: /*i18n*/ { id: 'error.url_too_long', message: 'O endereço do pedido é demasiado longo.' },
  },
  bad_url: {
    status: 400,
    detail: /*i18n*/ { id: 'error.bad_url', message: 'O endereço do pedido não é válido.' },
  },
  invalid_reset_token: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.invalid_reset_token',
      message: 'Esta ligação de recuperação é inválida, expirou ou já foi utilizada. Peça uma nova.',
    },
  },
  // --- Bookings and payments ---
  invalid_coupon: {
    status: 404,
    detail: /*i18n*/ { id: 'error.invalid_coupon', message: 'Código de cupão inválido.' },
  },
  booking_requires_verification: {
    status: 403,
    detail: /*i18n*/ {
      id: 'error.booking_requires_verification',
      message: 'Confirme o seu e-mail e o seu número de telefone antes de reservar.',
    },
  },
  booking_client_blocked: {
    status: 403,
    detail: /*i18n*/ {
      id: 'error.booking_client_blocked',
      message: 'Esta conta não pode fazer reservas. Para mais informações, escreva para {email}.',
    },
  },
  booking_account_closed: {
    status: 403,
    detail: /*i18n*/ { id: 'error.booking_account_closed', message: 'Esta conta foi eliminada.' },
  },
  slot_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.slot_not_found', message: 'Horário não encontrado.' },
  },
  slot_unavailable: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.slot_unavailable',
      message: 'Um dos horários escolhidos já não está disponível. Escolha outro horário.',
    },
  },
  slot_started: {
    status: 409,
    detail: /*i18n*/ { id: 'error.slot_started', message: 'Um dos horários escolhidos já começou.' },
  },
  branch_not_bookable: {
    status: 409,
    detail: /*i18n*/ { id: 'error.branch_not_bookable', message: 'Esta filial ainda não aceita reservas.' },
  },
  slots_of_several_branches: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.slots_of_several_branches',
      message: 'Uma reserva só pode incluir horários de uma filial.',
    },
  },
  price_changed: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.price_changed',
      message: 'O preço mudou: o total é agora {total}. Reveja a sua reserva.',
    },
  },
  payment_provider_unavailable: {
    status: 503,
    detail: /*i18n*/ {
      id: 'error.payment_provider_unavailable',
      message: 'O serviço de pagamentos está indisponível. Nada foi cobrado; tente novamente.',
    },
  },
  // --- The provider's balance (Stripe reconciliation) ---
  provider_balance_missing: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.provider_balance_missing',
      message:
        'O fornecedor de pagamentos deste servidor é o local (sem Stripe): não há comissões nem transferências para conciliar.',
    },
  },
  provider_balance_refused: {
    status: 502,
    detail: /*i18n*/ {
      id: 'error.provider_balance_refused',
      message:
        'O Stripe recusou ou falhou a leitura das transações de saldo e das transferências (HTTP {status}). Confirme que a chave tem leitura de «Balance transactions» e «Payouts» e tente novamente.',
    },
  },
  provider_balance_unavailable: {
    status: 503,
    detail: /*i18n*/ {
      id: 'error.provider_balance_unavailable',
      message:
        'O Stripe não respondeu a tempo à leitura das transações de saldo. Nada foi alterado; tente novamente dentro de momentos.',
    },
  },
  booking_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.booking_not_found', message: 'Reserva não encontrada.' },
  },
  no_free_week: {
    status: 404,
    detail: /*i18n*/ {
      id: 'error.no_free_week',
      message: 'Este horário não está livre em nenhuma das próximas semanas. Escolha outro no calendário.',
    },
  },
  not_a_weekly_series: {
    status: 422,
    detail: /*i18n*/ {
      id: 'error.not_a_weekly_series',
      message:
        'Uma série semanal tem pelo menos duas semanas, todas no mesmo dia da semana e à mesma hora, na mesma filial.',
    },
  },
  booking_not_guestable: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.booking_not_guestable',
      message: 'Só pode juntar convidados a uma reserva confirmada que ainda não terminou.',
    },
  },
  guest_limit_reached: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.guest_limit_reached',
      message: 'Esta reserva já tem todos os convidados que este espaço permite.',
    },
  },
  guest_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.guest_not_found', message: 'Convidado não encontrado nesta reserva.' },
  },
  guest_contact_required: {
    status: 422,
    detail: /*i18n*/ {
      id: 'error.guest_contact_required',
      message: 'Indique o telemóvel ou o e-mail do convidado, para lhe enviarmos o código da porta.',
    },
  },
  booking_not_cancelable: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.booking_not_cancelable',
      message: 'Esta reserva já não pode ser cancelada.',
    },
  },
  refund_changed: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.refund_changed',
      message: 'O valor do reembolso mudou. Atualize a lista e tente novamente.',
    },
  },
  checkout_session_not_found: {
    status: 404,
    detail: /*i18n*/ {
      id: 'error.checkout_session_not_found',
      message: 'Sessão de pagamento não encontrada.',
    },
  },
  checkout_session_closed: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.checkout_session_closed',
      message: 'Esta sessão de pagamento já terminou.',
    },
  },
  invalid_webhook_signature: {
    status: 400,
    detail: /*i18n*/ { id: 'error.invalid_webhook_signature', message: 'Assinatura do webhook inválida.' },
  },
  invalid_webhook_event: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.invalid_webhook_event',
      message:
        'O evento do webhook não pode ser lido: falta-lhe a identificação ou a validade da sessão de pagamento.',
    },
  },
  code_not_available: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.code_not_available',
      message:
        'O código da porta só pode ser reenviado desde 30 minutos antes do início até ao fim da sua validade.',
    },
  },
  booking_not_movable: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.booking_not_movable',
      message:
        'Esta reserva já não pode ser mudada: só uma reserva paga pode mudar de horário, e só enquanto {hours, plural, one {faltar mais de # hora} other {faltarem mais de # horas}} para o início.',
    },
  },
  booking_paid_with_credit: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.booking_paid_with_credit',
      message:
        'Uma reserva paga com crédito não muda de horário: cancele-a (o crédito volta à sua carteira) e reserve outra hora.',
    },
  },
  credit_pack_not_found: {
    status: 404,
    detail: /*i18n*/ {
      id: 'error.credit_pack_not_found',
      message: 'Este pacote não existe ou já não está à venda.',
    },
  },
  invalid_credit_pack_hours: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.invalid_credit_pack_hours',
      message: 'As horas do pacote têm de ter início e fim, e o fim tem de ser depois do início.',
    },
  },
  voucher_not_found: {
    status: 404,
    detail: /*i18n*/ {
      id: 'error.voucher_not_found',
      message: 'Não há nenhum vale com este código. Verifique-o e tente novamente.',
    },
  },
  voucher_redeemed: {
    status: 409,
    detail: /*i18n*/ { id: 'error.voucher_redeemed', message: 'Este vale já foi usado.' },
  },
  voucher_expired: {
    status: 409,
    detail: /*i18n*/ { id: 'error.voucher_expired', message: 'Este vale já expirou.' },
  },
  move_target_invalid: {
    status: 422,
    detail: /*i18n*/ {
      id: 'error.move_target_invalid',
      message: 'Uma reserva só pode mudar para outro horário da mesma filial.',
    },
  },
  price_difference_changed: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.price_difference_changed',
      message: 'A diferença de preço mudou: é agora {difference}. Reveja a mudança.',
    },
  },
  move_in_progress: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.move_in_progress',
      message: 'Esta reserva já está a ser mudada noutro pedido. Aguarde um momento e veja as suas reservas.',
    },
  },
  operator_forbidden: {
    status: 403,
    detail: /*i18n*/ {
      id: 'error.operator_forbidden',
      message: 'Esta área está reservada aos proprietários.',
    },
  },
  totp_code_reused: {
    status: 401,
    detail: /*i18n*/ {
      id: 'error.totp_code_reused',
      message: 'Este código já foi usado. Espere pelo próximo código da sua aplicação de autenticação.',
    },
  },
  invalid_setup_token: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.invalid_setup_token',
      message:
        'Este link de configuração é inválido, já foi usado ou expirou. Peça um novo a um proprietário.',
    },
  },
  session_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.session_not_found', message: 'Sessão não encontrada ou já terminada.' },
  },
  branch_forbidden: {
    status: 403,
    detail: /*i18n*/ {
      id: 'error.branch_forbidden',
      message: 'Esta filial não está entre as suas. Peça a um proprietário para lha atribuir.',
    },
  },
  owner_has_all_branches: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.owner_has_all_branches',
      message: 'Um proprietário tem sempre todas as filiais; só a equipa pode ser limitada a algumas.',
    },
  },
  operator_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.operator_not_found', message: 'Operador não encontrado.' },
  },
  operator_exists: {
    status: 409,
    detail: /*i18n*/ { id: 'error.operator_exists', message: 'Já existe um operador com este e-mail.' },
  },
  last_owner: {
    status: 409,
    detail: /*i18n*/ { id: 'error.last_owner', message: 'O último proprietário não pode ser removido.' },
  },
  invalid_period: {
    status: 400,
    detail: /*i18n*/ {
      id: 'error.invalid_period',
      message: 'O período é inválido: o início tem de ser anterior ao fim.',
    },
  },
  refund_exceeds_paid: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.refund_exceeds_paid',
      message: 'O reembolso não pode ser superior ao valor pago ({paid}).',
    },
  },
  move_price_differs: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.move_price_differs',
      message: 'A reserva só pode ser mudada para um horário com o mesmo preço.',
    },
  },
  move_same_slot: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.move_same_slot',
      message: 'A reserva já está neste horário. Escolha outro horário para a mudar.',
    },
  },
  closure_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.closure_not_found', message: 'Encerramento não encontrado.' },
  },
  closure_overlaps: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.closure_overlaps',
      message: 'Este período sobrepõe-se a um encerramento em vigor.',
    },
  },
  closure_reopened: {
    status: 409,
    detail: /*i18n*/ { id: 'error.closure_reopened', message: 'Este encerramento já foi levantado.' },
  },
  branch_slug_taken: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.branch_slug_taken',
      message: 'Já existe uma filial com este identificador.',
    },
  },
  coupon_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.coupon_not_found', message: 'Cupão não encontrado.' },
  },
  coupon_exists: {
    status: 409,
    detail: /*i18n*/ { id: 'error.coupon_exists', message: 'Já existe um cupão com este código.' },
  },
  contact_already_blocked: {
    status: 409,
    detail: /*i18n*/ { id: 'error.contact_already_blocked', message: 'Este contacto já está bloqueado.' },
  },
  blocked_contact_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.blocked_contact_not_found', message: 'Bloqueio não encontrado.' },
  },
  member_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.member_not_found', message: 'Cliente não encontrado.' },
  },
  confirmation_mismatch: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.confirmation_mismatch',
      message: 'A confirmação não corresponde ao e-mail do cliente.',
    },
  },
  // --- Live door control (issue 32, item 1) ---
  door_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.door_not_found', message: 'Esta porta não pertence a esta filial.' },
  },
  reason_required: {
    status: 422,
    detail: /*i18n*/ {
      id: 'error.reason_required',
      message: 'Diga porque abre a porta: o motivo fica no registo de auditoria.',
    },
  },
  door_offline: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.door_offline',
      message: 'A porta está sem ligação e não pode ser aberta à distância. A tentativa ficou registada.',
    },
  },
  door_unlock_failed: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.door_unlock_failed',
      message:
        'A fechadura não confirmou a abertura. A tentativa ficou registada; tente de novo ou ligue ao apoio da fechadura.',
    },
  },
  door_unlock_in_progress: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.door_unlock_in_progress',
      message: 'Este pedido de abertura ainda está em curso. Aguarde a resposta da porta.',
    },
  },
  broadcast_not_found: {
    status: 404,
    detail: /*i18n*/ { id: 'error.broadcast_not_found', message: 'Mensagem não encontrada.' },
  },
  // --- Refunds above the staff ceiling (issue 32, item 2) ---
  refund_approval_pending: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.refund_approval_pending',
      message:
        'Esta reserva já tem um cancelamento à espera de um proprietário. Aguarde a decisão antes de pedir outro.',
    },
  },
  refund_approval_not_found: {
    status: 404,
    detail: /*i18n*/ {
      id: 'error.refund_approval_not_found',
      message: 'Pedido de aprovação não encontrado.',
    },
  },
  refund_approval_decided: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.refund_approval_decided',
      message: 'Este pedido já foi decidido. Nada mudou.',
    },
  },
  refund_approval_closed: {
    status: 409,
    detail: /*i18n*/ {
      id: 'error.refund_approval_closed',
      message:
        'A reserva já foi cancelada ou já terminou: o pedido foi fechado e nada foi reembolsado por ele.',
    },
  },
} as const satisfies Record<string, { status: number; detail: Message }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** `contact_blocked` on a profile update: the account exists, so the registration's words would not fit. */
export const CONTACT_BLOCKED_ON_PROFILE: Message = /*i18n*/ {
  id: 'error.contact_blocked.on_profile',
  message:
    'Este e-mail ou número de telefone não pode ser usado na sua conta. Os seus dados de contacto não foram alterados; contacte-nos para mais informações.',
};

/** `invalid_period` when the period is longer than allowed (`days`, the longest period in days). */
export const PERIOD_TOO_LONG: Message = /*i18n*/ {
  id: 'error.invalid_period.too_long',
  message: 'O período é inválido: pode ter no máximo {days, plural, one {# dia} other {# dias}}.',
};

/** Values filled into a detail; a function formats its value in the reader's language (amounts, dates). */
export type ErrorParams = Record<string, string | number | ((locale: Locale) => string)>;

function resolveParams(params: ErrorParams, locale: Locale): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      typeof value === 'function' ? value(locale) : value,
    ]),
  );
}

/** A verification an account still owes before it may log in (carried by `account_not_verified`). */
export type PendingVerification = 'email' | 'phone';

/** One refused field of a `validation_failed` answer (the contract's `FieldProblem`). */
export type FieldProblem = {
  field: string;
  problem: 'required' | 'not_allowed' | 'too_long' | 'too_short' | 'format' | 'invalid';
  limit?: number;
};

/** Structured fields some errors carry next to `detail` and `code` (the contract's `Error` schema). */
export type ErrorFields = {
  pending?: PendingVerification[];
  fields?: FieldProblem[];
  /** On `price_difference_changed`: the difference the server computes now, in euros. */
  price_difference_eur?: number;
};

export type ErrorBody = { detail: string; code: ErrorCode } & ErrorFields;

/** A failure the caller is meant to see. Anything else thrown becomes `internal_error`. */

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: ErrorParams;
  readonly fields: ErrorFields;
  /** Words of its own for one use of a code (the catalogue's otherwise). */
  readonly detail: Message | null;

  constructor(
    code: ErrorCode,
    params: ErrorParams = {},
    fields: ErrorFields = {},
    options: { detail?: Message } = {},
  ) {
    super(code);
    this.name = 'AppError';
    this.code = code;
    this.params = params;
    this.fields = fields;
    this.detail = options.detail ?? null;
  }

  get status(): number {
    return errorCatalogue[this.code].status;
  }

  body(locale: Locale): ErrorBody {
    return {
      detail: translate(
        locale,
        this.detail ?? errorCatalogue[this.code].detail,
        resolveParams(this.params, locale),
      ),
      code: this.code,
      ...this.fields,
    };
  }
}
