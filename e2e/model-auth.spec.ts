import { expect, test, type Page, type Request } from '@playwright/test';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../machines/api.ts';
import { authModalMachine, type AuthFields, type Channel } from '../machines/authModal.machine.ts';
import type { Feedback, FeedbackKey } from '../machines/feedback.ts';
import { coverageOfPaths, generatePaths } from '../tests/machines/model/paths.ts';
import {
  DEMO_ACCOUNT,
  field,
  newPerson,
  registerByApi,
  resetLink,
  smsCode,
  waitForMessage,
  type Person,
} from './support/accounts.ts';
import { open } from './support/fixtures.ts';
import {
  covering,
  reportCoverage,
  runPath,
  titleOf,
  withoutPrefixes,
  type ModelDriver,
} from './support/model.ts';

type Event = EventFrom<typeof authModalMachine>;
type Snapshot = SnapshotFrom<typeof authModalMachine>;

// The model types placeholders; the driver types the real values of the path's world:
// - VERIFIED is the demo account; UNVERIFIED an account registered through the API for the path (it logs in
//   only after both codes); NEW an address nobody has, registered in the UI by the path.
// - RIGHT is the account's password, WRONG another; the codes are the newest ones the server sent the account.
// Left to the vitest model (the real server cannot be made to give them on demand): a session check that fails
// or finds a valid token (the modal would never show), every 5xx or network failure, a wrong e-mail code and
// refused resends (kept out: the server allows 10 registrations and 10 wrong codes per address and window, and
// each path here spends some) and a refused reset request. The reset-password view runs from a second input, a
// real reset link (below). The wrong phone code is 000000: that a live code has that value is a one-in-a-million
// draw.
const VERIFIED = 'verified@model.test';
const UNVERIFIED = 'unverified@model.test';
const NEW = 'new@model.test';
const RIGHT = '@right-password';
const WRONG = '@wrong-password';
const WRONG_PASSWORD = 'Nao-e-esta-2026!';
const PHONE = '+351900000000';
const CODE = '@code';
// The reset view's passwords: one the server takes, one it refuses as too common (it has 8 characters, so only
// the server's policy refuses it).
const STRONG = '@strong-password';
const COMMON = '@common-password';
const STRONG_PASSWORD = 'Nova-senha-forte-2026';
const COMMON_PASSWORD = 'password';
const WRONG_CODE = '000000';

const set = (field: keyof AuthFields, value: string) => ({ type: 'field.change', field, value }) as Event;

/** Whether the server would take the login: both contacts verified, before or along the path. */
function isVerified(state: Snapshot, email: string): boolean {
  return email === VERIFIED || (!state.context.pending.email && !state.context.pending.phone);
}

const REGISTRATION: [keyof AuthFields, string[]][] = [
  ['email', [NEW, VERIFIED]],
  ['firstName', ['Rita']],
  ['lastName', ['Lopes']],
  ['phone', [PHONE]],
  ['password', [RIGHT]],
  ['confirmPassword', [RIGHT, WRONG]],
];

