// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  authModalMachine,
  currentView,
  type AuthFields,
  type AuthModalInput,
  type AuthView,
} from '../../machines/authModal.machine.ts';
import { covering, generatePaths, withoutPrefixes } from '../machines/model/paths.ts';
import { renderApp } from './support/app.tsx';
import { drivePath, press, recorder, type Driver } from './support/model.ts';
import { MEMBER } from './support/member.ts';
import { createNetwork, errorAnswer, type Network } from './support/network.ts';

const { default: AuthModal } = await import('../../src/auth/AuthModal.tsx');

// The auth modal's machine (machines/authModal.machine.ts) driven through the real modal (src/auth/AuthModal.tsx):
// paths generated from the machine, each user event a UI action in the rendered modal, each call answered at the
// network with a body the contract allows. The coverage printed is what the running modal's actor took.

type Event = EventFrom<typeof authModalMachine>;
type Snapshot = SnapshotFrom<typeof authModalMachine>;

const EMAIL = 'rita@example.pt';
const PASSWORD = 'Forte-senha-2026';
const TOKEN = 'jwt-token';
const change = (field: keyof AuthFields, value: string) => ({ type: 'field.change', field, value }) as Event;
const send = (type: string) => ({ type }) as Event;

// The server's answers the paths choose from: the world only offers one while the machine waits for that call.
const ANSWERS = [
  { type: 'xstate.done.actor.validateSession', output: true },
  { type: 'xstate.done.actor.validateSession', output: false },
  { type: 'xstate.done.actor.login', output: TOKEN },
  {
    type: 'xstate.error.actor.login',
    error: new ApiError('invalid_credentials', 'E-mail ou palavra-passe incorretos.'),
  },
  {
    type: 'xstate.error.actor.login',
    error: new ApiError('account_not_verified', 'Conta por verificar.', { pending: ['email', 'phone'] }),
  },
  {
    type: 'xstate.error.actor.login',
    error: new ApiError('account_not_verified', 'Conta por verificar.', { pending: ['phone'] }),
  },
  { type: 'xstate.done.actor.register', output: 'Conta criada.' },
  {
    type: 'xstate.error.actor.register',
    error: new ApiError('email_in_use', 'Já existe uma conta com este e-mail.'),
  },
  { type: 'xstate.done.actor.forgotPassword' },
  { type: 'xstate.error.actor.forgotPassword', error: new ApiError('rate_limited', 'Demasiados pedidos.') },
  { type: 'xstate.done.actor.resetPassword' },
  {
    type: 'xstate.error.actor.resetPassword',
    error: new ApiError('invalid_reset_token', 'A ligação expirou.'),
  },
  { type: 'xstate.done.actor.confirmCode' },
  {
    type: 'xstate.error.actor.confirmCode',
    error: new ApiError('invalid_verification_code', 'Este código é inválido.'),
  },
  { type: 'xstate.done.actor.resendCode' },
  { type: 'xstate.error.actor.resendCode', error: new ApiError('rate_limited', 'Demasiados pedidos.') },
] as unknown as Event[];

