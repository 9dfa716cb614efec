import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../machines/api.ts';
import {
  authModalMachine,
  currentView,
  type AuthModalInput,
  type ConfirmCodeInput,
  type RegisterInput,
  type ResendCodeInput,
} from '../../machines/authModal.machine.ts';

type Script = {
  valid?: boolean;
  login?: (input: { email: string; password: string }) => Promise<string>;
  register?: (input: RegisterInput) => Promise<string>;
  forgotPassword?: () => Promise<void>;
  resetPassword?: (input: { token: string; password: string }) => Promise<void>;
  confirmCode?: (input: ConfirmCodeInput) => Promise<void>;
  resendCode?: (input: ResendCodeInput) => Promise<void>;
};

const ok = async () => {};

function start(input: AuthModalInput = {}, script: Script = {}) {
  const calls = {
    validateSession: vi.fn(async () => script.valid ?? false),
    login: vi.fn(script.login ?? (async () => 'jwt-token')),
    register: vi.fn(script.register ?? (async () => 'Account created.')),
    forgotPassword: vi.fn(script.forgotPassword ?? ok),
    resetPassword: vi.fn(script.resetPassword ?? ok),
    confirmCode: vi.fn(script.confirmCode ?? ok),
    resendCode: vi.fn(script.resendCode ?? ok),
  };
  const logIn = vi.fn<(token: string) => void>();
  const machine = authModalMachine.provide({
    actors: {
      validateSession: fromPromise(calls.validateSession),
      login: fromPromise(({ input }) => calls.login(input)),
      register: fromPromise(({ input }) => calls.register(input)),
      forgotPassword: fromPromise(() => calls.forgotPassword()),
      resetPassword: fromPromise(({ input }) => calls.resetPassword(input)),
      confirmCode: fromPromise(({ input }) => calls.confirmCode(input)),
      resendCode: fromPromise(({ input }) => calls.resendCode(input)),
    },
    actions: { logIn: (_, params) => logIn(params.token) },
  });
  const actor = createActor(machine, { input }).start();
  const fill = (values: Record<string, string>) => {
    for (const [field, value] of Object.entries(values)) {
      actor.send({ type: 'field.change', field: field as never, value });
    }
  };
  const settled = (view: string) =>
    waitFor(actor, (state) => currentView(state) === view && state.matches({ [view]: 'idle' }));
  return { actor, calls, logIn, fill, settled };
}

const registration = {
  email: 'rita@example.pt',
  firstName: 'Rita',
  lastName: 'Lopes',
  phone: '+351 912 345 678',
  password: 'Forte-senha-2026',
  confirmPassword: 'Forte-senha-2026',
};