// What the user can do in each state, in the order a person fills a form (so the graph stays small), and the
// answer the arranged server gives to each call.
function events(state: Snapshot): Event[] {
  const { fields, pending, success } = state.context;
  if (state.matches('checkingSession'))
    return [{ type: 'xstate.done.actor.validateSession', output: false }] as unknown as Event[];
  if (state.matches({ login: 'idle' })) {
    if (fields.email === '')
      return [
        set('email', VERIFIED),
        set('email', UNVERIFIED),
        { type: 'view.register' },
        { type: 'view.forgotPassword' },
        { type: 'close' },
      ];
    if (fields.password === '') return [set('password', RIGHT), set('password', WRONG)];
    return [{ type: 'login.submit' }];
  }
  if (state.matches({ login: 'submitting' })) {
    if (fields.password !== RIGHT)
      return [
        {
          type: 'xstate.error.actor.login',
          error: new ApiError('invalid_credentials', 'E-mail ou palavra-passe incorretos.'),
        },
      ] as unknown as Event[];
    if (isVerified(state, fields.email))
      return [{ type: 'xstate.done.actor.login', output: 'token' }] as unknown as Event[];
    return [
      {
        type: 'xstate.error.actor.login',
        error: new ApiError('account_not_verified', 'Conta por verificar.', { pending: ['email', 'phone'] }),
      },
    ] as unknown as Event[];
  }
  if (state.matches({ register: 'idle' })) {
    const next = REGISTRATION.find(([name]) => fields[name] === '');
    if (next) {
      const offered = next[1].map((value) => set(next[0], value));
      return fields.email === '' ? [...offered, { type: 'view.login' }, { type: 'close' }] : offered;
    }
    return fields.confirmPassword === RIGHT
      ? [{ type: 'register.submit' }]
      : [{ type: 'register.submit' }, set('confirmPassword', RIGHT)];
  }
  if (state.matches({ register: 'submitting' }))
    return [
      fields.email === NEW
        ? { type: 'xstate.done.actor.register', output: 'Conta criada.' }
        : {
            type: 'xstate.error.actor.register',
            error: new ApiError('email_in_use', 'Já existe uma conta com este e-mail.'),
          },
    ] as unknown as Event[];
  if (state.matches({ verify: 'verifying' }))
    return [
      fields[state.context.channel === 'email' ? 'emailCode' : 'phoneCode'] === CODE
        ? { type: 'xstate.done.actor.confirmCode' }
        : {
            type: 'xstate.error.actor.confirmCode',
            error: new ApiError('invalid_verification_code', 'Este código é inválido.'),
          },
    ] as unknown as Event[];
  if (state.matches({ verify: 'resending' }))
    return [{ type: 'xstate.done.actor.resendCode' }] as unknown as Event[];
  if (state.matches({ forgotPassword: 'idle' }))
    return fields.email === '' ? [set('email', VERIFIED), { type: 'cancel' }] : [{ type: 'forgot.submit' }];
  if (state.matches({ forgotPassword: 'requesting' }))
    return [{ type: 'xstate.done.actor.forgotPassword' }] as unknown as Event[];
  if (state.matches({ verify: 'idle' })) {
    const entry = pending.email && pending.phone && success === null && fields.phoneCode === '';
    const offered: Event[] = entry
      ? [
          { type: 'code.resend', channel: 'email' },
          { type: 'code.resend', channel: 'phone' },
          { type: 'cancel' },
        ]
      : [];
    if (pending.phone)
      offered.push(
        ...(fields.phoneCode === ''
          ? [set('phoneCode', CODE), set('phoneCode', WRONG_CODE)]
          : [{ type: 'code.verify', channel: 'phone' } as const]),
      );
    else if (pending.email)
      offered.push(
        fields.emailCode === '' ? set('emailCode', CODE) : { type: 'code.verify', channel: 'email' },
      );
    return offered;
  }
  return [];
}

const callingFor = (state: Snapshot) =>
  state.matches({ verify: 'verifying' }) || state.matches({ verify: 'resending' })
    ? state.context.channel
    : null;

const allPaths = withoutPrefixes(
  generatePaths(authModalMachine, {
    events,
    input: { tab: 'login' },
    maxStatesForSimplePaths: 0,
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.fields,
        state.context.pending,
        // The part being checked or sent again decides the answer; at rest it decides nothing.
        callingFor(state),
        state.context.verifyEmail,
        state.context.error,
        state.context.success,
      ]),
  }),
);
const SCRIPTED = ['validateSession', 'login', 'register', 'forgotPassword', 'confirmCode', 'resendCode'];
const paths = await covering(authModalMachine, allPaths, { scripted: SCRIPTED, input: { tab: 'login' } });

type Data = {
  unverified: Person | null;
  fresh: Person;
  /** The codes typed so far, by placeholder field. */
  typed: Partial<Record<keyof AuthFields, string>>;
};

function accountOf(data: Data, email: string): { email: string; password: string; phone?: string } {
  if (email === VERIFIED) return DEMO_ACCOUNT;
  if (email === UNVERIFIED && data.unverified) return data.unverified;
  return data.fresh;
}

/** The text the user sees for a field holding a placeholder. */
function real(data: Data, state: Snapshot, name: keyof AuthFields): string {
  const value = state.context.fields[name];
  if (value === '') return '';
  if (name === 'email') return accountOf(data, value).email;
  if (name === 'phone') return data.fresh.phone;
  if (value === STRONG) return STRONG_PASSWORD;
  if (value === COMMON) return COMMON_PASSWORD;
  if (value === RIGHT) return accountOf(data, state.context.fields.email).password;
  if (value === WRONG) return WRONG_PASSWORD;
  if (value === CODE) return data.typed[name] ?? '';
  return value;
}

