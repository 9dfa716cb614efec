import { expect, test, type Page } from './support/test.ts';
import {
  bookableSlots,
  DEMO_ACCOUNT,
  field,
  newPerson,
  registerByApi,
  resetLink,
  smsCode,
  verificationLink,
  verifiedPerson,
  waitForMessage,
} from './support/accounts.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import { recordDialogFrames } from './support/dialog-frames.ts';
import { open } from './support/fixtures.ts';

function watchCalls(page: Page, path: string): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(path)) calls.push(request.url());
  });
  return calls;
}

test.describe('the auth modal in Portuguese', () => {
  // With the modals' open and close transitions, as most users see them (the rest of e2e asks for reduced motion).
  test.use({ reducedMotion: 'no-preference' });

  test('registers, verifies the e-mail by its link and the phone by its code, then logs in', async ({
    page,
    request,
  }) => {
    const person = newPerson('registo');
    const registerCalls = watchCalls(page, '/api/auth/register');
    await open(page, '/pt');
    await page.getByRole('button', { name: 'Entrar ou registar' }).click();
    const login = page.getByRole('dialog', { name: 'Iniciar sessão' });
    await expect(login).toBeVisible();
    await expect(page).toHaveURL(/auth_tab=login/);
    await expectNoSeriousViolations(page, 'login view');

    await login.getByRole('button', { name: 'Criar conta' }).click();
    const register = page.getByRole('dialog', { name: 'Criar uma conta' });
    await expect(register).toBeVisible();
    await expect(page).toHaveURL(/auth_tab=register/);
    await expect(field(register, 'Número de telefone')).toHaveAttribute('placeholder', '+351 912 345 678');
    await expect(register.getByRole('checkbox', { name: /newsletter/ })).toBeChecked();
    const terms = register.getByRole('link', { name: 'termos e condições' });
    await expect(terms).toHaveAttribute('href', '/pt/rights');
    await expect(terms).toHaveAttribute('target', '_blank');
    await expectNoSeriousViolations(page, 'register view');

    await field(register, 'E-mail').fill(person.email);
    await field(register, 'Nome próprio').fill(person.firstName);
    await field(register, 'Apelido').fill(person.lastName);
    await field(register, 'Número de telefone').fill('912 345 678');
    await field(register, 'Palavra-passe').fill(person.password);
    await field(register, 'Confirmar a palavra-passe').fill(`${person.password}x`);
    await register.getByRole('button', { name: 'Registar' }).click();
    await expect(register.getByRole('alert')).toHaveText('As palavras-passe não coincidem');

    await field(register, 'Confirmar a palavra-passe').fill(person.password);
    await register.getByRole('button', { name: 'Registar' }).click();
    await expect(register.getByRole('alert')).toHaveText(
      'O número de telefone tem de incluir o indicativo do país e ser válido',
    );
    // Said at the phone field, which is invalid and described by it (issue 30).
    await expect(field(register, 'Número de telefone')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(register, 'Número de telefone')).toHaveAccessibleDescription(
      'O número de telefone tem de incluir o indicativo do país e ser válido',
    );
    expect(registerCalls).toEqual([]);

    // Spaces are removed before the number is checked and sent.
    const spaced = `${person.phone.slice(0, 4)} ${person.phone.slice(4, 7)} ${person.phone.slice(7, 10)} ${person.phone.slice(10)}`;
    await field(register, 'Número de telefone').fill(` ${spaced} `);
    await register.getByRole('button', { name: 'Registar' }).click();
    const verify = page.getByRole('dialog', { name: 'Verificar a conta' });
    await expect(verify).toBeVisible();
    expect(registerCalls).toHaveLength(1);
    await expect(verify.getByRole('status')).toContainText('Conta criada');
    await expect(field(verify, 'Código de verificação do e-mail')).toBeVisible();
    await expect(field(verify, 'Código de verificação do telefone')).toBeVisible();
    await expectNoSeriousViolations(page, 'verify view');

    // The e-mailed link opens Verify with the code filled in.
    const link = await verificationLink(request, person.email);
    await open(page, link);
    const linked = page.getByRole('dialog', { name: 'Verificar a conta' });
    const code = new URL(`http://x${link}`).searchParams.get('verify_email_code') ?? '';
    await expect(field(linked, 'Código de verificação do e-mail')).toHaveValue(code);
    await linked.getByRole('button', { name: 'Verificar e-mail' }).click();
    await expect(linked.getByRole('status')).toHaveText(
      'E-mail verificado com sucesso. Verifique agora o seu número de telefone.',
    );
    await expect(field(linked, 'Código de verificação do e-mail')).toHaveCount(0);
    await expect(page).not.toHaveURL(/verify_email_code/);

    await field(linked, 'Código de verificação do telefone').fill(await smsCode(request, person.phone));
    await linked.getByRole('button', { name: 'Verificar telefone' }).click();
    const back = page.getByRole('dialog', { name: 'Iniciar sessão' });
    await expect(back.getByRole('status')).toHaveText('Telefone verificado com sucesso. Inicie sessão.');
    await expect(page).not.toHaveURL(/verify_email/);

    await field(back, 'E-mail').fill(person.email);
    await field(back, 'Palavra-passe').fill(person.password);
    await back.getByRole('button', { name: 'Entrar', exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();
    await expect(page).not.toHaveURL(/auth_tab/);
  });

  test('shows the password on request and the server’s reason for a refused login', async ({ page }) => {
    await open(page, '/pt?auth_tab=login');
    const login = page.getByRole('dialog', { name: 'Iniciar sessão' });
    const password = field(login, 'Palavra-passe');
    await field(login, 'E-mail').fill(DEMO_ACCOUNT.email);
    await password.fill('not-the-password');
    await expect(password).toHaveAttribute('type', 'password');
    await login.getByRole('button', { name: 'Mostrar palavra-passe' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await login.getByRole('button', { name: 'Ocultar palavra-passe' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await login.getByRole('button', { name: 'Entrar', exact: true }).click();
    await expect(login.getByRole('alert')).toBeVisible();
    await expect(login.getByRole('alert')).not.toHaveText('');
    await expect(login).toBeVisible();
  });

  test('a closed auth modal leaves the other parameters and the page as they were', async ({ page }) => {
    await open(page, '/pt?auth_tab=register');
    await expect(page.getByRole('dialog', { name: 'Criar uma conta' })).toBeVisible();
    await page.getByRole('button', { name: 'Fechar' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(/\/pt$/);
  });

  test('takes no pointer input until it has come most of the way into place', async ({ page }) => {
    await open(page, '/pt');
    const recording = await recordDialogFrames(page);
    await page.getByRole('button', { name: 'Entrar ou registar' }).click();
    await expect(page.getByRole('dialog', { name: 'Iniciar sessão' })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Iniciar sessão' })).toHaveCSS('opacity', '1');
    const frames = await recording.frames();
    // It moved in: drawn first out of place (30 px up, transparent), where a press and its release a frame
    // later met two different controls and the click was lost (docs/decisions.md, stop 46) …
    expect(frames[0]).toMatchObject({ offset: -30, opacity: 0 });
    // … taking no pointer input in any frame where it stood more than half-way from its place, and taking it there.
    expect(
      frames.filter((frame) => frame.offset < -15).every((frame) => frame.pointerEvents === 'none'),
    ).toBe(true);
    expect(frames.at(-1)).toEqual({ offset: 0, opacity: 1, pointerEvents: 'auto' });
  });

  test('the back button closes the login it opened, and forward opens it again', async ({ page }) => {
    await open(page, '/pt');
    const login = page.getByRole('dialog', { name: 'Iniciar sessão' });
    // Twice: the modal once wrote its view back into the address after the step back, and the dialog came back
    // over the page (its button then covered).
    for (const time of ['first', 'second']) {
      await page.getByRole('button', { name: 'Entrar ou registar' }).click();
      await expect(field(login, 'E-mail'), time).toBeFocused();
      await expect(page).toHaveURL(/\/pt\?auth_tab=login$/);
      await page.goBack();
      await expect(page).toHaveURL(/\/pt$/);
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
    await page.goForward();
    await expect(login).toBeVisible();
    await expect(page).toHaveURL(/\/pt\?auth_tab=login$/);
  });

  test('asks for a login before the account and opens the account after it', async ({ page }) => {
    await open(page, '/pt?account_tab=profile');
    const login = page.getByRole('dialog', { name: 'Iniciar sessão' });
    await field(login, 'E-mail').fill(DEMO_ACCOUNT.email);
    await field(login, 'Palavra-passe').fill(DEMO_ACCOUNT.password);
    await login.getByRole('button', { name: 'Entrar', exact: true }).click();
    const account = page.getByRole('dialog', { name: 'A minha conta' });
    await expect(account.getByRole('tab', { name: 'Perfil' })).toHaveAttribute('aria-selected', 'true');
    await expect(field(account, 'E-mail')).toHaveValue(DEMO_ACCOUNT.email);
    await expect(page).toHaveURL(/account_tab=profile/);
    await expect(page).not.toHaveURL(/auth_tab/);
  });
  test('a login asked for by the booking modal keeps its parameters, so the booking resumes', async ({
    page,
    request,
  }) => {
    const { branch } = await bookableSlots(request, 1);
    await open(page, `/pt?booking_tab=bookSessions&booking_branch_id=${branch.id}&auth_tab=login`);
    const login = page.getByRole('dialog', { name: 'Iniciar sessão' });
    await field(login, 'E-mail').fill(DEMO_ACCOUNT.email);
    await field(login, 'Palavra-passe').fill(DEMO_ACCOUNT.password);
    await login.getByRole('button', { name: 'Entrar', exact: true }).click();
    await expect(login).toHaveCount(0);
    await expect(page).not.toHaveURL(/auth_tab/);
    await expect(page).toHaveURL(new RegExp(`booking_tab=bookSessions&booking_branch_id=${branch.id}`));
    await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();
  });
});

test.describe('the auth modal in English', () => {
  test('a login before verifying lands on Verify, which verifies both and returns to Login', async ({
    page,
    request,
  }) => {
    const person = newPerson('unverified');
    await registerByApi(request, person, 'en');
    await open(page, '/en?auth_tab=login');
    const login = page.getByRole('dialog', { name: 'Log in' });
    // Once the dialog has settled (its first field focused), as the tests below wait: a stop-45 CI run on a
    // loaded machine filled both fields and clicked "Log in", and the view never changed (docs/decisions.md).
    await expect(field(login, 'E-mail')).toBeFocused();
    await field(login, 'E-mail').fill(person.email);
    await field(login, 'Password').fill(person.password);
    await login.getByRole('button', { name: 'Log in', exact: true }).click();

    const verify = page.getByRole('dialog', { name: 'Verify your account' });
    await expect(verify).toBeVisible();
    // Only the message before '::' is shown.
    await expect(verify.getByRole('alert')).not.toContainText('::');
    await expect(verify.getByRole('alert')).not.toContainText('confirm-');
    await expectNoSeriousViolations(page, 'verify view (en)');

    await verify.getByRole('button', { name: 'Resend the phone code' }).click();
    await expect(verify.getByRole('status')).toHaveText('We sent a new phone verification code.');
    await field(verify, 'Phone verification code').fill(await smsCode(request, person.phone));
    await verify.getByRole('button', { name: 'Verify phone' }).click();
    await expect(verify.getByRole('status')).toHaveText(
      'Phone verified successfully. Please verify your email.',
    );
    const emailCode = (await waitForMessage(request, person.email, /verify_email_code=(\d+)/))[1] ?? '';
    await field(verify, 'Email verification code').fill(emailCode);
    await verify.getByRole('button', { name: 'Verify email' }).click();
    const back = page.getByRole('dialog', { name: 'Log in' });
    await expect(back.getByRole('status')).toHaveText('Email verified successfully. Please log in.');
    await expect(field(back, 'E-mail')).toHaveValue(person.email);
    await field(back, 'Password').fill(person.password);
    await back.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  });

  test('with reduced motion asked for, shows in place from its first frame', async ({ page }) => {
    await open(page, '/en');
    const recording = await recordDialogFrames(page);
    await page.getByRole('button', { name: 'Log in or sign up' }).click();
    await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible();
    const frames = await recording.frames();
    expect(frames.length).toBeGreaterThan(0);
    expect(
      frames.every((frame) => frame.offset === 0 && frame.opacity === 1 && frame.pointerEvents !== 'none'),
    ).toBe(true);
  });

  test('forgot password sends a link that resets the password', async ({ page, request }) => {
    const person = await verifiedPerson(request, 'forgot', 'en');
    await open(page, '/en?auth_tab=login');
    // Once the dialog has settled (its first field focused), as the native journey waits: a stop-40 CI run on a
    // loaded machine clicked at once and neither the view nor the address changed (docs/decisions.md).
    await expect(field(page.getByRole('dialog', { name: 'Log in' }), 'E-mail')).toBeFocused();
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    const forgot = page.getByRole('dialog', { name: 'Recover your password' });
    await expect(page).toHaveURL(/auth_tab=forgotPassword/);
    await expectNoSeriousViolations(page, 'forgot password view');
    await field(forgot, 'E-mail').fill(person.email);
    await forgot.getByRole('button', { name: 'Request password reset' }).click();
    const login = page.getByRole('dialog', { name: 'Log in' });
    await expect(login.getByRole('status')).toHaveText(
      'If an account exists with this email, a reset link will be sent.',
    );

    const link = await resetLink(request, person.email);
    await open(page, link);
    const reset = page.getByRole('dialog', { name: 'Reset your password' });
    await expect(reset).toBeVisible();
    await expectNoSeriousViolations(page, 'reset password view');
    const newPassword = 'Outra-senha-forte-77';
    await field(reset, 'New password').fill(newPassword);
    await field(reset, 'Confirm the new password').fill('something-else-77');
    await reset.getByRole('button', { name: 'Save the new password' }).click();
    await expect(reset.getByRole('alert')).toHaveText('Passwords do not match');
    await field(reset, 'Confirm the new password').fill(newPassword);
    await reset.getByRole('button', { name: 'Save the new password' }).click();
    const after = page.getByRole('dialog', { name: 'Log in' });
    await expect(after.getByRole('status')).toHaveText(
      'Password has been reset successfully. Please log in.',
    );
    await expect(page).not.toHaveURL(/reset_token/);
    await expect(page).toHaveURL(/auth_tab=login/);

    await field(after, 'E-mail').fill(person.email);
    await field(after, 'Password').fill(person.password);
    await after.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(after.getByRole('alert')).toBeVisible();
    await field(after, 'Password').fill(newPassword);
    await after.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  });
});