/** What a user can do on each view, with one or two representative values per field. */
function userEvents(state: Snapshot): Event[] {
  const { fields } = state.context;
  const unless = (condition: boolean, event: Event) => (condition ? [] : [event]);
  if (state.matches({ login: 'idle' }))
    return [
      ...unless(fields.email !== '', change('email', EMAIL)),
      ...unless(fields.password !== '', change('password', PASSWORD)),
      ...unless(fields.email === '' || fields.password === '', send('login.submit')),
      send('password.toggle'),
      send('view.register'),
      send('view.forgotPassword'),
      send('close'),
    ];
  if (state.matches({ register: 'idle' })) {
    const next = (['email', 'firstName', 'lastName', 'password'] as const).find(
      (field) => fields[field] === '',
    );
    return [
      ...(next ? [change(next, next === 'email' ? EMAIL : next === 'password' ? PASSWORD : 'Rita')] : []),
      ...(next || fields.phone !== ''
        ? []
        : [change('phone', '+351 912 345 678'), change('phone', '912345678')]),
      ...(next || fields.phone === '' || fields.confirmPassword !== ''
        ? []
        : [change('confirmPassword', PASSWORD), change('confirmPassword', 'outra')]),
      // The browser submits only a form whose required fields are filled.
      ...(next || fields.phone === '' || fields.confirmPassword === '' ? [] : [send('register.submit')]),
      ...unless(!state.context.agreeNewsletter, { type: 'newsletter.change' as const, checked: false }),
      send('view.login'),
    ];
  }
  if (state.matches({ forgotPassword: 'idle' }))
    return [
      ...unless(fields.email !== '', change('email', EMAIL)),
      ...unless(fields.email === '', send('forgot.submit')),
      send('cancel'),
    ];
  if (state.matches({ resetPassword: 'idle' }))
    return [
      ...unless(fields.newPassword !== '', change('newPassword', PASSWORD)),
      ...unless(fields.confirmNewPassword === PASSWORD, change('confirmNewPassword', PASSWORD)),
      ...unless(fields.confirmNewPassword === 'outra', change('confirmNewPassword', 'outra')),
      ...unless(fields.newPassword === '' || fields.confirmNewPassword === '', send('reset.submit')),
      send('cancel'),
    ];
  if (state.matches({ verify: 'idle' })) {
    const { pending, verifyEmail } = state.context;
    const channels = (['email', 'phone'] as const).filter((channel) => pending[channel]);
    return [
      ...unless(verifyEmail !== '' || fields.email !== '', change('email', EMAIL)),
      ...unless(!pending.email || fields.emailCode !== '', change('emailCode', ' 111111 ')),
      ...unless(!pending.phone || fields.phoneCode !== '', change('phoneCode', '222222')),
      ...channels.flatMap((channel) => [
        ...unless(fields[channel === 'email' ? 'emailCode' : 'phoneCode'] === '', {
          type: 'code.verify' as const,
          channel,
        }),
        { type: 'code.resend' as const, channel },
      ]),
      send('cancel'),
    ];
  }
  return [];
}

function abstractState(state: Snapshot): string {
  const { fields, pending, verifyEmail } = state.context;
  return JSON.stringify([
    state.value,
    fields,
    pending,
    verifyEmail !== '',
    state.context.agreeNewsletter,
    state.context.showPassword,
    state.matches({ verify: 'verifying' }) || state.matches({ verify: 'resending' })
      ? state.context.channel
      : '',
    state.context.error,
    state.context.success,
  ]);
}

// Each start opens the modal on one view, explored there; views reached from it are only closed.
const STARTS: [string, string, AuthModalInput, AuthView | null][] = [
  ['the login tab', 'auth_tab=login', { tab: 'login' }, 'login'],
  ['the register tab', 'auth_tab=register', { tab: 'register' }, 'register'],
  ['the forgot-password tab', 'auth_tab=forgotPassword', { tab: 'forgotPassword' }, 'forgotPassword'],
  ['the reset tab without a token', 'auth_tab=resetPassword', { tab: 'resetPassword' }, null],
  ['the verify tab without a link', 'auth_tab=verify', { tab: 'verify' }, 'verify'],
  ['a reset link', 'reset_token=tok', { resetToken: 'tok' }, 'resetPassword'],
  [
    'a verification link',
    `auth_tab=verify&verify_email=${encodeURIComponent(EMAIL)}&verify_email_code=111111`,
    { tab: 'verify', verifyEmail: EMAIL, verifyEmailCode: '111111' },
    'verify',
  ],
];

const SCRIPTED = [
  'validateSession',
  'login',
  'register',
  'forgotPassword',
  'resetPassword',
  'confirmCode',
  'resendCode',
];

const TITLES: Record<AuthView, string> = {
  login: 'Iniciar sessão',
  register: 'Criar uma conta',
  forgotPassword: 'Recuperar a palavra-passe',
  resetPassword: 'Redefinir a palavra-passe',
  verify: 'Verificar a conta',
};
const LABELS: Record<keyof AuthFields, string> = {
  email: 'E-mail',
  password: 'Palavra-passe',
  confirmPassword: 'Confirmar a palavra-passe',
  firstName: 'Nome próprio',
  lastName: 'Apelido',
  phone: 'Número de telefone',
  newPassword: 'Nova palavra-passe',
  confirmNewPassword: 'Confirmar a nova palavra-passe',
  emailCode: 'Código de verificação do e-mail',
  phoneCode: 'Código de verificação do telefone',
};
const SUBMIT: Partial<Record<AuthView, string>> = {
  login: 'Entrar',
  register: 'Registar',
  forgotPassword: 'Pedir a redefinição',
  resetPassword: 'Guardar a nova palavra-passe',
};
const VERIFY = { email: 'Verificar e-mail', phone: 'Verificar telefone' } as const;
const RESEND = { email: 'Reenviar o código do e-mail', phone: 'Reenviar o código do telefone' } as const;

