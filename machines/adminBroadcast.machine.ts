import { assign } from 'xstate';
import { failedBackTo } from './adminErrors.ts';
import { adminMachineSetup } from './adminMachine.ts';
import type { Feedback } from './feedback.ts';
import { placeholder } from './placeholder.ts';
import type { components } from '../openapi/schema.gen.ts';
import { machineTypes } from './machine-types.ts';

type Schemas = components['schemas'];
export type BroadcastPreview = Schemas['BroadcastPreview'];
export type BroadcastDetail = Schemas['BroadcastDetail'];
export type BroadcastLocale = Schemas['LocaleCode'];
export type BroadcastChannel = Schemas['BroadcastChannel'];

/** The languages a text can be written in, pt first: pt is always written, the others when the operator picks them. */
export const BROADCAST_LOCALES: readonly BroadcastLocale[] = ['pt', 'en', 'fr', 'de', 'sk'];

export type BroadcastText = { subject: string; body: string };

export type BroadcastFields = {
  branchId: number | null;
  timeZone: string;
  /** Local date-times of the branch as the inputs give them (yyyy-MM-ddTHH:mm). */
  from: string;
  to: string;
  email: boolean;
  sms: boolean;
  /** The languages written in, pt always among them. */
  languages: BroadcastLocale[];
  texts: Record<BroadcastLocale, BroadcastText>;
};

/** The period in the branch's local time; the actor turns it into instants in the branch's zone. */
export type BroadcastAudienceRequest = { branchId: number; timeZone: string; from: string; to: string };
export type BroadcastRequest = BroadcastAudienceRequest & {
  idempotencyKey: string;
  channels: BroadcastChannel[];
  texts: Partial<Record<BroadcastLocale, BroadcastText>>;
};

export type AdminBroadcastContext = {
  fields: BroadcastFields;
  preview: BroadcastPreview | null;
  /** One press of 'Send' (what the server dedupes on): made with the preview, kept while it is retried. */
  idempotencyKey: string;
  sent: BroadcastDetail | null;
  error: Feedback | null;
};

export type AdminBroadcastEvent =
  | { type: 'field.change'; field: 'from' | 'to'; value: string }
  | { type: 'branch.change'; branchId: number | null; timeZone: string }
  | { type: 'channel.toggle'; channel: BroadcastChannel; on: boolean }
  | { type: 'language.toggle'; locale: BroadcastLocale; on: boolean }
  | { type: 'text.change'; locale: BroadcastLocale; field: keyof BroadcastText; value: string }
  | { type: 'broadcast.preview' }
  | { type: 'broadcast.back' }
  | { type: 'broadcast.send' }
  | { type: 'broadcast.again' };

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

const EMPTY_TEXTS = Object.fromEntries(
  BROADCAST_LOCALES.map((locale) => [locale, { subject: '', body: '' }]),
) as Record<BroadcastLocale, BroadcastText>;

/** A branch, a period that ends after it starts, a channel, and a subject and text in each language picked. */
export function isBroadcastComplete(fields: BroadcastFields): boolean {
  return (
    fields.branchId !== null &&
    LOCAL_DATE_TIME.test(fields.from) &&
    LOCAL_DATE_TIME.test(fields.to) &&
    fields.from < fields.to &&
    (fields.email || fields.sms) &&
    fields.languages.every(
      (locale) => fields.texts[locale].subject.trim() !== '' && fields.texts[locale].body.trim() !== '',
    )
  );
}

// The GSM 03.38 alphabet an SMS carries 160 characters of; anything else makes it UCS-2 (70 characters).
const GSM_7 = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà^{}\\[~\]|€]*$/;

/** How long an SMS of this text is: its characters and the parts it is sent in. */
export function smsLength(text: string): { characters: number; parts: number } {
  const characters = [...text].length;
  const gsm = GSM_7.test(text);
  const single = gsm ? 160 : 70;
  const part = gsm ? 153 : 67;
  return {
    characters,
    parts: characters === 0 ? 0 : characters <= single ? 1 : Math.ceil(characters / part),
  };
}

const newKey = () => globalThis.crypto.randomUUID();