const FEEDBACK: Partial<Record<FeedbackKey, string>> = {
  'passwords-do-not-match': 'As palavras-passe não coincidem',
  'if-account-exists-reset-link-will-be-sent':
    'Se existir uma conta com este e-mail, será enviada uma ligação de redefinição.',
  'email-verified-successfully': 'E-mail verificado com sucesso. Inicie sessão.',
  'phone-verified-successfully': 'Telefone verificado com sucesso. Inicie sessão.',
  'email-verification-success-now-phone':
    'E-mail verificado com sucesso. Verifique agora o seu número de telefone.',
  'phone-verification-success-now-email': 'Telefone verificado com sucesso. Verifique agora o seu e-mail.',
  'email-verification-reset-successfully': 'Enviámos um novo código de verificação do e-mail.',
  'phone-verification-reset-successfully': 'Enviámos um novo código de verificação do telefone.',
  'password-has-been-reset-successfully': 'A palavra-passe foi redefinida. Inicie sessão.',
};

async function expectFeedback(
  dialog: ReturnType<Page['getByRole']>,
  role: 'alert' | 'status',
  feedback: Feedback | null,
) {
  const box = dialog.getByRole(role);
  if (feedback === null) return expect(box).toHaveCount(0);
  if ('key' in feedback) {
    const text = FEEDBACK[feedback.key];
    if (!text) throw new Error(`no Portuguese text for the feedback ${feedback.key}`);
    return expect(box).toHaveText(text);
  }
  // The server's own sentence: shown, without the login's '::' codes.
  await expect(box).toHaveText(/\S/);
  await expect(box).not.toContainText('::');
}

function modal(page: Page, title: string) {
  return page.getByRole('dialog', { name: title });
}

async function expectView(
  page: Page,
  title: string,
  state: Snapshot,
  data: Data,
  fields: [keyof AuthFields, string][],
) {
  const dialog = modal(page, title);
  await expect(dialog).toBeVisible();
  for (const [name, label] of fields) await expect(field(dialog, label)).toHaveValue(real(data, state, name));
  await expectFeedback(dialog, 'alert', state.context.error);
  await expectFeedback(dialog, 'status', state.context.success);
  return dialog;
}

async function expectBusy(page: Page, title: string, button: string) {
  await expect(modal(page, title).getByRole('button', { name: button, exact: true })).toHaveAttribute(
    'data-loading',
    'true',
  );
}

const LABELS: Record<string, string> = {
  newPassword: 'Nova palavra-passe',
  confirmNewPassword: 'Confirmar a nova palavra-passe',
  email: 'E-mail',
  password: 'Palavra-passe',
  confirmPassword: 'Confirmar a palavra-passe',
  firstName: 'Nome próprio',
  lastName: 'Apelido',
  phone: 'Número de telefone',
  emailCode: 'Código de verificação do e-mail',
  phoneCode: 'Código de verificação do telefone',
};

const VERIFY_BUTTON: Record<Channel, string> = { email: 'Verificar e-mail', phone: 'Verificar telefone' };
const RESEND_BUTTON: Record<Channel, string> = {
  email: 'Reenviar o código do e-mail',
  phone: 'Reenviar o código do telefone',
};

const pathOf = (request: Request) => new URL(request.url()).pathname;

