import { assign, setup } from 'xstate';
import { placeholder } from './placeholder.ts';
import { ApiError, hasErrorCode, type PendingVerification } from './api.ts';
import {
  failureFeedback,
  failWith,
  PASSWORD_AND_PHONE_CHECKS,
  personOf,
  sanitisePhone,
  type Feedback,
  type FeedbackKey,
} from './feedback.ts';
import type { AuthTab } from './modal-search.ts';
import { machineTypes } from './machine-types.ts';
import { withField } from './form-fields.ts';

export type AuthView = AuthTab;

export type AuthModalInput = {
  tab?: AuthTab;
  resetToken?: string;
  verifyEmail?: string;
  verifyEmailCode?: string;
};

export type AuthFields = {
  email: string;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
  phone: string;
  newPassword: string;
  confirmNewPassword: string;
  emailCode: string;
  phoneCode: string;
};

export type AuthModalContext = {
  tab: AuthTab;
  fields: AuthFields;
  agreeNewsletter: boolean;
  showPassword: boolean;
  /** From the reset link; dropped once used or abandoned (docs/decisions.md, 'Accounts'). */
  resetToken: string | null;
  /** The verification link's parameters, kept in the URL while its Verify view is open. */
  verifyLink: { email: string; code: string } | null;
  /** The account e-mail the resend calls name. */
  verifyEmail: string;
  /** Which parts of the account still wait for their code. */
  pending: Record<Channel, boolean>;
  /** The part whose code is being checked or sent again. */
  channel: Channel;
  error: Feedback | null;
  success: Feedback | null;
};

export type AuthModalEvent =
  | { type: 'field.change'; field: keyof AuthFields; value: string }
  | { type: 'newsletter.change'; checked: boolean }
  | { type: 'password.toggle' }
  | { type: 'login.submit' }
  | { type: 'register.submit' }
  | { type: 'forgot.submit' }
  | { type: 'reset.submit' }
  | { type: 'code.verify'; channel: Channel }
  | { type: 'code.resend'; channel: Channel }
  | { type: 'view.login' }
  | { type: 'view.register' }
  | { type: 'view.forgotPassword' }
  | { type: 'cancel' }
  | { type: 'close' };

export type RegisterInput = {
  email: string;
  first_name: string;
  last_name: string;
  phone_number: string;
  password: string;
  confirm_password: string;
  agree_newsletter: boolean;
};

/** A part of the account verified by a code of its own: the e-mail address or the phone number. */
export type Channel = PendingVerification;

export type ConfirmCodeInput = { channel: Channel; code: string };
export type ResendCodeInput = { channel: Channel; email: string };

const CODE_FIELD = { email: 'emailCode', phone: 'phoneCode' } as const satisfies Record<
  Channel,
  keyof AuthFields
>;
const OTHER: Record<Channel, Channel> = { email: 'phone', phone: 'email' };

/** What each part's verification says, by outcome. */
const CHANNEL_FEEDBACK: Record<
  Channel,
  Record<'verified' | 'verifiedNowOther' | 'verifyFailed' | 'resent' | 'resendFailed', FeedbackKey>
> = {
  email: {
    verified: 'email-verified-successfully',
    verifiedNowOther: 'email-verification-success-now-phone',
    verifyFailed: 'email-verification-failed',
    resent: 'email-verification-reset-successfully',
    resendFailed: 'failed-to-reset-email-verification',
  },
  phone: {
    verified: 'phone-verified-successfully',
    verifiedNowOther: 'phone-verification-success-now-email',
    verifyFailed: 'phone-verification-failed',
    resent: 'phone-verification-reset-successfully',
    resendFailed: 'failed-to-reset-phone-verification',
  },
};

const blankFields: AuthFields = {
  email: '',
  password: '',
  confirmPassword: '',
  firstName: '',
  lastName: '',
  phone: '',
  newPassword: '',
  confirmNewPassword: '',
  emailCode: '',
  phoneCode: '',
};

const filled = (value: string) => value.trim() !== '';

/**
 * The auth modal (docs/decisions.md, 'Client'): Login, Register, Forgot password,
 * Reset password and Verify, one view at a time. Client-side checks fail without a call. A successful login
 * hands the token to the session (`logIn`) and ends in `authenticated`; dismissing ends in `closed`.
 */
/** Cancelling the forgot-password, reset or verify view: back to the login, its messages and links dropped. */
const BACK_TO_LOGIN = { target: 'login', actions: ['clearFeedback', 'forgetLinks'] } as const;