function dialog(view: AuthView) {
  return screen.getByRole('dialog', { name: TITLES[view] });
}
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);
function input(view: AuthView, field: keyof AuthFields): HTMLInputElement {
  const label = field === 'email' && view === 'verify' ? 'E-mail da conta' : LABELS[field];
  return within(dialog(view)).getByLabelText(exactly(label));
}
const button = (view: AuthView, name: string) => within(dialog(view)).getByRole('button', { name });

type World = { network: Network; app: Awaited<ReturnType<typeof renderApp>> };

const message = (text: string) => ({ status: 200, body: { message: text } });

const driver: Driver<typeof authModalMachine, World> = {
  answer(event, before) {
    const actor = /actor\.(.+)$/.exec(event.type)![1]!;
    const error = event.error as ApiError | undefined;
    const channel = before.context.channel;
    switch (actor) {
      // The session check runs through the app's session (its own calls answered as the start arranged).
      case 'validateSession':
        return { operations: [], answer: { status: 200 } };
      case 'login':
        return {
          operations: ['login'],
          answer: error
            ? errorAnswer(error)
            : { status: 200, body: { access_token: TOKEN, token_type: 'bearer' } },
        };
      case 'register':
        return {
          operations: ['register'],
          answer: error ? errorAnswer(error) : { status: 201, body: { message: 'Conta criada.' } },
        };
      case 'forgotPassword':
        return {
          operations: ['forgotPassword'],
          answer: error ? errorAnswer(error) : message('Pedido registado.'),
        };
      case 'resetPassword':
        return {
          operations: ['resetPassword'],
          answer: error ? errorAnswer(error) : message('Palavra-passe redefinida.'),
        };
      case 'confirmCode':
        return {
          operations: [channel === 'email' ? 'confirmEmail' : 'confirmPhoneNumber'],
          answer: error ? errorAnswer(error) : message('Verificado.'),
        };
      default:
        return {
          operations: [channel === 'email' ? 'resendEmailVerification' : 'resendPhoneVerification'],
          answer: error ? errorAnswer(error) : message('Enviado.'),
        };
    }
  },
  act: {
    'field.change': (event, before) => {
      const { field, value } = event as Extract<Event, { type: 'field.change' }>;
      fireEvent.change(input(currentView(before)!, field), { target: { value } });
    },
    'newsletter.change': () =>
      press(within(dialog('register')).getByRole('checkbox', { name: /newsletter/ })),
    'password.toggle': (_, before) =>
      press(within(dialog(currentView(before)!)).getAllByRole('button', { name: /palavra-passe$/ })[0]!),
    'login.submit': () => press(button('login', 'Entrar')),
    'register.submit': () => press(button('register', 'Registar')),
    'forgot.submit': () => press(button('forgotPassword', 'Pedir a redefinição')),
    'reset.submit': () => press(button('resetPassword', 'Guardar a nova palavra-passe')),
    'code.verify': (event) =>
      press(button('verify', VERIFY[(event as Extract<Event, { type: 'code.verify' }>).channel])),
    'code.resend': (event) =>
      press(button('verify', RESEND[(event as Extract<Event, { type: 'code.resend' }>).channel])),
    'view.register': () => press(button('login', 'Criar conta')),
    'view.login': () => press(button('register', 'Já tem conta?')),
    'view.forgotPassword': () => press(button('login', 'Esqueceu-se da palavra-passe?')),
    cancel: (_, before) => press(button(currentView(before)!, 'Cancelar')),
    close: (_, before) => press(button(currentView(before)!, 'Fechar')),
  },
  check(state, { app }) {
    const view = currentView(state);
    const token = app.runtime.session.getSnapshot().context.token;
    if (view === null) {
      expect(screen.queryByRole('dialog')).toBeNull();
      // Logged in: the session holds the token the login answered (or the one it had); closed: none.
      if (state.matches('authenticated')) expect(token).not.toBeNull();
      if (state.matches('closed')) expect(token).toBeNull();
      if (state.status === 'done') expect(app.search()).not.toMatch(/auth_tab|reset_token|verify_/);
      return;
    }
    const box = dialog(view);
    expect(app.search()).toMatch(view === 'resetPassword' ? /reset_token=/ : new RegExp(`auth_tab=${view}`));
    const { error, success, fields, pending } = state.context;
    const alert = within(box).queryByRole('alert');
    const status = within(box).queryByRole('status');
    expect(alert === null, 'an error is shown exactly when there is one').toBe(error === null);
    expect(status === null, 'a success is shown exactly when there is one').toBe(success === null);
    if (error && 'text' in error) expect(alert).toHaveProperty('textContent', error.text);
    if (success && 'text' in success) expect(status).toHaveProperty('textContent', success.text);
    const shown: (keyof AuthFields)[] =
      view === 'verify'
        ? [
            ...(pending.email ? (['emailCode'] as const) : []),
            ...(pending.phone ? (['phoneCode'] as const) : []),
          ]
        : view === 'login'
          ? ['email', 'password']
          : view === 'register'
            ? ['email', 'firstName', 'lastName', 'phone', 'password', 'confirmPassword']
            : view === 'forgotPassword'
              ? ['email']
              : ['newPassword', 'confirmNewPassword'];
    for (const field of shown) expect(input(view, field).value, field).toBe(fields[field]);
    if (view === 'register') {
      // A refused phone number marks the phone field invalid and describes it by the refusal (issue 30).
      const phone = input(view, 'phone');
      const aboutPhone = error !== null && 'key' in error && error.key === 'invalid-phone-number';
      expect(phone.getAttribute('aria-invalid'), 'phone invalid').toBe(aboutPhone ? 'true' : null);
      // Said under the field (the alert the check above found), which names it as its description.
      if (aboutPhone) expect(phone.getAttribute('aria-describedby')?.split(' ')).toContain(alert?.id);
    }
    if (view === 'verify') {
      if (!pending.email) expect(within(box).queryByLabelText(exactly(LABELS.emailCode))).toBeNull();
      if (!pending.phone) expect(within(box).queryByLabelText(exactly(LABELS.phoneCode))).toBeNull();
      if (state.matches({ verify: 'verifying' }))
        expect(button(view, VERIFY[state.context.channel]).dataset.loading).toBe('true');
      if (state.matches({ verify: 'resending' }))
        for (const channel of ['email', 'phone'] as const)
          if (pending[channel]) expect(button(view, VERIFY[channel])).toHaveProperty('disabled', true);
    } else {
      const busy = !state.matches({ [view]: 'idle' });
      expect(
        button(view, SUBMIT[view]!).dataset.loading,
        'the submit button is busy exactly while it calls',
      ).toBe(busy ? 'true' : undefined);
    }
    if (state.context.showPassword && view !== 'verify' && view !== 'forgotPassword')
      expect(within(box).getAllByRole('button', { name: 'Ocultar palavra-passe' }).length).toBeGreaterThan(0);
  },
};