const driver: ModelDriver<typeof authModalMachine, Data> = {
  machine: authModalMachine,
  input: { tab: 'login' },
  calls: {
    login: (request) => pathOf(request) === '/api/auth/login',
    register: (request) => pathOf(request) === '/api/auth/register',
    forgotPassword: (request) => pathOf(request) === '/api/auth/forgot-password',
    confirmCode: (request) => /^\/api\/auth\/confirm-(email|phone-number)\//.test(pathOf(request)),
    resendCode: (request) => /^\/api\/auth\/resend-(email|phone)-verification$/.test(pathOf(request)),
  },
  async setup({ page, request }, path) {
    const usesUnverified = path.steps.some((step) => (step.event as { value?: string }).value === UNVERIFIED);
    const unverified = usesUnverified ? newPerson('modelo-por-verificar') : null;
    if (unverified) await registerByApi(request, unverified);
    await open(page, '/pt?auth_tab=login');
    return { unverified, fresh: newPerson('modelo-novo'), typed: {} };
  },
  act: {
    async 'field.change'({ page, request, data, before }, event) {
      const change = event as Extract<Event, { type: 'field.change' }>;
      let value = change.value;
      if (change.value === CODE) {
        // The newest code the account was sent (a resend retires the one before).
        const verifying = data.unverified ?? data.fresh;
        value =
          change.field === 'phoneCode'
            ? await smsCode(request, verifying.phone)
            : ((await waitForMessage(request, verifying.email, /verify_email_code=(\d+)/))[1] ?? '');
        data.typed[change.field] = value;
      } else if (change.field === 'email') value = accountOf(data, change.value).email;
      else if (change.field === 'phone') value = data.fresh.phone;
      else if (change.value === STRONG) value = STRONG_PASSWORD;
      else if (change.value === COMMON) value = COMMON_PASSWORD;
      else if (change.value === RIGHT) value = accountOf(data, before.context.fields.email).password;
      else if (change.value === WRONG) value = WRONG_PASSWORD;
      await field(page.getByRole('dialog'), LABELS[change.field]!).fill(value);
    },
    'login.submit': ({ page }) =>
      modal(page, 'Iniciar sessão').getByRole('button', { name: 'Entrar', exact: true }).click(),
    'register.submit': ({ page }) =>
      modal(page, 'Criar uma conta').getByRole('button', { name: 'Registar' }).click(),
    'reset.submit': ({ page }) =>
      modal(page, 'Redefinir a palavra-passe')
        .getByRole('button', { name: 'Guardar a nova palavra-passe' })
        .click(),
    'forgot.submit': ({ page }) =>
      modal(page, 'Recuperar a palavra-passe').getByRole('button', { name: 'Pedir a redefinição' }).click(),
    'code.verify': ({ page }, event) =>
      modal(page, 'Verificar a conta')
        .getByRole('button', {
          name: VERIFY_BUTTON[(event as Extract<Event, { type: 'code.verify' }>).channel],
        })
        .click(),
    'code.resend': ({ page }, event) =>
      modal(page, 'Verificar a conta')
        .getByRole('button', {
          name: RESEND_BUTTON[(event as Extract<Event, { type: 'code.resend' }>).channel],
        })
        .click(),
    'view.register': ({ page }) =>
      modal(page, 'Iniciar sessão').getByRole('button', { name: 'Criar conta' }).click(),
    'view.login': ({ page }) =>
      modal(page, 'Criar uma conta').getByRole('button', { name: 'Já tem conta?' }).click(),
    'view.forgotPassword': ({ page }) =>
      modal(page, 'Iniciar sessão').getByRole('button', { name: 'Esqueceu-se da palavra-passe?' }).click(),
    cancel: ({ page }) =>
      page.getByRole('dialog').getByRole('button', { name: 'Cancelar', exact: true }).click(),
    close: ({ page }) => page.keyboard.press('Escape'),
  },
  states: [
    {
      name: 'the app has started; the modal checks the session before it opens',
      matches: (state) => state.matches('checkingSession'),
      expect: ({ page }) => expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1),
    },
    {
      name: 'the Login view with what was typed and its feedback',
      matches: (state) => state.matches({ login: 'idle' }),
      async expect({ page, data }, state) {
        const dialog = await expectView(page, 'Iniciar sessão', state, data, [
          ['email', 'E-mail'],
          ['password', 'Palavra-passe'],
        ]);
        await expect(dialog.getByRole('button', { name: 'Entrar', exact: true })).not.toHaveAttribute(
          'data-loading',
        );
        await expect(page).toHaveURL(/auth_tab=login/);
      },
    },
    {
      name: 'Login is busy',
      matches: (state) => state.matches({ login: 'submitting' }),
      expect: ({ page }) => expectBusy(page, 'Iniciar sessão', 'Entrar'),
    },
    {
      name: 'the Register view with what was typed and its feedback',
      matches: (state) => state.matches({ register: 'idle' }),
      async expect({ page, data }, state) {
        await expectView(page, 'Criar uma conta', state, data, [
          ['email', 'E-mail'],
          ['firstName', 'Nome próprio'],
          ['lastName', 'Apelido'],
          ['phone', 'Número de telefone'],
          ['password', 'Palavra-passe'],
          ['confirmPassword', 'Confirmar a palavra-passe'],
        ]);
        await expect(page).toHaveURL(/auth_tab=register/);
      },
    },
    {
      name: 'Register is busy',
      matches: (state) => state.matches({ register: 'submitting' }),
      expect: ({ page }) => expectBusy(page, 'Criar uma conta', 'Registar'),
    },
    {
      name: 'the Forgot password view',
      matches: (state) => state.matches({ forgotPassword: 'idle' }),
      async expect({ page, data }, state) {
        await expectView(page, 'Recuperar a palavra-passe', state, data, [['email', 'E-mail']]);
        await expect(page).toHaveURL(/auth_tab=forgotPassword/);
      },
    },
    {
      name: 'Forgot password is busy',
      matches: (state) => state.matches({ forgotPassword: 'requesting' }),
      expect: ({ page }) => expectBusy(page, 'Recuperar a palavra-passe', 'Pedir a redefinição'),
    },
    {
      name: 'the Reset password view with what was typed and its feedback',
      matches: (state) => state.matches({ resetPassword: 'idle' }),
      async expect({ page, data }, state) {
        await expectView(page, 'Redefinir a palavra-passe', state, data, [
          ['newPassword', 'Nova palavra-passe'],
          ['confirmNewPassword', 'Confirmar a nova palavra-passe'],
        ]);
        await expect(page).toHaveURL(/reset_token=/);
      },
    },
    {
      name: 'Reset password is busy',
      matches: (state) => state.matches({ resetPassword: 'resetting' }),
      expect: ({ page }) => expectBusy(page, 'Redefinir a palavra-passe', 'Guardar a nova palavra-passe'),
    },
    {
      name: 'the Verify view with the codes still pending',
      matches: (state) => state.matches({ verify: 'idle' }),
      async expect({ page, data }, state) {
        const pending: [keyof AuthFields, string][] = [];
        if (state.context.pending.email) pending.push(['emailCode', LABELS.emailCode!]);
        if (state.context.pending.phone) pending.push(['phoneCode', LABELS.phoneCode!]);
        const dialog = await expectView(page, 'Verificar a conta', state, data, pending);
        if (!state.context.pending.email) await expect(field(dialog, LABELS.emailCode!)).toHaveCount(0);
        if (!state.context.pending.phone) await expect(field(dialog, LABELS.phoneCode!)).toHaveCount(0);
        await expect(page).toHaveURL(/auth_tab=verify/);
      },
    },
    {
      name: 'Verify is busy checking the code of the part it checks (e-mail or phone)',
      matches: (state) => state.matches({ verify: 'verifying' }),
      expect: ({ page }, state) =>
        expectBusy(page, 'Verificar a conta', VERIFY_BUTTON[state.context.channel]),
    },
    {
      name: 'Verify is busy sending a new code: no code can be checked meanwhile',
      matches: (state) => state.matches({ verify: 'resending' }),
      async expect({ page }) {
        const dialog = modal(page, 'Verificar a conta');
        await expect(dialog.getByRole('button', { name: 'Verificar e-mail' })).toBeDisabled();
        await expect(dialog.getByRole('button', { name: 'Verificar telefone' })).toBeDisabled();
      },
    },
    {
      name: 'logged in: the modal is gone and the account menu is there',
      matches: (state) => state.matches('authenticated'),
      async expect({ page }) {
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();
        await expect(page).not.toHaveURL(/auth_tab/);
      },
    },
    {
      name: 'closed: the modal is gone, still logged out',
      matches: (state) => state.matches('closed'),
      async expect({ page }) {
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await expect(page.getByRole('button', { name: 'Entrar ou registar' })).toBeVisible();
        await expect(page).not.toHaveURL(/auth_tab/);
      },
    },
  ],
};

