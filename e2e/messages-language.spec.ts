import { expect, test, type APIRequestContext } from './support/test.ts';
import { apiLogin, outbox, storeToken, verifiedPerson } from './support/accounts.ts';
import { open } from './support/fixtures.ts';

// Issue 17, item 3: a logged-in member who switches the language gets the e-mails that follow in it.

async function accountLocale(request: APIRequestContext, token: string): Promise<string> {
  const response = await request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { locale: string }).locale;
}

/** Asks for a password reset with a Portuguese header: the e-mail's language must be the account's. */
async function resetEmailSubject(request: APIRequestContext, email: string, skip: number): Promise<string> {
  const asked = await request.post(`/api/auth/forgot-password?email=${encodeURIComponent(email)}`, {
    headers: { locale: 'pt' },
  });
  expect(asked.ok()).toBe(true);
  let subject = '';
  await expect
    .poll(async () => {
      const emails = (await outbox(request, email)).filter((message) => message.channel === 'email');
      subject = emails.length > skip ? (emails[0]?.subject ?? '') : '';
      return subject;
    })
    .not.toBe('');
  return subject;
}

test('a language switch while logged in is saved on the account, and the next e-mail is in it', async ({
  page,
  request,
}) => {
  const person = await verifiedPerson(request, 'idioma');
  const token = await apiLogin(request, person);
  expect(await accountLocale(request, token)).toBe('pt');
  await storeToken(page, token);
  await open(page, '/pt');
  await expect(page.getByRole('button', { name: /menu da conta/ })).toBeVisible();

  // The top bar's language menu.
  await page.getByRole('button', { name: /^Idioma/ }).click();
  await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
  await expect(page).toHaveURL(/\/de$/);
  await expect.poll(() => accountLocale(request, token)).toBe('de');
  const before = (await outbox(request, person.email)).filter(
    (message) => message.channel === 'email',
  ).length;
  const german = await resetEmailSubject(request, person.email, before);
  expect(german).toContain('Passwort zurücksetzen');

  // The settings tab's language list.
  await open(page, '/de?account_tab=settings');
  const account = page.getByRole('dialog', { name: 'Mein Konto' });
  await account.getByRole('button', { name: /Français/ }).click();
  await expect(page).toHaveURL(/\/fr\?account_tab=settings$/);
  await expect.poll(() => accountLocale(request, token)).toBe('fr');
  const french = await resetEmailSubject(request, person.email, before + 1);
  expect(french).toContain('Réinitialisez votre mot de passe');
});