describe('the auth modal machine: opening', () => {
  it('checks the token when opened without link parameters, and shows Login when it is not valid', async () => {
    const { actor, calls, settled } = start({ tab: 'login' });
    await settled('login');
    expect(calls.validateSession).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('active');
  });

  it('reports the user as authenticated when the token is valid, without a login', async () => {
    const { actor, logIn } = start({ tab: 'register' }, { valid: true });
    await waitFor(actor, (state) => state.status === 'done');
    expect(actor.getSnapshot().value).toBe('authenticated');
    expect(logIn).not.toHaveBeenCalled();
  });

  it('opens the view named by auth_tab (login by default)', async () => {
    for (const tab of ['login', 'register', 'forgotPassword'] as const) {
      const { actor, settled } = start({ tab });
      await settled(tab);
      expect(currentView(actor.getSnapshot())).toBe(tab);
    }
    const { actor, settled } = start({});
    await settled('login');
    expect(currentView(actor.getSnapshot())).toBe('login');
  });

  it('opens Reset password with a reset token, without checking the session', async () => {
    const { actor, calls } = start({ resetToken: 'abc' });
    expect(currentView(actor.getSnapshot())).toBe('resetPassword');
    expect(calls.validateSession).not.toHaveBeenCalled();
  });

  it('opens Forgot password for a reset view without its token', async () => {
    const { actor, settled } = start({ tab: 'resetPassword' });
    await settled('forgotPassword');
    expect(currentView(actor.getSnapshot())).toBe('forgotPassword');
  });

  it('opens Verify with the e-mail and the code of the verification link, both parts pending', () => {
    const { actor } = start({ tab: 'verify', verifyEmail: 'rita@example.pt', verifyEmailCode: '123456' });
    const { context } = actor.getSnapshot();
    expect(currentView(actor.getSnapshot())).toBe('verify');
    expect(context.fields.emailCode).toBe('123456');
    expect(context.verifyEmail).toBe('rita@example.pt');
    expect(context.pending).toEqual({ email: true, phone: true });
  });

  it('ends as closed when dismissed', async () => {
    const { actor, settled } = start({ tab: 'login' });
    await settled('login');
    actor.send({ type: 'close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().status).toBe('done');
  });
});

describe('the auth modal machine: login', () => {
  it('logs in: hands the token to the session and ends authenticated', async () => {
    const { actor, calls, logIn, fill, settled } = start({ tab: 'login' });
    await settled('login');
    fill({ email: ' rita@example.pt ', password: 'secret' });
    actor.send({ type: 'login.submit' });
    await waitFor(actor, (state) => state.status === 'done');
    expect(calls.login).toHaveBeenCalledWith({ email: 'rita@example.pt', password: 'secret' });
    expect(logIn).toHaveBeenCalledWith('jwt-token');
    expect(actor.getSnapshot().value).toBe('authenticated');
  });

  it('makes no call while the e-mail or the password is empty', async () => {
    const { actor, calls, fill, settled } = start({ tab: 'login' });
    await settled('login');
    fill({ email: 'rita@example.pt' });
    actor.send({ type: 'login.submit' });
    expect(calls.login).not.toHaveBeenCalled();
  });

  it('toggles the password visibility', async () => {
    const { actor, settled } = start({ tab: 'login' });
    await settled('login');
    actor.send({ type: 'password.toggle' });
    expect(actor.getSnapshot().context.showPassword).toBe(true);
    actor.send({ type: 'password.toggle' });
    expect(actor.getSnapshot().context.showPassword).toBe(false);
  });

  it('shows the server’s reason for a refused login', async () => {
    const { actor, fill, settled } = start(
      { tab: 'login' },
      { login: () => Promise.reject(new ApiError('invalid_credentials', 'Wrong e-mail or password.')) },
    );
    await settled('login');
    fill({ email: 'rita@example.pt', password: 'wrong' });
    actor.send({ type: 'login.submit' });
    await settled('login');
    expect(actor.getSnapshot().context.error).toEqual({ text: 'Wrong e-mail or password.' });
  });

  it('falls back to error-during-login without a detail, and to the generic message on 5xx', async () => {
    for (const [error, expected] of [
      [new ApiError('malformed_body'), { key: 'error-during-login' }],
      [new ApiError(null), { key: 'error-during-login' }],
      [new ApiError('service_unavailable', 'internal'), { key: 'generic' }],
    ] as const) {
      const { actor, fill, settled } = start({ tab: 'login' }, { login: () => Promise.reject(error) });
      await settled('login');
      fill({ email: 'rita@example.pt', password: 'x' });
      actor.send({ type: 'login.submit' });
      await settled('login');
      expect(actor.getSnapshot().context.error).toEqual(expected);
    }
  });

  it.each([
    [['email', 'phone'] as const, true, true],
    [['email'] as const, true, false],
    [['phone'] as const, false, true],
  ])(
    'moves to Verify when the refusal names %j as pending, showing its message',
    async (pending, email, phone) => {
      const { actor, fill, settled } = start(
        { tab: 'login' },
        {
          login: () =>
            Promise.reject(new ApiError('account_not_verified', 'Please verify your account.', { pending })),
        },
      );
      await settled('login');
      fill({ email: 'rita@example.pt', password: 'secret' });
      actor.send({ type: 'login.submit' });
      await settled('verify');
      const { context } = actor.getSnapshot();
      expect(context.pending).toEqual({ email, phone });
      expect(context.error).toEqual({ text: 'Please verify your account.' });
      expect(context.verifyEmail).toBe('rita@example.pt');
    },
  );

  it('switches to Register and Forgot password, clearing the messages', async () => {
    const { actor, fill, settled } = start(
      { tab: 'login' },
      { login: () => Promise.reject(new ApiError('invalid_credentials', 'No.')) },
    );
    await settled('login');
    fill({ email: 'a@b.pt', password: 'x' });
    actor.send({ type: 'login.submit' });
    await settled('login');
    actor.send({ type: 'view.register' });
    expect(currentView(actor.getSnapshot())).toBe('register');
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'view.login' });
    actor.send({ type: 'view.forgotPassword' });
    expect(currentView(actor.getSnapshot())).toBe('forgotPassword');
  });
});