// Opened by a real reset link: the account and its link are made by the path's setup; the model's token is a
// placeholder. The path ends where the Login view shows the outcome (the login paths above go on from there).
const RESET_INPUT = { tab: 'resetPassword', resetToken: '@reset-token' } as const;

function resetEvents(state: Snapshot): Event[] {
  const { newPassword, confirmNewPassword } = state.context.fields;
  if (state.matches({ resetPassword: 'idle' })) {
    if (newPassword === '')
      return [set('newPassword', STRONG), set('newPassword', COMMON), { type: 'cancel' }];
    if (confirmNewPassword === '')
      return [set('confirmNewPassword', newPassword), set('confirmNewPassword', WRONG)];
    if (confirmNewPassword !== newPassword)
      return [{ type: 'reset.submit' }, set('confirmNewPassword', newPassword)];
    // The server refused the common password: the user picks another.
    const { error } = state.context;
    if (newPassword === COMMON && error && !('key' in error)) return [set('newPassword', STRONG)];
    return [{ type: 'reset.submit' }];
  }
  if (state.matches({ resetPassword: 'resetting' }))
    return [
      newPassword === COMMON
        ? {
            type: 'xstate.error.actor.resetPassword',
            error: new ApiError(
              'password_too_common',
              'Esta palavra-passe é demasiado comum e fácil de adivinhar.',
            ),
          }
        : { type: 'xstate.done.actor.resetPassword' },
    ] as unknown as Event[];
  return [];
}

