import { URI } from 'otpauth';
import { expect, type APIRequestContext, type Page } from './test.ts';
import { field } from './accounts.ts';
import type { CliOperator } from './console-server.ts';

// Console operators in the browser: the authenticator's code computed with the library the server checks it
// with, the password set from the CLI's one-time link, and the console's login form.

export const OPERATOR_PASSWORD = 'Consola-segura-2026!';

const usedSteps = new Map<string, number>();

/** The authenticator's code now; a step already used for this secret is waited out (the server refuses it again). */
export async function totpCode(operator: CliOperator): Promise<string> {
  const totp = URI.parse(operator.totpUri);
  const step = () => Math.floor(Date.now() / 1000 / 30);
  while (usedSteps.get(operator.totpUri) === step()) await new Promise((resolve) => setTimeout(resolve, 500));
  usedSteps.set(operator.totpUri, step());
  return totp.generate();
}

export async function setPasswordFromLink(page: Page, operator: CliOperator): Promise<void> {
  await page.goto(operator.setupPath);
  await field(page, 'Nova palavra-passe').fill(OPERATOR_PASSWORD);
  await field(page, 'Confirmar a palavra-passe').fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('status')).toContainText('Palavra-passe definida');
}

/** Logs in through the console's form; answers the TOTP code it used. */
export async function logIn(page: Page, operator: CliOperator): Promise<string> {
  const code = await totpCode(operator);
  await page.goto('/pt/admin');
  await field(page, 'E-mail').fill(operator.email);
  await field(page, 'Palavra-passe').fill(OPERATOR_PASSWORD);
  await field(page, 'Código da aplicação de autenticação').fill(code);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('heading', { name: 'Hoje', level: 2 })).toBeVisible();
  return code;
}

/** The operator's console token, made through the API as the console makes it: the link's password, then a login. */
export async function operatorSession(request: APIRequestContext, operator: CliOperator): Promise<string> {
  const token = new URLSearchParams(operator.setupPath.split('?')[1]).get('setup');
  const setup = await request.post('/api/admin/auth/setup-password', {
    data: { token, password: OPERATOR_PASSWORD },
  });
  expect(setup.ok(), await setup.text()).toBe(true);
  const login = await request.post('/api/admin/auth/login', {
    data: { email: operator.email, password: OPERATOR_PASSWORD, totp_code: await totpCode(operator) },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return ((await login.json()) as { access_token: string }).access_token;
}
