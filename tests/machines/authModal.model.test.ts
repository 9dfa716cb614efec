import { afterAll, describe, expect, it } from 'vitest';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  authModalMachine,
  currentView,
  type AuthFields,
  type AuthModalInput,
  type AuthView,
  type RegisterInput,
} from '../../machines/authModal.machine.ts';
import { coverageOf, generatePaths, replayPath } from './model/harness.ts';

type Event = EventFrom<typeof authModalMachine>;
type Snapshot = SnapshotFrom<typeof authModalMachine>;

const EMAIL = 'rita@example.pt';
const PASSWORD = 'Forte-senha-2026';
const TOKEN = 'jwt-token';
const change = (field: keyof AuthFields, value: string) => ({ type: 'field.change', field, value }) as Event;
const send = (type: string) => ({ type }) as Event;

// Every answer of every call: the world only offers one while the machine waits for that call.
const ANSWERS = [
  { type: 'xstate.done.actor.validateSession', output: true },
  { type: 'xstate.done.actor.validateSession', output: false },
  { type: 'xstate.error.actor.validateSession', error: new ApiError(null) },
  { type: 'xstate.done.actor.login', output: TOKEN },
  {
    type: 'xstate.error.actor.login',
    error: new ApiError('invalid_credentials', 'Wrong e-mail or password.'),
  },
  {
    type: 'xstate.error.actor.login',
    error: new ApiError('account_not_verified', 'Verify.', { pending: ['email', 'phone'] }),
  },
  {
    type: 'xstate.error.actor.login',
    error: new ApiError('account_not_verified', 'Verify.', { pending: ['email'] }),
  },
  {
    type: 'xstate.error.actor.login',
    error: new ApiError('account_not_verified', 'Verify.', { pending: ['phone'] }),
  },
  { type: 'xstate.done.actor.register', output: 'Account created.' },
  {
    type: 'xstate.error.actor.register',
    error: new ApiError('email_in_use', 'This e-mail is already in use.'),
  },
  { type: 'xstate.done.actor.forgotPassword' },
  { type: 'xstate.error.actor.forgotPassword', error: new ApiError('rate_limited') },
  { type: 'xstate.done.actor.resetPassword' },
  {
    type: 'xstate.error.actor.resetPassword',
    error: new ApiError('invalid_reset_token', 'The link has expired.'),
  },
  { type: 'xstate.done.actor.confirmCode' },
  {
    type: 'xstate.error.actor.confirmCode',
    error: new ApiError('invalid_verification_code', 'The code is not valid.'),
  },
  { type: 'xstate.error.actor.confirmCode', error: new ApiError('internal_error') },
  { type: 'xstate.done.actor.resendCode' },
  { type: 'xstate.error.actor.resendCode', error: new ApiError('rate_limited') },
] as unknown as Event[];

/** What the user can do on each view, with a few representative values per field (empty, valid, invalid). */
function userEvents(state: Snapshot): Event[] {
  const { fields } = state.context;
  const unless = (condition: boolean, event: Event) => (condition ? [] : [event]);
  if (state.matches({ login: 'idle' }))
    return [
      ...unless(fields.email !== '', change('email', EMAIL)),
      ...unless(fields.password !== '', change('password', PASSWORD)),
      send('login.submit'),
      send('view.register'),
      send('view.forgotPassword'),
      send('close'),
    ];
  if (state.matches({ register: 'idle' })) {
    // The required text fields are typed in form order, one at a time, which keeps the graph small.
    const next = (['email', 'firstName', 'lastName', 'password'] as const).find(
      (field) => fields[field] === '',
    );
    return [
      ...(next ? [change(next, next === 'email' ? EMAIL : next === 'password' ? PASSWORD : 'Rita')] : []),
      // Phone and confirmation are chosen once, after the text fields: valid or invalid, equal or not.
      ...(next || fields.phone !== ''
        ? []
        : [change('phone', '+351 912 345 678'), change('phone', '912345678')]),
      ...(next || fields.phone === '' || fields.confirmPassword !== ''
        ? []
        : [change('confirmPassword', PASSWORD), change('confirmPassword', 'other')]),
      send('register.submit'),
      send('view.login'),
      { type: 'newsletter.change', checked: false } satisfies Event,
    ];
  }
  if (state.matches({ forgotPassword: 'idle' }))
    return [...unless(fields.email !== '', change('email', EMAIL)), send('forgot.submit'), send('cancel')];
  if (state.matches({ resetPassword: 'idle' }))
    return [
      ...unless(fields.newPassword !== '', change('newPassword', PASSWORD)),
      ...unless(fields.confirmNewPassword === PASSWORD, change('confirmNewPassword', PASSWORD)),
      ...unless(fields.confirmNewPassword === 'other', change('confirmNewPassword', 'other')),
      send('reset.submit'),
      send('cancel'),
    ];
  if (state.matches({ verify: 'idle' }))
    return [
      ...unless(fields.emailCode !== '', change('emailCode', ' 111111 ')),
      ...unless(fields.phoneCode !== '', change('phoneCode', '222222')),
      ...(['email', 'phone'] as const).flatMap((channel) => [
        { type: 'code.verify', channel } satisfies Event,
        { type: 'code.resend', channel } satisfies Event,
      ]),
      send('cancel'),
    ];
  return [];
}

