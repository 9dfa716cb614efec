import { expect, test } from './support/test.ts';
import { apiLogin, field, storeToken, verifiedPerson } from './support/accounts.ts';
import { open } from './support/fixtures.ts';

// Issue 17, item 5: field limits are the contract's, on the inputs; a field the server still refuses is told
// beside that field, in the interface's language, not as the API's English sentence at the top of the form.

test.describe('field limits', () => {
  test('the inputs stop at the contract limit, and a refused field is told beside it', async ({
    page,
    request,
  }) => {
    const person = await verifiedPerson(request, 'limites');
    await storeToken(page, await apiLogin(request, person));
    await open(page, '/fr?account_tab=profile');
    const account = page.getByRole('dialog', { name: 'Mon compte' });
    const firstName = field(account, 'Prénom');
    await expect(firstName).toHaveValue(person.firstName);
    await expect(firstName).toHaveAttribute('maxlength', '100');
    await expect(field(account, 'E-mail')).toHaveAttribute('maxlength', '254');
    await expect(field(account, 'Numéro de téléphone')).toHaveAttribute('maxlength', '32');
    await firstName.fill('A'.repeat(130));
    await expect(firstName).toHaveValue('A'.repeat(100));

    // A client without the limit (an older app, a pasted value through devtools): the server refuses the field.
    await firstName.evaluate((input) => input.removeAttribute('maxlength'));
    await firstName.fill('B'.repeat(101));
    await account.getByRole('button', { name: 'Mettre à jour le profil' }).click();
    await expect(firstName).toHaveAttribute('aria-invalid', 'true');
    await expect(account.getByText('100 caractères au maximum.')).toBeVisible();
    await expect(account.getByText(/Invalid request|too long/)).toHaveCount(0);
    await expect(account.getByRole('alert').filter({ hasText: 'first_name' })).toHaveCount(0);
    // Correcting the field clears its message, and the update goes through.
    await firstName.fill('Mariana');
    await expect(account.getByText('100 caractères au maximum.')).toHaveCount(0);
    await account.getByRole('button', { name: 'Mettre à jour le profil' }).click();
    await expect(account.getByRole('status')).toHaveText(/Profil mis à jour/);
  });

  test('the registration form carries the limits too', async ({ page }) => {
    await open(page, '/en?auth_tab=register');
    const dialog = page.getByRole('dialog');
    await expect(field(dialog, 'First name')).toHaveAttribute('maxlength', '100');
    await expect(field(dialog, 'E-mail')).toHaveAttribute('maxlength', '254');
    await expect(field(dialog, 'Password')).toHaveAttribute('maxlength', '128');
  });
});