/**
 * Talking to members (issue 32): the operator names the branch and the period, the channels, and a subject and
 * text in pt and in any other language picked (a member whose language has no text reads the pt one); sees how
 * many members it reaches, by language; then sends. The send carries one idempotency key per preview, so a retried
 * or doubly-pressed send is one broadcast. Going back to change anything forgets the count (it belongs to the old
 * form).
 */
export const adminBroadcastMachine = adminMachineSetup({
  types: machineTypes<AdminBroadcastContext, AdminBroadcastEvent>(),
  calls: {
    previewBroadcast: placeholder<BroadcastPreview, BroadcastAudienceRequest>('previewBroadcast'),
    sendBroadcast: placeholder<BroadcastDetail, BroadcastRequest>('sendBroadcast'),
  },
  reports: 'sent',
  fallback: 'generic',
  guards: { isComplete: ({ context }) => isBroadcastComplete(context.fields) },
}).createMachine({
  id: 'adminBroadcast',
  context: {
    fields: {
      branchId: null,
      timeZone: 'UTC',
      from: '',
      to: '',
      email: true,
      sms: false,
      languages: ['pt'],
      texts: EMPTY_TEXTS,
    },
    preview: null,
    idempotencyKey: '',
    sent: null,
    error: null,
  },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: assign(({ context, event }) => ({
            fields: { ...context.fields, [event.field]: event.value },
            error: null,
          })),
        },
        'branch.change': {
          actions: assign(({ context, event }) => ({
            fields: { ...context.fields, branchId: event.branchId, timeZone: event.timeZone },
            error: null,
          })),
        },
        'channel.toggle': {
          actions: assign(({ context, event }) => ({
            fields: { ...context.fields, [event.channel]: event.on },
            error: null,
          })),
        },
        'language.toggle': {
          // pt is always written: it is what every language without a text falls back to.
          guard: ({ event }) => event.locale !== 'pt',
          actions: assign(({ context, event }) => ({
            fields: {
              ...context.fields,
              languages: BROADCAST_LOCALES.filter((locale) =>
                locale === event.locale ? event.on : context.fields.languages.includes(locale),
              ),
            },
            error: null,
          })),
        },
        'text.change': {
          actions: assign(({ context, event }) => ({
            fields: {
              ...context.fields,
              texts: {
                ...context.fields.texts,
                [event.locale]: { ...context.fields.texts[event.locale], [event.field]: event.value },
              },
            },
            error: null,
          })),
        },
        'broadcast.preview': { guard: 'isComplete', target: 'previewing' },
      },
    },
    previewing: {
      invoke: {
        id: 'previewBroadcast',
        src: 'previewBroadcast',
        input: ({ context }) => audienceOf(context.fields),
        onDone: {
          target: 'reviewing',
          actions: assign({ preview: ({ event }) => event.output, idempotencyKey: () => newKey() }),
        },
        onError: failedBackTo('editing'),
      },
    },
    reviewing: {
      on: {
        'broadcast.back': { target: 'editing', actions: assign({ preview: null }) },
        'broadcast.send': 'sending',
      },
    },
    sending: {
      invoke: {
        id: 'sendBroadcast',
        src: 'sendBroadcast',
        input: ({ context }) => requestOf(context),
        onDone: { target: 'sent', actions: [assign({ sent: ({ event }) => event.output }), 'sent'] },
        onError: failedBackTo('reviewing'),
      },
    },
    sent: {
      on: {
        'broadcast.again': {
          target: 'editing',
          actions: assign(({ context }) => ({
            fields: { ...context.fields, texts: EMPTY_TEXTS },
            preview: null,
            sent: null,
            error: null,
          })),
        },
      },
    },
  },
});

function audienceOf(fields: BroadcastFields): BroadcastAudienceRequest {
  return { branchId: fields.branchId ?? 0, timeZone: fields.timeZone, from: fields.from, to: fields.to };
}

function requestOf(context: AdminBroadcastContext): BroadcastRequest {
  const { fields } = context;
  return {
    ...audienceOf(fields),
    idempotencyKey: context.idempotencyKey,
    channels: [...(fields.email ? ['email' as const] : []), ...(fields.sms ? ['sms' as const] : [])],
    texts: Object.fromEntries(
      fields.languages.map((locale) => [
        locale,
        { subject: fields.texts[locale].subject.trim(), body: fields.texts[locale].body.trim() },
      ]),
    ),
  };
}