describe('the auth modal machine: register', () => {
  it('registers with the sanitised phone and the newsletter choice, then verifies both parts', async () => {
    const { actor, calls, fill, settled } = start({ tab: 'register' });
    await settled('register');
    expect(actor.getSnapshot().context.agreeNewsletter).toBe(true);
    fill(registration);
    actor.send({ type: 'newsletter.change', checked: false });
    actor.send({ type: 'register.submit' });
    await settled('verify');
    expect(calls.register).toHaveBeenCalledWith({
      email: 'rita@example.pt',
      first_name: 'Rita',
      last_name: 'Lopes',
      phone_number: '+351912345678',
      password: 'Forte-senha-2026',
      confirm_password: 'Forte-senha-2026',
      agree_newsletter: false,
    });
    const { context } = actor.getSnapshot();
    expect(context.pending).toEqual({ email: true, phone: true });
    expect(context.success).toEqual({ text: 'Account created.' });
    expect(context.verifyEmail).toBe('rita@example.pt');
  });

  it('refuses different passwords without a call', async () => {
    const { actor, calls, fill, settled } = start({ tab: 'register' });
    await settled('register');
    fill({ ...registration, confirmPassword: 'other' });
    actor.send({ type: 'register.submit' });
    expect(actor.getSnapshot().context.error).toEqual({ key: 'passwords-do-not-match' });
    expect(calls.register).not.toHaveBeenCalled();
  });

  it.each(['912345678', '+35 1', '+1234567', '+351 91a 345 678', '+123456789012345678'])(
    'refuses the phone number %j without a call',
    async (phone) => {
      const { actor, calls, fill, settled } = start({ tab: 'register' });
      await settled('register');
      fill({ ...registration, phone });
      actor.send({ type: 'register.submit' });
      expect(actor.getSnapshot().context.error).toEqual({ key: 'invalid-phone-number' });
      expect(calls.register).not.toHaveBeenCalled();
    },
  );

  it('shows the server’s refusal, or registration-failed without a detail', async () => {
    for (const [error, expected] of [
      [
        new ApiError('email_in_use', 'This e-mail address is already in use.'),
        { text: 'This e-mail address is already in use.' },
      ],
      [new ApiError('validation_failed'), { key: 'registration-failed' }],
      [new ApiError('internal_error'), { key: 'generic' }],
    ] as const) {
      const { actor, fill, settled } = start({ tab: 'register' }, { register: () => Promise.reject(error) });
      await settled('register');
      fill(registration);
      actor.send({ type: 'register.submit' });
      await settled('register');
      expect(actor.getSnapshot().context.error).toEqual(expected);
    }
  });

  it('goes back to Login with "Already have an account?"', async () => {
    const { actor, settled } = start({ tab: 'register' });
    await settled('register');
    actor.send({ type: 'view.login' });
    expect(currentView(actor.getSnapshot())).toBe('login');
  });
});