const allResetPaths = withoutPrefixes(
  generatePaths(authModalMachine, {
    events: resetEvents,
    input: RESET_INPUT,
    maxStatesForSimplePaths: 0,
    serializeState: (state) =>
      JSON.stringify([state.value, state.context.fields, state.context.error, state.context.success]),
  }),
);
const resetPaths = await covering(authModalMachine, allResetPaths, {
  scripted: ['resetPassword'],
  input: RESET_INPUT,
});

const resetDriver: ModelDriver<typeof authModalMachine, Data> = {
  ...driver,
  input: RESET_INPUT,
  calls: { resetPassword: (request) => pathOf(request).startsWith('/api/auth/reset-password/') },
  async setup({ page, request }) {
    const person = newPerson('modelo-redefinir');
    await registerByApi(request, person);
    const asked = await request.post(`/api/auth/forgot-password?email=${encodeURIComponent(person.email)}`);
    expect(asked.ok(), await asked.text()).toBe(true);
    await open(page, await resetLink(request, person.email));
    return { unverified: person, fresh: person, typed: {} };
  },
};

test.describe('the auth modal, driven by the model', () => {
  for (const path of paths) {
    test(`follows ${titleOf(path)}`, async ({ page, request, baseURL }) => {
      await runPath(driver, path, { page, request, baseURL });
    });
  }

  for (const path of resetPaths) {
    test(`opened by a reset link, follows ${titleOf(path)}`, async ({ page, request, baseURL }) => {
      await runPath(resetDriver, path, { page, request, baseURL });
    });
  }

  test('the paths run through the UI check every state they reach and, from both starts, cover every state', async () => {
    console.log(
      `[model e2e] authModal: ${allPaths.length} generated paths, ${paths.length} kept to cover them`,
    );
    // Every state reachable from the login view; the verify view's transitions as one pair of calls (per channel).
    await reportCoverage(driver, paths, SCRIPTED, { states: 18, transitions: 26 });
    console.log(
      `[model e2e] authModal from a reset link: ${allResetPaths.length} generated paths, ${resetPaths.length} kept to cover them`,
    );
    await reportCoverage(resetDriver, resetPaths, ['resetPassword'], { states: 7, transitions: 8 });
    // Both starts together: what the UI runs of the machine.
    const [fromLogin, fromReset] = await Promise.all([
      coverageOfPaths(authModalMachine, paths, { scripted: SCRIPTED, input: { tab: 'login' } }),
      coverageOfPaths(authModalMachine, resetPaths, { scripted: ['resetPassword'], input: RESET_INPUT }),
    ]);
    const states = new Set([...fromLogin.states.covered, ...fromReset.states.covered]);
    const transitions = new Set([...fromLogin.transitions.covered, ...fromReset.transitions.covered]);
    console.log(
      `[model e2e] authModal, both starts: ${paths.length + resetPaths.length} paths, states ${states.size}/${fromLogin.states.total.length}, transitions ${transitions.size}/${fromLogin.transitions.total.length}`,
    );
    expect(states.size).toBe(fromLogin.states.total.length);
    expect(transitions.size).toBeGreaterThanOrEqual(33);
  });
});
