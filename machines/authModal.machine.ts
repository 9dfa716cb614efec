import { assign, fromPromise, setup } from 'xstate';
import { ApiError, hasErrorCode } from './api.ts';
import { failureFeedback, sanitisePhone, type Feedback } from './feedback.ts';
import type { AuthTab } from './modal-search.ts';

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
  /** From the reset link; dropped once used or abandoned (spec 4: success clears reset_token). */
  resetToken: string | null;
  /** The verification link's parameters, kept in the URL while its Verify view is open. */
  verifyLink: { email: string; code: string } | null;
  /** The account e-mail the resend calls name. */
  verifyEmail: string;
  emailPending: boolean;
  phonePending: boolean;
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
  | { type: 'email.verify' }
  | { type: 'phone.verify' }
  | { type: 'email.resend' }
  | { type: 'phone.resend' }
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

function notProvided(name: string): never {
  throw new Error(`the auth modal machine's ${name} actor must be provided`);
}

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
 * The auth modal (spec 2.6, 4 Authentication and Verification, 5, 8): Login, Register, Forgot password,
 * Reset password and Verify, one view at a time. Client-side checks fail without a call. A successful login
 * hands the token to the session (`logIn`) and ends in `authenticated`; dismissing ends in `closed`.
 */
export const authModalMachine = setup({
  types: {
    context: {} as AuthModalContext,
    events: {} as AuthModalEvent,
    input: {} as AuthModalInput,
  },
  actors: {
    validateSession: fromPromise<boolean>(async () => notProvided('validateSession')),
    login: fromPromise<string, { email: string; password: string }>(async () => notProvided('login')),
    register: fromPromise<string, RegisterInput>(async () => notProvided('register')),
    forgotPassword: fromPromise<void, { email: string }>(async () => notProvided('forgotPassword')),
    resetPassword: fromPromise<void, { token: string; password: string }>(async () =>
      notProvided('resetPassword'),
    ),
    confirmEmail: fromPromise<void, { code: string }>(async () => notProvided('confirmEmail')),
    confirmPhone: fromPromise<void, { code: string }>(async () => notProvided('confirmPhone')),
    resendEmail: fromPromise<void, { email: string }>(async () => notProvided('resendEmail')),
    resendPhone: fromPromise<void, { email: string }>(async () => notProvided('resendPhone')),
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
    hasEmailCode: ({ context }) => filled(context.fields.emailCode),
    hasPhoneCode: ({ context }) => filled(context.fields.phoneCode),
    hasResendEmail: ({ context }) => filled(context.verifyEmail || context.fields.email),
    // A refused login names the verifications still pending (docs/decisions.md, 'Accounts': login).
    needsConfirmation: (_, params: { error: unknown }) =>
      hasErrorCode(params.error, 'account_not_verified') && params.error.pending.length > 0,
    phoneStillPending: ({ context }) => context.phonePending,
    emailStillPending: ({ context }) => context.emailPending,
  },
  actions: {
    // Provided by the app: the session stores the token and validates it (spec 4, login success).
    logIn: (_, _params: { token: string }) => {},
    clearFeedback: assign({ error: null, success: null }),
    fail: assign((_, params: { feedback: Feedback }) => ({ error: params.feedback, success: null })),
    succeed: assign((_, params: { feedback: Feedback }) => ({ success: params.feedback, error: null })),
    forgetLinks: assign({ resetToken: null, verifyLink: null }),
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
    emailPending: true,
    phonePending: true,
    error: null,
    success: null,
  }),
  initial: 'starting',
  on: {
    'field.change': {
      actions: assign(({ context, event }) => ({
        fields: { ...context.fields, [event.field]: event.value },
      })),
    },
    'newsletter.change': { actions: assign({ agreeNewsletter: ({ event }) => event.checked }) },
    'password.toggle': { actions: assign({ showPassword: ({ context }) => !context.showPassword }) },
    close: { target: '.closed' },
  },
  states: {
    starting: {
      always: [{ guard: 'hasLinkParameters', target: 'opening' }, { target: 'checkingSession' }],
    },
    // Spec 2.6: opened with none of the link parameters, the modal validates the current token first.
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
                      emailPending: pending.includes('email'),
                      phonePending: pending.includes('phone'),
                      verifyEmail: context.fields.email.trim(),
                      fields: { ...context.fields, password: '', emailCode: '', phoneCode: '' },
                    };
                  }),
                  {
                    type: 'fail',
                    params: ({ event }) => ({
                      feedback: failureFeedback(event.error, 'error-during-login'),
                    }),
                  },
                ],
              },
              {
                target: 'idle',
                actions: {
                  type: 'fail',
                  params: ({ event }) => ({
                    feedback: failureFeedback(event.error, 'error-during-login'),
                  }),
                },
              },
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
              {
                guard: 'passwordsDiffer',
                actions: { type: 'fail', params: { feedback: { key: 'passwords-do-not-match' } } },
              },
              {
                guard: 'phoneInvalid',
                actions: { type: 'fail', params: { feedback: { key: 'invalid-phone-number' } } },
              },
              { guard: 'registrationFilled', target: 'submitting', actions: 'clearFeedback' },
            ],
          },
        },
        submitting: {
          invoke: {
            id: 'register',
            src: 'register',
            input: ({ context }) => ({
              email: context.fields.email.trim(),
              first_name: context.fields.firstName.trim(),
              last_name: context.fields.lastName.trim(),
              // The sanitised number is the one sent (spec 5).
              phone_number: sanitisePhone(context.fields.phone) ?? '',
              password: context.fields.password,
              confirm_password: context.fields.confirmPassword,
              agree_newsletter: context.agreeNewsletter,
            }),
            onDone: {
              target: '#authModal.verify',
              actions: [
                assign(({ context }) => ({
                  emailPending: true,
                  phonePending: true,
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
            onError: {
              target: 'idle',
              actions: {
                type: 'fail',
                params: ({ event }) => ({ feedback: failureFeedback(event.error, 'registration-failed') }),
              },
            },
          },
        },
      },
    },
    forgotPassword: {
      initial: 'idle',
      on: {
        cancel: { target: 'login', actions: ['clearFeedback', 'forgetLinks'] },
      },
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
            onError: {
              target: 'idle',
              actions: {
                type: 'fail',
                params: ({ event }) => ({
                  feedback: failureFeedback(event.error, 'failed-to-request-password-reset'),
                }),
              },
            },
          },
        },
      },
    },
    resetPassword: {
      initial: 'idle',
      on: {
        cancel: { target: 'login', actions: ['clearFeedback', 'forgetLinks'] },
      },
      states: {
        idle: {
          on: {
            'reset.submit': [
              {
                guard: 'newPasswordsDiffer',
                actions: { type: 'fail', params: { feedback: { key: 'passwords-do-not-match' } } },
              },
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
            onError: {
              target: 'idle',
              actions: {
                type: 'fail',
                params: ({ event }) => ({
                  feedback: failureFeedback(event.error, 'failed-to-reset-password'),
                }),
              },
            },
          },
        },
      },
    },
    verify: {
      initial: 'idle',
      on: {
        cancel: { target: 'login', actions: ['clearFeedback', 'forgetLinks'] },
      },
      states: {
        idle: {
          on: {
            'email.verify': { guard: 'hasEmailCode', target: 'verifyingEmail', actions: 'clearFeedback' },
            'phone.verify': { guard: 'hasPhoneCode', target: 'verifyingPhone', actions: 'clearFeedback' },
            'email.resend': { guard: 'hasResendEmail', target: 'resendingEmail', actions: 'clearFeedback' },
            'phone.resend': { guard: 'hasResendEmail', target: 'resendingPhone', actions: 'clearFeedback' },
          },
        },
        verifyingEmail: {
          invoke: {
            id: 'confirmEmail',
            src: 'confirmEmail',
            input: ({ context }) => ({ code: context.fields.emailCode.trim() }),
            onDone: [
              {
                guard: 'phoneStillPending',
                target: 'idle',
                actions: [
                  assign(({ context }) => ({
                    emailPending: false,
                    verifyLink: null,
                    fields: { ...context.fields, emailCode: '' },
                  })),
                  { type: 'succeed', params: { feedback: { key: 'email-verification-success-now-phone' } } },
                ],
              },
              {
                target: '#authModal.login',
                actions: [
                  'forgetLinks',
                  assign({ emailPending: false }),
                  { type: 'succeed', params: { feedback: { key: 'email-verified-successfully' } } },
                ],
              },
            ],
            onError: {
              target: 'idle',
              actions: {
                type: 'fail',
                params: ({ event }) => ({
                  feedback: failureFeedback(event.error, 'email-verification-failed'),
                }),
              },
            },
          },
        },
        verifyingPhone: {
          invoke: {
            id: 'confirmPhone',
            src: 'confirmPhone',
            input: ({ context }) => ({ code: context.fields.phoneCode.trim() }),
            onDone: [
              {
                guard: 'emailStillPending',
                target: 'idle',
                actions: [
                  assign(({ context }) => ({
                    phonePending: false,
                    fields: { ...context.fields, phoneCode: '' },
                  })),
                  { type: 'succeed', params: { feedback: { key: 'phone-verification-success-now-email' } } },
                ],
              },
              {
                target: '#authModal.login',
                actions: [
                  'forgetLinks',
                  assign({ phonePending: false }),
                  { type: 'succeed', params: { feedback: { key: 'phone-verified-successfully' } } },
                ],
              },
            ],
            onError: {
              target: 'idle',
              actions: {
                type: 'fail',
                params: ({ event }) => ({
                  feedback: failureFeedback(event.error, 'phone-verification-failed'),
                }),
              },
            },
          },
        },
        resendingEmail: {
          invoke: {
            id: 'resendEmail',
            src: 'resendEmail',
            input: ({ context }) => ({ email: (context.verifyEmail || context.fields.email).trim() }),
            onDone: {
              target: 'idle',
              actions: {
                type: 'succeed',
                params: { feedback: { key: 'email-verification-reset-successfully' } },
              },
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'fail',
                params: ({ event }) => ({
                  feedback: failureFeedback(event.error, 'failed-to-reset-email-verification'),
                }),
              },
            },
          },
        },
        resendingPhone: {
          invoke: {
            id: 'resendPhone',
            src: 'resendPhone',
            input: ({ context }) => ({ email: (context.verifyEmail || context.fields.email).trim() }),
            onDone: {
              target: 'idle',
              actions: {
                type: 'succeed',
                params: { feedback: { key: 'phone-verification-reset-successfully' } },
              },
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'fail',
                params: ({ event }) => ({
                  feedback: failureFeedback(event.error, 'failed-to-reset-phone-verification'),
                }),
              },
            },
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
