import { format, type Locale, type Localised } from './i18n.ts';

/**
 * The one error catalogue. Every error a caller can see has an HTTP status, a stable `code`
 * (for programs) and a `detail` in each of the five interface languages (for people).
 */
export const errorCatalogue = {
  validation_failed: {
    status: 422,
    detail: {
      pt: 'Pedido inválido: {problems}',
      en: 'Invalid request: {problems}',
      fr: 'Requête invalide : {problems}',
      de: 'Ungültige Anfrage: {problems}',
      sk: 'Neplatná požiadavka: {problems}',
    },
  },
  malformed_body: {
    status: 400,
    detail: {
      pt: 'O corpo do pedido não pôde ser lido. Envie JSON ou um formulário válido.',
      en: 'The request body could not be read. Send valid JSON or form data.',
      fr: 'Le corps de la requête est illisible. Envoyez du JSON ou un formulaire valide.',
      de: 'Der Anfrageinhalt konnte nicht gelesen werden. Senden Sie gültiges JSON oder Formulardaten.',
      sk: 'Obsah požiadavky sa nedá prečítať. Pošlite platný JSON alebo formulár.',
    },
  },
  unsupported_media_type: {
    status: 415,
    detail: {
      pt: 'Tipo de conteúdo não suportado.',
      en: 'Unsupported content type.',
      fr: 'Type de contenu non pris en charge.',
      de: 'Nicht unterstützter Inhaltstyp.',
      sk: 'Nepodporovaný typ obsahu.',
    },
  },
  payload_too_large: {
    status: 413,
    detail: {
      pt: 'O pedido é demasiado grande.',
      en: 'The request is too large.',
      fr: 'La requête est trop volumineuse.',
      de: 'Die Anfrage ist zu groß.',
      sk: 'Požiadavka je príliš veľká.',
    },
  },
  not_found: {
    status: 404,
    detail: {
      pt: 'Recurso não encontrado.',
      en: 'Not found.',
      fr: 'Ressource introuvable.',
      de: 'Nicht gefunden.',
      sk: 'Nenájdené.',
    },
  },
  branch_not_found: {
    status: 404,
    detail: {
      pt: 'Filial não encontrada.',
      en: 'Branch not found.',
      fr: 'Salle introuvable.',
      de: 'Standort nicht gefunden.',
      sk: 'Pobočka sa nenašla.',
    },
  },
  invalid_date: {
    status: 400,
    detail: {
      pt: 'A data tem de ser uma data de calendário real no formato AAAA-MM-DD.',
      en: 'The date must be a real calendar date in the format YYYY-MM-DD.',
      fr: 'La date doit être une date réelle au format AAAA-MM-JJ.',
      de: 'Das Datum muss ein gültiges Kalenderdatum im Format JJJJ-MM-TT sein.',
      sk: 'Dátum musí byť skutočný dátum vo formáte RRRR-MM-DD.',
    },
  },
  unauthorized: {
    status: 401,
    detail: {
      pt: 'Sessão inválida ou expirada. Inicie sessão novamente.',
      en: 'Your session is invalid or has expired. Please log in again.',
      fr: 'Session invalide ou expirée. Veuillez vous reconnecter.',
      de: 'Ihre Sitzung ist ungültig oder abgelaufen. Bitte melden Sie sich erneut an.',
      sk: 'Vaša relácia je neplatná alebo vypršala. Prihláste sa znova.',
    },
  },
  rate_limited: {
    status: 429,
    detail: {
      pt: 'Demasiados pedidos. Tente novamente dentro de alguns minutos.',
      en: 'Too many requests. Please try again in a few minutes.',
      fr: 'Trop de requêtes. Réessayez dans quelques minutes.',
      de: 'Zu viele Anfragen. Bitte versuchen Sie es in ein paar Minuten erneut.',
      sk: 'Príliš veľa požiadaviek. Skúste to znova o niekoľko minút.',
    },
  },
  not_implemented: {
    status: 501,
    detail: {
      pt: 'Esta operação ainda não está disponível.',
      en: 'This operation is not available yet.',
      fr: "Cette opération n'est pas encore disponible.",
      de: 'Dieser Vorgang ist noch nicht verfügbar.',
      sk: 'Táto operácia zatiaľ nie je dostupná.',
    },
  },
  service_unavailable: {
    status: 503,
    detail: {
      pt: 'O serviço está temporariamente indisponível. Tente novamente.',
      en: 'The service is temporarily unavailable. Please try again.',
      fr: 'Le service est temporairement indisponible. Veuillez réessayer.',
      de: 'Der Dienst ist vorübergehend nicht verfügbar. Bitte versuchen Sie es erneut.',
      sk: 'Služba je dočasne nedostupná. Skúste to znova.',
    },
  },
  internal_error: {
    status: 500,
    detail: {
      pt: 'Ocorreu um erro inesperado. Tente novamente.',
      en: 'An unexpected error occurred. Please try again.',
      fr: "Une erreur inattendue s'est produite. Veuillez réessayer.",
      de: 'Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es erneut.',
      sk: 'Vyskytla sa neočakávaná chyba. Skúste to znova.',
    },
  },
} as const satisfies Record<string, { status: number; detail: Localised }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** A failure the caller is meant to see. Anything else thrown becomes `internal_error`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: Record<string, string | number>;
  readonly suffix: string;

  constructor(
    code: ErrorCode,
    params: Record<string, string | number> = {},
    options: { suffix?: string } = {},
  ) {
    super(code);
    this.name = 'AppError';
    this.code = code;
    this.params = params;
    // Machine-readable tail some details carry for the client (e.g. `::confirm-email` after a refused login).
    this.suffix = options.suffix ?? '';
  }

  get status(): number {
    return errorCatalogue[this.code].status;
  }

  body(locale: Locale): { detail: string; code: ErrorCode } {
    return {
      detail: format(errorCatalogue[this.code].detail[locale], this.params) + this.suffix,
      code: this.code,
    };
  }
}