const flow = recorder(authModalMachine);
afterAll(() => flow.assertCovered());

describe.each(STARTS)(
  'the auth modal opened on %s, driven by its model',
  async (_label, search, input, home) => {
    const generated = withoutPrefixes(
      generatePaths(authModalMachine, {
        events: (state) => [
          ...ANSWERS,
          ...(state.matches('checkingSession') || (home !== null && currentView(state) === home)
            ? userEvents(state)
            : currentView(state) !== null
              ? [send('close')]
              : []),
        ],
        input,
        serializeState: abstractState,
        maxStatesForSimplePaths: 0,
      }),
    );
    const paths = await covering(authModalMachine, generated, { scripted: SCRIPTED, input });
    for (const path of paths) {
      it(`follows ${path.description}`, async () => {
        const loggedIn = path.steps.some(
          (step) =>
            (step.event.type as string) === 'xstate.done.actor.validateSession' &&
            (step.event as { output?: boolean }).output,
        );
        const network = createNetwork({
          validateToken: () => ({ status: 200, body: { valid: true } }),
          getMe: () => ({ status: 200, body: MEMBER }),
          listBranches: () => ({ status: 200, body: [] }),
        });
        flow.startPath();
        const app = await renderApp(AuthModal, {
          search,
          network,
          inspect: flow.inspect,
          ...(loggedIn ? { token: 'stored-token' } : {}),
        });
        try {
          await drivePath(driver, path, flow, { network, app });
        } finally {
          app.runtime.session.stop();
          app.runtime.startup.stop();
        }
      });
    }
  },
);