/** The context as the guards and the views see it: which fields are filled or valid, which flags are set. */
function abstractState(state: Snapshot): string {
  const { fields, pending, verifyEmail } = state.context;
  const filled = (Object.keys(fields) as (keyof AuthFields)[])
    .filter((field) => !['phone', 'confirmPassword', 'confirmNewPassword'].includes(field))
    .map((field) => `${field}:${fields[field] !== ''}`);
  return [
    JSON.stringify(state.value),
    ...filled,
    `phone:${fields.phone}`,
    `confirm:${fields.confirmPassword}`,
    `confirmNew:${fields.confirmNewPassword}`,
    `pending:${pending.email},${pending.phone}`,
    `verifyEmail:${verifyEmail !== ''}`,
    // The part being checked or sent again decides what the answer does; at rest it decides nothing.
    state.matches({ verify: 'verifying' }) || state.matches({ verify: 'resending' })
      ? `channel:${state.context.channel}`
      : '',
  ].join(' ');
}

const coverage = coverageOf(authModalMachine);
afterAll(() => coverage.save());

// Each input opens the modal on one view, and that view is explored there: its fields, its submits and every
// answer. Views reached from it (another tab, Verify after a refused login) are only closed in that graph; each is
// explored from an input of its own. Carrying one view's typing into the next would multiply the graph for nothing.
const INPUTS: [string, AuthModalInput, AuthView | null][] = [
  ['without link parameters (login)', {}, 'login'],
  ['on the register tab', { tab: 'register' }, 'register'],
  ['on the forgot-password tab', { tab: 'forgotPassword' }, 'forgotPassword'],
  ['on the reset tab without a token', { tab: 'resetPassword' }, null],
  ['on the verify tab without a link', { tab: 'verify' }, 'verify'],
  ['from a reset link', { resetToken: 'tok' }, 'resetPassword'],
  ['from a verification link', { tab: 'verify', verifyEmail: EMAIL, verifyEmailCode: '111111' }, 'verify'],
];

describe.each(INPUTS)('auth modal machine, model-based, %s', (_label, input, home) => {
  const paths = generatePaths(authModalMachine, {
    events: (state) => [
      ...ANSWERS,
      ...(state.matches('checkingSession') || (home !== null && currentView(state) === home)
        ? userEvents(state)
        : [send('close')]),
    ],
    input,
    serializeState: abstractState,
    maxStatesForSimplePaths: 0,
  });

  for (const path of paths) {
    it.concurrent(`follows ${path.description} to ${JSON.stringify(path.state.value)}`, async () => {
      const logIns: string[] = [];
      const calls: { id: string; input: unknown }[] = [];
      let tokensReceived = 0;
      let previous: Snapshot | null = null;
      let callsBefore = 0;
      await replayPath(authModalMachine, path, {
        scripted: [
          'validateSession',
          'login',
          'register',
          'forgotPassword',
          'resetPassword',
          'confirmCode',
          'resendCode',
        ],
        input,
        coverage,
        provide: { actions: { logIn: (_, params: { token: string }) => logIns.push(params.token) } },
        onCall: (id, callInput) => calls.push({ id, input: callInput }),
        check: (snapshot, step) => {
          const type = step.event.type as string;
          const { context } = snapshot;
          const running = Object.keys(snapshot.children);
          // An error and a success message are never shown together.
          expect(context.error !== null && context.success !== null).toBe(false);
          // At most one call at a time, and none once the modal is done.
          expect(running.length).toBeLessThanOrEqual(snapshot.status === 'done' ? 0 : 1);
          // After a successful login the session got the token exactly once; a valid session needs no login.
          if (type === 'xstate.done.actor.login') tokensReceived += 1;
          expect(logIns).toEqual(Array.from({ length: tokensReceived }, () => TOKEN));
          if (snapshot.matches('authenticated')) expect(logIns.length).toBeLessThanOrEqual(1);
          // A user action that the form refuses on the client starts no call and leaves none pending.
          const userAction = !type.startsWith('xstate.');
          if (userAction && running.length === 0) expect(calls.length).toBe(callsBefore);
          if (
            /\.submit$|\.verify$|\.resend$/.test(type) &&
            previous &&
            currentView(previous) === currentView(snapshot)
          ) {
            const before = previous.context.fields;
            if (type === 'register.submit' && before.password !== before.confirmPassword) {
              expect(running).toEqual([]);
              expect(context.error).toEqual({ key: 'passwords-do-not-match' });
            }
            if (type === 'reset.submit' && before.newPassword !== before.confirmNewPassword)
              expect(running).toEqual([]);
          }
          const call = calls.length > callsBefore ? calls.at(-1) : undefined;
          // Registration sends the sanitised phone and matching passwords, never a refused form.
          if (call?.id === 'register') {
            const sent = call.input as RegisterInput;
            expect(sent.phone_number).toBe('+351912345678');
            expect(sent.password).toBe(sent.confirm_password);
          }
          // A reset is only ever sent with the link's token.
          if (call?.id === 'resetPassword') expect(call.input).toMatchObject({ token: 'tok' });
          // The verify view never keeps a password, and always has at least one part left to verify.
          if (currentView(snapshot) === 'verify') {
            expect(context.fields.password).toBe('');
            expect(context.pending.email || context.pending.phone).toBe(true);
          }
          // The e-mail part is shown only while pending: a refusal naming only the phone hides it.
          if (type === 'xstate.error.actor.login' && snapshot.matches('verify')) {
            const { pending } = (step.event as unknown as { error: ApiError }).error;
            expect(context.pending).toEqual({
              email: pending.includes('email'),
              phone: pending.includes('phone'),
            });
          }
          // The reset token is forgotten as soon as the user is on another view.
          const view = currentView(snapshot);
          if (view !== null && view !== 'resetPassword') expect(context.resetToken).toBeNull();
          callsBefore = calls.length;
          previous = snapshot;
        },
      });
    });
  }
});

describe('auth modal machine, generated paths', () => {
  it('cover every state and at least 95% of the transitions', () => {
    coverage.assertComplete();
  });
});