/** A view's call that failed: back to its form (`idle`), saying the server's words, else `fallback`. */
function failedBackToForm(fallback: FeedbackKey | ((channel: Channel) => FeedbackKey)) {
  return {
    target: 'idle',
    actions: {
      type: 'failCall',
      params: ({ context }: { context: AuthModalContext }) => ({
        fallback: typeof fallback === 'function' ? fallback(context.channel) : fallback,
      }),
    },
  } as const;
}

export const authModalMachine = setup({
  types: machineTypes<AuthModalContext, AuthModalEvent, AuthModalInput>(),
  actors: {
    validateSession: placeholder<boolean>('validateSession'),
    login: placeholder<string, { email: string; password: string }>('login'),
    register: placeholder<string, RegisterInput>('register'),
    forgotPassword: placeholder<void, { email: string }>('forgotPassword'),
    resetPassword: placeholder<void, { token: string; password: string }>('resetPassword'),
    confirmCode: placeholder<void, ConfirmCodeInput>('confirmCode'),
    resendCode: placeholder<void, ResendCodeInput>('resendCode'),
  },
  guards: {
    hasLinkParameters: ({ context }) => context.resetToken !== null || context.verifyLink !== null,
    isValid: (_, params: { valid: boolean }) => params.valid,
    opensReset: ({ context }) => context.resetToken !== null,
    opensVerify: ({ context }) => context.verifyLink !== null || context.tab === 'verify',
    opensRegister: ({ context }) => context.tab === 'register',
    opensForgot: ({ context }) => context.tab === 'forgotPassword' || context.tab === 'resetPassword',
    canLogIn: ({ context }) => filled(context.fields.email) && context.fields.password !== '',
    registrationFilled: ({ context }) => {
      const { email, firstName, lastName, phone, password, confirmPassword } = context.fields;
      return [email, firstName, lastName, phone].every(filled) && password !== '' && confirmPassword !== '';
    },
    passwordsDiffer: ({ context }) => context.fields.password !== context.fields.confirmPassword,
    phoneInvalid: ({ context }) => sanitisePhone(context.fields.phone) === null,
    hasEmail: ({ context }) => filled(context.fields.email),
    resetFilled: ({ context }) =>
      context.fields.newPassword !== '' && context.fields.confirmNewPassword !== '',
    newPasswordsDiffer: ({ context }) => context.fields.newPassword !== context.fields.confirmNewPassword,
    hasCode: ({ context }, params: { channel: Channel }) =>
      filled(context.fields[CODE_FIELD[params.channel]]),
    hasResendEmail: ({ context }) => filled(context.verifyEmail || context.fields.email),
    // A refused login names the verifications still pending (docs/decisions.md, 'Accounts': login).
    needsConfirmation: (_, params: { error: unknown }) =>
      hasErrorCode(params.error, 'account_not_verified') && params.error.pending.length > 0,
    otherStillPending: ({ context }) => context.pending[OTHER[context.channel]],
  },
  actions: {
    // Provided by the app: the session stores the token and validates it (docs/decisions.md, 'Accounts').
    logIn: (_, _params: { token: string }) => {},
    clearFeedback: assign({ error: null, success: null }),
    fail: assign((_, params: { feedback: Feedback }) => ({ error: params.feedback, success: null })),
    succeed: assign((_, params: { feedback: Feedback }) => ({ success: params.feedback, error: null })),
    // A call that failed: the server's words, else the flow's own message for it.
    failCall: assign(({ event }, params: { fallback: FeedbackKey }) => ({
      error: failureFeedback((event as { error?: unknown }).error, params.fallback),
      success: null,
    })),
    forgetLinks: assign({ resetToken: null, verifyLink: null }),
    choose: assign((_, params: { channel: Channel }) => ({ channel: params.channel })),
    // The verification link carries the e-mail code: it no longer applies once the e-mail is verified.
    markVerified: assign(({ context }) => ({
      pending: { ...context.pending, [context.channel]: false },
      fields: { ...context.fields, [CODE_FIELD[context.channel]]: '' },
      verifyLink: context.channel === 'email' ? null : context.verifyLink,
    })),
  },
}).createMachine({
  id: 'authModal',
  context: ({ input }) => ({
    tab: input.tab ?? 'login',
    fields: {
      ...blankFields,
      email: input.verifyEmail ?? '',
      emailCode: input.verifyEmail ? (input.verifyEmailCode ?? '') : '',
    },
    agreeNewsletter: true,
    showPassword: false,
    resetToken: input.resetToken ?? null,
    verifyLink: input.verifyEmail ? { email: input.verifyEmail, code: input.verifyEmailCode ?? '' } : null,
    verifyEmail: input.verifyEmail ?? '',
    // Opened from a link or by URL, the client cannot know which part is still pending: both are shown.
    pending: { email: true, phone: true },
    channel: 'email',
    error: null,
    success: null,
  }),
  initial: 'starting',
  on: {
    'field.change': {
      actions: assign({ fields: ({ context, event }) => withField(context.fields, event) }),
    },
    'newsletter.change': { actions: assign({ agreeNewsletter: ({ event }) => event.checked }) },
    'password.toggle': { actions: assign({ showPassword: ({ context }) => !context.showPassword }) },
    close: { target: '.closed' },
  },
  states: {
    starting: {
      always: [{ guard: 'hasLinkParameters', target: 'opening' }, { target: 'checkingSession' }],
    },
    // docs/decisions.md, 'Client': opened with none of the link parameters, the modal validates the current token first.
    checkingSession: {
      invoke: {
        id: 'validateSession',
        src: 'validateSession',
        onDone: [
          {
            guard: { type: 'isValid', params: ({ event }) => ({ valid: event.output }) },
            target: 'authenticated',
          },
          { target: 'opening' },
        ],
        onError: { target: 'opening' },
      },
    },
    opening: {
      always: [
        { guard: 'opensReset', target: 'resetPassword' },
        { guard: 'opensVerify', target: 'verify' },
        { guard: 'opensRegister', target: 'register' },
        // A reset view without its token has nothing to reset: the user asks for a new link.
        { guard: 'opensForgot', target: 'forgotPassword' },
        { target: 'login' },
      ],
    },
    login: {
      initial: 'idle',
      on: {
        'view.register': { target: 'register', actions: ['clearFeedback', 'forgetLinks'] },
        'view.forgotPassword': { target: 'forgotPassword', actions: ['clearFeedback', 'forgetLinks'] },
      },
      states: {
        idle: {
          on: {
            'login.submit': { guard: 'canLogIn', target: 'submitting', actions: 'clearFeedback' },
          },
        },
        submitting: {
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ context }) => ({
              email: context.fields.email.trim(),
              password: context.fields.password,
            }),
            onDone: {
              target: '#authModal.authenticated',
              actions: { type: 'logIn', params: ({ event }) => ({ token: event.output }) },
            },
            onError: [
              {
                guard: { type: 'needsConfirmation', params: ({ event }) => ({ error: event.error }) },
                target: '#authModal.verify',
                actions: [
                  assign(({ context, event }) => {
                    const pending = event.error instanceof ApiError ? event.error.pending : [];
                    return {
                      pending: { email: pending.includes('email'), phone: pending.includes('phone') },
                      verifyEmail: context.fields.email.trim(),
                      fields: { ...context.fields, password: '', emailCode: '', phoneCode: '' },
                    };
                  }),
                  { type: 'failCall', params: { fallback: 'error-during-login' } },
                ],
              },
              failedBackToForm('error-during-login'),
            ],
          },
        },
      },
    },
    register: {
      initial: 'idle',
      on: {
        'view.login': { target: 'login', actions: ['clearFeedback', 'forgetLinks'] },
      },
      states: {
        idle: {
          on: {
            'register.submit': [
              ...PASSWORD_AND_PHONE_CHECKS,
              { guard: 'registrationFilled', target: 'submitting', actions: 'clearFeedback' },
            ],
          },
        },
        submitting: {
          invoke: {
            id: 'register',
            src: 'register',
            input: ({ context }) => ({
              ...personOf(context.fields),
              password: context.fields.password,
              confirm_password: context.fields.confirmPassword,
              agree_newsletter: context.agreeNewsletter,
            }),
            onDone: {
              target: '#authModal.verify',
              actions: [
                assign(({ context }) => ({
                  pending: { email: true, phone: true },
                  verifyEmail: context.fields.email.trim(),
                  fields: {
                    ...context.fields,
                    password: '',
                    confirmPassword: '',
                    emailCode: '',
                    phoneCode: '',
                  },
                })),
                { type: 'succeed', params: ({ event }) => ({ feedback: { text: event.output } }) },
              ],
            },
            onError: failedBackToForm('registration-failed'),
          },
        },
      },
    },
    forgotPassword: {
      initial: 'idle',
      on: { cancel: BACK_TO_LOGIN },
      states: {
        idle: {
          on: { 'forgot.submit': { guard: 'hasEmail', target: 'requesting', actions: 'clearFeedback' } },
        },
        requesting: {
          invoke: {
            id: 'forgotPassword',
            src: 'forgotPassword',
            input: ({ context }) => ({ email: context.fields.email.trim() }),
            onDone: {
              target: '#authModal.login',
              actions: {
                type: 'succeed',
                params: { feedback: { key: 'if-account-exists-reset-link-will-be-sent' } },
              },
            },
            onError: failedBackToForm('failed-to-request-password-reset'),
          },
        },
      },
    },
    resetPassword: {
      initial: 'idle',
      on: { cancel: BACK_TO_LOGIN },
      states: {
        idle: {
          on: {
            'reset.submit': [
              { guard: 'newPasswordsDiffer', actions: failWith('passwords-do-not-match') },
              { guard: 'resetFilled', target: 'resetting', actions: 'clearFeedback' },
            ],
          },
        },
        resetting: {
          invoke: {
            id: 'resetPassword',
            src: 'resetPassword',
            input: ({ context }) => ({
              token: context.resetToken ?? '',
              password: context.fields.newPassword,
            }),
            onDone: {
              target: '#authModal.login',
              actions: [
                'forgetLinks',
                assign(({ context }) => ({
                  fields: { ...context.fields, newPassword: '', confirmNewPassword: '', password: '' },
                })),
                { type: 'succeed', params: { feedback: { key: 'password-has-been-reset-successfully' } } },
              ],
            },
            onError: failedBackToForm('failed-to-reset-password'),
          },
        },
      },
    },
    verify: {
      initial: 'idle',
      on: { cancel: BACK_TO_LOGIN },
      states: {
        idle: {
          on: {
            'code.verify': {
              guard: { type: 'hasCode', params: ({ event }) => ({ channel: event.channel }) },
              target: 'verifying',
              actions: [
                'clearFeedback',
                { type: 'choose', params: ({ event }) => ({ channel: event.channel }) },
              ],
            },
            'code.resend': {
              guard: 'hasResendEmail',
              target: 'resending',
              actions: [
                'clearFeedback',
                { type: 'choose', params: ({ event }) => ({ channel: event.channel }) },
              ],
            },
          },
        },
        verifying: {
          invoke: {
            id: 'confirmCode',
            src: 'confirmCode',
            input: ({ context }) => ({
              channel: context.channel,
              code: context.fields[CODE_FIELD[context.channel]].trim(),
            }),
            onDone: [
              {
                guard: 'otherStillPending',
                target: 'idle',
                actions: [
                  'markVerified',
                  {
                    type: 'succeed',
                    params: ({ context }) => ({
                      feedback: { key: CHANNEL_FEEDBACK[context.channel].verifiedNowOther },
                    }),
                  },
                ],
              },
              {
                target: '#authModal.login',
                actions: [
                  'markVerified',
                  'forgetLinks',
                  {
                    type: 'succeed',
                    params: ({ context }) => ({
                      feedback: { key: CHANNEL_FEEDBACK[context.channel].verified },
                    }),
                  },
                ],
              },
            ],
            onError: failedBackToForm((channel) => CHANNEL_FEEDBACK[channel].verifyFailed),
          },
        },
        resending: {
          invoke: {
            id: 'resendCode',
            src: 'resendCode',
            input: ({ context }) => ({
              channel: context.channel,
              email: (context.verifyEmail || context.fields.email).trim(),
            }),
            onDone: {
              target: 'idle',
              actions: {
                type: 'succeed',
                params: ({ context }) => ({ feedback: { key: CHANNEL_FEEDBACK[context.channel].resent } }),
              },
            },
            onError: failedBackToForm((channel) => CHANNEL_FEEDBACK[channel].resendFailed),
          },
        },
      },
    },
    authenticated: { type: 'final' },
    closed: { type: 'final' },
  },
});

const VIEWS: readonly AuthView[] = ['login', 'register', 'forgotPassword', 'resetPassword', 'verify'];

/** The view on screen, or null while the token is checked or once the modal is done. */
export function currentView(state: { matches: (value: AuthView) => boolean }): AuthView | null {
  return VIEWS.find((view) => state.matches(view)) ?? null;
}