describe('the auth modal machine: forgot and reset password', () => {
  it('requests a reset link and returns to Login with if-account-exists-reset-link-will-be-sent', async () => {
    const { actor, calls, fill, settled } = start({ tab: 'forgotPassword' });
    await settled('forgotPassword');
    actor.send({ type: 'forgot.submit' });
    expect(calls.forgotPassword).not.toHaveBeenCalled();
    fill({ email: 'rita@example.pt' });
    actor.send({ type: 'forgot.submit' });
    await settled('login');
    expect(actor.getSnapshot().context.success).toEqual({ key: 'if-account-exists-reset-link-will-be-sent' });
  });

  it('shows failed-to-request-password-reset when the request fails without a detail', async () => {
    const { actor, fill, settled } = start(
      { tab: 'forgotPassword' },
      { forgotPassword: () => Promise.reject(new ApiError('rate_limited')) },
    );
    await settled('forgotPassword');
    fill({ email: 'rita@example.pt' });
    actor.send({ type: 'forgot.submit' });
    await settled('forgotPassword');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'failed-to-request-password-reset' });
  });

  it('cancels back to Login', async () => {
    const { actor, settled } = start({ tab: 'forgotPassword' });
    await settled('forgotPassword');
    actor.send({ type: 'cancel' });
    expect(currentView(actor.getSnapshot())).toBe('login');
  });

  it('resets the password, forgets the token and returns to Login with the message', async () => {
    const { actor, calls, fill, settled } = start({ resetToken: 'tok' });
    fill({ newPassword: 'Nova-senha-2026', confirmNewPassword: 'Nova-senha-2026' });
    actor.send({ type: 'reset.submit' });
    await settled('login');
    expect(calls.resetPassword).toHaveBeenCalledWith({ token: 'tok', password: 'Nova-senha-2026' });
    expect(actor.getSnapshot().context.resetToken).toBeNull();
    expect(actor.getSnapshot().context.success).toEqual({ key: 'password-has-been-reset-successfully' });
  });

  it('refuses different new passwords without a call', () => {
    const { actor, calls, fill } = start({ resetToken: 'tok' });
    fill({ newPassword: 'Nova-senha-2026', confirmNewPassword: 'nope' });
    actor.send({ type: 'reset.submit' });
    expect(actor.getSnapshot().context.error).toEqual({ key: 'passwords-do-not-match' });
    expect(calls.resetPassword).not.toHaveBeenCalled();
  });

  it('keeps the view and the token when the reset fails', async () => {
    const { actor, fill, settled } = start(
      { resetToken: 'tok' },
      { resetPassword: () => Promise.reject(new ApiError('invalid_reset_token', 'The link has expired.')) },
    );
    fill({ newPassword: 'a', confirmNewPassword: 'a' });
    actor.send({ type: 'reset.submit' });
    await settled('resetPassword');
    expect(actor.getSnapshot().context.error).toEqual({ text: 'The link has expired.' });
    expect(actor.getSnapshot().context.resetToken).toBe('tok');
  });

  it('falls back to failed-to-reset-password', async () => {
    const { actor, fill, settled } = start(
      { resetToken: 'tok' },
      { resetPassword: () => Promise.reject(new ApiError('invalid_reset_token')) },
    );
    fill({ newPassword: 'a', confirmNewPassword: 'a' });
    actor.send({ type: 'reset.submit' });
    await settled('resetPassword');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'failed-to-reset-password' });
  });

  it('cancelling the reset returns to Login and forgets the token', () => {
    const { actor } = start({ resetToken: 'tok' });
    actor.send({ type: 'cancel' });
    expect(currentView(actor.getSnapshot())).toBe('login');
    expect(actor.getSnapshot().context.resetToken).toBeNull();
  });
});

