import { assign, setup } from 'xstate';
import { isValidPortugueseTaxId } from '../openapi/tax-id.ts';
import { ApiError } from './api.ts';
import { placeholder } from './placeholder.ts';
import {
  failureFeedback,
  PASSWORD_AND_PHONE_CHECKS,
  personOf,
  sanitisePhone,
  type Feedback,
} from './feedback.ts';
import type { FieldProblem } from './field-limits.ts';
import type { User } from './session.machine.ts';
import { machineTypes } from './machine-types.ts';
import { withField } from './form-fields.ts';

export type ProfileFields = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  newPassword: string;
  confirmNewPassword: string;
  /** The optional Portuguese tax number (NIF) printed on receipts. */
  taxId: string;
};

export type ProfileContext = {
  fields: ProfileFields;
  agreeNewsletter: boolean;
  error: Feedback | null;
  success: Feedback | null;
  /** What the server refused, by form field: shown beside the field. */
  fieldErrors: Partial<Record<keyof ProfileFields, FieldProblem>>;
  /** The coupon the member is offered without typing it (the early bird), with its uses left; shown, not edited. */
  offeredCoupon: User['offered_coupon'];
};

/** The API's names of the profile's fields. */
const API_FIELDS: Record<string, keyof ProfileFields> = {
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  phone_number: 'phone',
  password: 'newPassword',
  tax_id: 'taxId',
};

/** The server's field problems that belong to a field of the form (others stay a message at the top). */
function profileFieldErrors(error: unknown): ProfileContext['fieldErrors'] {
  const found: ProfileContext['fieldErrors'] = {};
  if (!(error instanceof ApiError)) return found;
  for (const problem of error.fields) {
    const field = API_FIELDS[problem.field];
    if (field && !found[field]) found[field] = problem;
  }
  return found;
}

export type ProfileEvent =
  | { type: 'field.change'; field: keyof ProfileFields; value: string }
  | { type: 'newsletter.change'; checked: boolean }
  | { type: 'profile.submit' }
  | { type: 'profile.reload' };

/** `PUT /auth/me` without `locale`, which the actor adds. An empty new password is null (docs/decisions.md, 'Accounts'). */
export type ProfileUpdate = {
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  password: string | null;
  agree_newsletter: boolean;
  /** Null removes it. */
  tax_id: string | null;
};

const filled = (value: string) => value.trim() !== '';

function fieldsOf(user: User): ProfileFields {
  return {
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    phone: user.phone_number,
    newPassword: '',
    confirmNewPassword: '',
    taxId: user.tax_id ?? '',
  };
}

/** The update the form says (the reverse of `fieldsOf`). */
function updateOf(context: ProfileContext): ProfileUpdate {
  return {
    ...personOf(context.fields),
    password: context.fields.newPassword === '' ? null : context.fields.newPassword,
    agree_newsletter: context.agreeNewsletter,
    tax_id: context.fields.taxId.trim() === '' ? null : context.fields.taxId.trim(),
  };
}

/** True when the 'confirm new password' field is shown: only once a new password is typed (docs/decisions.md, 'Client'). */
export function asksPasswordConfirmation(context: ProfileContext): boolean {
  return context.fields.newPassword !== '';
}

/**
 * The profile tab (docs/decisions.md, 'Client'): read the user, edit, submit. Invalid input (different passwords, a phone
 * number that does not sanitise) makes no call. After a successful update the session re-validates its
 * token (`revalidateSession`); a changed e-mail or password ends it and the app opens the auth modal.
 */
export const profileMachine = setup({
  types: machineTypes<ProfileContext, ProfileEvent>(),
  actors: {
    loadProfile: placeholder<User>('loadProfile'),
    updateProfile: placeholder<User, ProfileUpdate>('updateProfile'),
  },
  guards: {
    passwordsDiffer: ({ context }) =>
      context.fields.newPassword !== '' && context.fields.newPassword !== context.fields.confirmNewPassword,
    phoneInvalid: ({ context }) => sanitisePhone(context.fields.phone) === null,
    taxIdInvalid: ({ context }) =>
      context.fields.taxId.trim() !== '' && !isValidPortugueseTaxId(context.fields.taxId),
    isFilled: ({ context }) => {
      const { firstName, lastName, email, phone } = context.fields;
      return [firstName, lastName, email, phone].every(filled);
    },
  },
  actions: {
    // Provided by the app: the session re-validates its token (docs/decisions.md, 'Accounts').
    revalidateSession: () => {},
    fail: assign((_, params: { feedback: Feedback }) => ({ error: params.feedback, success: null })),
  },
}).createMachine({
  id: 'profile',
  context: {
    fields: {
      firstName: '',
      lastName: '',
      email: '',
      phone: '',
      newPassword: '',
      confirmNewPassword: '',
      taxId: '',
    },
    agreeNewsletter: false,
    error: null,
    success: null,
    fieldErrors: {},
    offeredCoupon: null,
  },
  initial: 'loading',
  on: {
    'field.change': {
      actions: assign(({ context, event }) => ({
        fields: withField(context.fields, event),
        fieldErrors: { ...context.fieldErrors, [event.field]: undefined },
      })),
    },
    'newsletter.change': { actions: assign({ agreeNewsletter: ({ event }) => event.checked }) },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({
            fields: fieldsOf(event.output),
            agreeNewsletter: event.output.agree_newsletter,
            offeredCoupon: event.output.offered_coupon,
          })),
        },
        onError: {
          target: 'loadFailed',
          actions: assign(({ event }) => ({ error: failureFeedback(event.error, 'can-not-update-profile') })),
        },
      },
    },
    loadFailed: {
      on: { 'profile.reload': { target: 'loading', actions: assign({ error: null }) } },
    },
    editing: {
      on: {
        'profile.submit': [
          ...PASSWORD_AND_PHONE_CHECKS,
          {
            // Told beside the field, as the server would (422, `tax_id` invalid), without a call.
            guard: 'taxIdInvalid',
            actions: assign(({ context }) => ({
              fieldErrors: { ...context.fieldErrors, taxId: { field: 'tax_id', problem: 'invalid' } },
              success: null,
            })),
          },
          {
            guard: 'isFilled',
            target: 'saving',
            actions: assign({ error: null, success: null, fieldErrors: {} }),
          },
        ],
      },
    },
    saving: {
      invoke: {
        id: 'updateProfile',
        src: 'updateProfile',
        input: ({ context }) => updateOf(context),
        onDone: {
          target: 'editing',
          actions: [
            assign(({ event }) => ({
              fields: fieldsOf(event.output),
              agreeNewsletter: event.output.agree_newsletter,
              offeredCoupon: event.output.offered_coupon,
              success: { key: 'profile-updated-successfully' },
              error: null,
            })),
            'revalidateSession',
          ],
        },
        onError: [
          {
            // A refused field is told beside that field, in the interface's words, not as the server's sentence.
            guard: ({ event }) => Object.keys(profileFieldErrors(event.error)).length > 0,
            target: 'editing',
            actions: assign(({ event }) => ({ fieldErrors: profileFieldErrors(event.error), success: null })),
          },
          {
            target: 'editing',
            actions: {
              type: 'fail',
              params: ({ event }) => ({ feedback: failureFeedback(event.error, 'can-not-update-profile') }),
            },
          },
        ],
      },
    },
  },
});