describe('the auth modal machine: verification', () => {
  const link = { tab: 'verify' as const, verifyEmail: 'rita@example.pt', verifyEmailCode: '111111' };

  it('e-mail verified while the phone is pending: email-verification-success-now-phone, link forgotten', async () => {
    const { actor, calls, settled } = start(link);
    actor.send({ type: 'code.verify', channel: 'email' });
    await settled('verify');
    expect(calls.confirmCode).toHaveBeenCalledWith({ channel: 'email', code: '111111' });
    const { context } = actor.getSnapshot();
    expect(context.success).toEqual({ key: 'email-verification-success-now-phone' });
    expect(context.pending).toEqual({ email: false, phone: true });
    expect(context.verifyLink).toBeNull();
  });

  it('then the phone: back to Login with phone-verified-successfully', async () => {
    const { actor, calls, fill, settled } = start(link);
    actor.send({ type: 'code.verify', channel: 'email' });
    await settled('verify');
    fill({ phoneCode: ' 222222 ' });
    actor.send({ type: 'code.verify', channel: 'phone' });
    await settled('login');
    expect(calls.confirmCode).toHaveBeenLastCalledWith({ channel: 'phone', code: '222222' });
    expect(actor.getSnapshot().context.success).toEqual({ key: 'phone-verified-successfully' });
  });

  it('phone first: phone-verification-success-now-email, then email-verified-successfully', async () => {
    const { actor, fill, settled } = start(link);
    fill({ phoneCode: '222222' });
    actor.send({ type: 'code.verify', channel: 'phone' });
    await settled('verify');
    expect(actor.getSnapshot().context.success).toEqual({ key: 'phone-verification-success-now-email' });
    actor.send({ type: 'code.verify', channel: 'email' });
    await settled('login');
    expect(actor.getSnapshot().context.success).toEqual({ key: 'email-verified-successfully' });
  });

  it('makes no call for an empty code', () => {
    const { actor, calls } = start({ tab: 'verify', verifyEmail: 'rita@example.pt' });
    actor.send({ type: 'code.verify', channel: 'email' });
    actor.send({ type: 'code.verify', channel: 'phone' });
    expect(calls.confirmCode).not.toHaveBeenCalled();
  });

  it('shows the verification failures, with their fallbacks', async () => {
    const { actor, fill, settled } = start(link, {
      confirmCode: ({ channel }) =>
        Promise.reject(
          channel === 'email'
            ? new ApiError('invalid_verification_code', 'The code is not valid.')
            : new ApiError('invalid_verification_code'),
        ),
    });
    actor.send({ type: 'code.verify', channel: 'email' });
    await settled('verify');
    expect(actor.getSnapshot().context.error).toEqual({ text: 'The code is not valid.' });
    fill({ phoneCode: '1' });
    actor.send({ type: 'code.verify', channel: 'phone' });
    await settled('verify');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'phone-verification-failed' });
  });

  it('falls back to email-verification-failed', async () => {
    const { actor, settled } = start(link, { confirmCode: () => Promise.reject(new ApiError(null)) });
    actor.send({ type: 'code.verify', channel: 'email' });
    await settled('verify');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'email-verification-failed' });
  });

  it('resends both codes to the account e-mail, with their messages and fallbacks', async () => {
    const { actor, calls, settled } = start(link);
    actor.send({ type: 'code.resend', channel: 'email' });
    await settled('verify');
    expect(calls.resendCode).toHaveBeenCalledWith({ channel: 'email', email: 'rita@example.pt' });
    expect(actor.getSnapshot().context.success).toEqual({ key: 'email-verification-reset-successfully' });
    actor.send({ type: 'code.resend', channel: 'phone' });
    await settled('verify');
    expect(calls.resendCode).toHaveBeenLastCalledWith({ channel: 'phone', email: 'rita@example.pt' });
    expect(actor.getSnapshot().context.success).toEqual({ key: 'phone-verification-reset-successfully' });

    const failing = start(link, {
      resendCode: () => Promise.reject(new ApiError('rate_limited')),
    });
    failing.actor.send({ type: 'code.resend', channel: 'email' });
    await failing.settled('verify');
    expect(failing.actor.getSnapshot().context.error).toEqual({ key: 'failed-to-reset-email-verification' });
    failing.actor.send({ type: 'code.resend', channel: 'phone' });
    await failing.settled('verify');
    expect(failing.actor.getSnapshot().context.error).toEqual({ key: 'failed-to-reset-phone-verification' });
  });

  it('without a known e-mail, resends to the one typed and makes no call while it is empty', async () => {
    const { actor, calls, fill, settled } = start({ tab: 'verify' });
    await settled('verify');
    actor.send({ type: 'code.resend', channel: 'email' });
    expect(calls.resendCode).not.toHaveBeenCalled();
    fill({ email: 'rita@example.pt' });
    actor.send({ type: 'code.resend', channel: 'email' });
    await settled('verify');
    expect(calls.resendCode).toHaveBeenCalledWith({ channel: 'email', email: 'rita@example.pt' });
  });

  it('Cancel returns to Login and clears the verification parameters', () => {
    const { actor } = start(link);
    actor.send({ type: 'cancel' });
    expect(currentView(actor.getSnapshot())).toBe('login');
    expect(actor.getSnapshot().context.verifyLink).toBeNull();
  });
});
