import { expect, test } from './support/test.ts';
import {
  apiLogin,
  bookableSlots,
  bookAndPay,
  DEMO_ACCOUNT,
  field,
  storeToken,
  verifiedPerson,
} from './support/accounts.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import { open } from './support/fixtures.ts';

test.describe('the account modal in Portuguese', () => {
  test('edits the profile: the confirmation field appears with a new password, the phone is checked', async ({
    page,
    request,
  }) => {
    const person = await verifiedPerson(request, 'perfil');
    await storeToken(page, await apiLogin(request, person));
    const updates: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/api/auth/me'))
        updates.push(request.postData() ?? '');
    });
    await open(page, '/pt?account_tab=profile');
    const account = page.getByRole('dialog', { name: 'A minha conta' });
    await expect(field(account, 'E-mail')).toHaveValue(person.email);
    await expect(field(account, 'Nome próprio')).toHaveValue(person.firstName);
    await expect(account.getByRole('checkbox', { name: /newsletter/ })).toBeChecked();
    await expect(field(account, 'Confirmar a nova palavra-passe')).toHaveCount(0);
    await expectNoSeriousViolations(page, 'profile tab');

    await field(account, 'Nova palavra-passe (opcional)').fill('Nova-senha-segura-31');
    await expect(field(account, 'Confirmar a nova palavra-passe')).toBeVisible();
    await field(account, 'Confirmar a nova palavra-passe').fill('Outra-coisa-31');
    await account.getByRole('button', { name: 'Atualizar perfil' }).click();
    await expect(account.getByRole('alert')).toHaveText('As palavras-passe não coincidem');
    await field(account, 'Nova palavra-passe (opcional)').fill('');
    await expect(field(account, 'Confirmar a nova palavra-passe')).toHaveCount(0);

    await field(account, 'Número de telefone').fill('91 234');
    await account.getByRole('button', { name: 'Atualizar perfil' }).click();
    await expect(account.getByRole('alert')).toHaveText(
      'O número de telefone tem de incluir o indicativo do país e ser válido',
    );
    expect(updates).toEqual([]);

    await field(account, 'Número de telefone').fill(` ${person.phone.slice(0, 4)} ${person.phone.slice(4)} `);
    await field(account, 'Nome próprio').fill('Mariana');
    await account.getByRole('checkbox', { name: /newsletter/ }).uncheck();
    await account.getByRole('button', { name: 'Atualizar perfil' }).click();
    await expect(account.getByRole('status')).toHaveText('Perfil atualizado com sucesso');
    expect(updates).toHaveLength(1);
    expect(JSON.parse(updates[0] ?? '{}')).toEqual({
      first_name: 'Mariana',
      last_name: person.lastName,
      email: person.email,
      phone_number: person.phone,
      password: null,
      agree_newsletter: false,
      locale: 'pt',
      tax_id: null,
    });

    // The session survives (the e-mail did not change) and the menu greets the new name.
    await account.getByRole('button', { name: 'Fechar' }).click();
    await expect(page.getByRole('button', { name: 'Menu da conta' })).toContainText('Mariana');
    await page.reload();
    await page.getByRole('button', { name: 'Menu da conta' }).click();
    await page.getByRole('menuitem', { name: 'Perfil' }).click();
    await expect(field(page.getByRole('dialog', { name: 'A minha conta' }), 'Nome próprio')).toHaveValue(
      'Mariana',
    );

    // A new e-mail address ends the session: the token is re-validated, refused, and the login opens.
    const reopened = page.getByRole('dialog', { name: 'A minha conta' });
    await field(reopened, 'E-mail').fill(`novo-${person.email}`);
    await reopened.getByRole('button', { name: 'Atualizar perfil' }).click();
    await expect(page.getByRole('dialog', { name: 'Iniciar sessão' })).toBeVisible();
    await expect(page).toHaveURL(/account_tab=profile/);
    await expect(page.getByRole('button', { name: 'Entrar ou registar' })).toBeVisible();
  });

  test('deletes the account after a confirmation and logs out', async ({ page, request }) => {
    const person = await verifiedPerson(request, 'apagar');
    const token = await apiLogin(request, person);
    // Three days ahead: cancelling it refunds the whole price.
    const { slots } = await bookableSlots(request, 3);
    const slot = slots[6]!;
    await bookAndPay(request, token, [slot]);
    await storeToken(page, token);
    await open(page, '/pt?account_tab=settings');
    const account = page.getByRole('dialog', { name: 'A minha conta' });
    await expect(account.getByRole('heading', { name: 'Escolha o seu idioma preferido' })).toBeVisible();
    await expect(account.getByRole('group', { name: 'Idioma' })).toBeVisible();
    await expectNoSeriousViolations(page, 'settings tab');

    await account.getByRole('button', { name: 'Eliminar conta' }).click();
    const confirm = page.getByRole('dialog', { name: 'Eliminar conta' });
    await expect(confirm).toContainText('Todos os seus dados serão eliminados de forma permanente');
    // What the deletion cancels, and what it refunds (issue 30).
    const euros = new Intl.NumberFormat('pt-PT', {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 0,
    });
    const amount = euros.format(slot.basic_price_eur);
    await expect(confirm.getByRole('listitem')).toHaveCount(1);
    await expect(confirm.getByRole('listitem')).toContainText(`reembolso de ${amount}`);
    await expect(confirm).toContainText(`Reembolso total: ${amount}`);
    await expect(confirm.getByRole('note')).toContainText('Esta ação não pode ser anulada.');
    await expectNoSeriousViolations(page, 'delete account confirmation');
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await expect(confirm).toHaveCount(0);

    await account.getByRole('button', { name: 'Eliminar conta' }).click();
    await page
      .getByRole('dialog', { name: 'Eliminar conta' })
      .getByRole('button', { name: 'Eliminar conta' })
      .click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Entrar ou registar' })).toBeVisible();
    await expect(page).not.toHaveURL(/account_tab|auth_tab/);
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    const login = await request.post('/api/auth/login', {
      form: { username: person.email, password: person.password },
    });
    expect(login.status()).toBe(401);
  });

  test('logs out from the settings tab', async ({ page, request }) => {
    await storeToken(page, await apiLogin(request, DEMO_ACCOUNT));
    await open(page, '/pt?account_tab=settings');
    await page
      .getByRole('dialog', { name: 'A minha conta' })
      .getByRole('button', { name: 'Terminar sessão' })
      .click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Entrar ou registar' })).toBeVisible();
  });
});

test.describe('the account modal in English', () => {
  test('shows bookings per branch, merges back-to-back ones, and cancels two with their refund', async ({
    page,
    request,
  }) => {
    const person = await verifiedPerson(request, 'bookings', 'en');
    const token = await apiLogin(request, person);
    // Three days ahead: more than 48 hours before the start, so the whole price is refundable.
    const { branch, slots } = await bookableSlots(request, 3);
    const morning = slots.filter((slot) => /T1[0-3]:00:00/.test(slot.start_time)).slice(0, 2);
    const evening = slots.find((slot) => /T1[8-9]:00:00/.test(slot.start_time));
    expect(morning).toHaveLength(2);
    expect(evening?.start_time).toMatch(/T1[8-9]:00:00/);
    await bookAndPay(request, token, morning);
    await bookAndPay(request, token, [evening!]);
    await storeToken(page, token);

    await open(page, '/en?account_tab=my-bookings');
    await expect(page).toHaveURL(/account_tab=myBookings/);
    const account = page.getByRole('dialog', { name: 'My account' });
    await expect(account.getByRole('tab', { name: 'My bookings' })).toHaveAttribute('aria-selected', 'true');
    const section = account.getByRole('region', { name: `${branch.name} - ${branch.location}` });
    await expect(section.getByRole('heading', { name: `${branch.name} - ${branch.location}` })).toBeVisible();
    await expect(section.getByText('Active bookings (3)')).toBeVisible();
    await expect(section.getByText('Past bookings (0)')).toBeVisible();
    await expect(section.getByText('Canceled bookings (0)')).toBeVisible();
    await expect(account.getByRole('button', { name: 'Cancel selected bookings' })).toBeDisabled();
    await expect(account.getByRole('button', { name: 'Deselect all' })).toBeDisabled();

    // The two back-to-back bookings are one group, 'start - end', that opens into its bookings.
    const group = section.getByText(/\(2 bookings\)/);
    await expect(group).toBeVisible();
    await expect(section.getByRole('checkbox')).toHaveCount(1);
    await group.click();
    await expect(section.getByRole('checkbox')).toHaveCount(3);
    // Each active booking says what cancelling it refunds until when, from its own policy (issue 30).
    await expect(
      section.getByText(/^Free cancellation until .+, then 50% until .+, then no refund\.$/),
    ).toHaveCount(3);
    await expectNoSeriousViolations(page, 'my bookings tab');

    const boxes = section.getByRole('checkbox');
    await boxes.nth(0).check();
    await boxes.nth(2).check();
    await account.getByRole('button', { name: 'Deselect all' }).click();
    await expect(boxes.nth(0)).not.toBeChecked();
    await boxes.nth(0).check();
    await boxes.nth(2).check();
    await account.getByRole('button', { name: 'Cancel selected bookings' }).click();

    const dialog = page.getByRole('dialog', { name: 'Cancel bookings' });
    await expect(dialog.getByRole('columnheader')).toHaveText(['Branch', 'Time slot', 'Refundable']);
    await expect(dialog.getByRole('row')).toHaveCount(3);
    const first = morning[0]!.basic_price_eur;
    const total = first + evening!.basic_price_eur;
    const euros = (amount: number) =>
      new Intl.NumberFormat('en-GB', {
        style: 'currency',
        currency: 'EUR',
        minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
      }).format(amount);
    await expect(dialog.getByRole('row').nth(1)).toContainText(`${euros(first)} (100%)`);
    await expect(dialog.getByText(`Total refundable: ${euros(total)}`)).toBeVisible();
    await expectNoSeriousViolations(page, 'cancel dialog');
    // Named for what they do (issue 30): keep the two bookings, or cancel them.
    await expect(dialog.getByRole('button', { name: 'Keep bookings' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel bookings' }).click();

    await expect(dialog).toHaveCount(0);
    await expect(section.getByText('Active bookings (1)')).toBeVisible();
    await expect(section.getByText('Canceled bookings (2)')).toBeVisible();
    await expect(account.getByRole('button', { name: 'Cancel selected bookings' })).toBeDisabled();
    await section.getByText('Canceled bookings (2)').click();
    await expect(section.getByText('Refunded')).toHaveCount(2);
    await expect(section.getByText('Canceled', { exact: true })).toHaveCount(2);
  });

  test('the profile and settings tabs pass the accessibility check, and an empty list says so', async ({
    page,
    request,
  }) => {
    const person = await verifiedPerson(request, 'empty', 'en');
    await storeToken(page, await apiLogin(request, person));
    await open(page, '/en?account_tab=myBookings');
    const account = page.getByRole('dialog', { name: 'My account' });
    await expect(account.getByText('No bookings found')).toBeVisible();
    await account.getByRole('tab', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/account_tab=profile/);
    await expect(field(account, 'E-mail')).toHaveValue(person.email);
    await expectNoSeriousViolations(page, 'profile tab (en)');
    await account.getByRole('tab', { name: 'Settings' }).click();
    await expect(account.getByRole('heading', { name: 'Choose your preferred language' })).toBeVisible();
    await expectNoSeriousViolations(page, 'settings tab (en)');

    // The language changes in place: same tab, the session kept, the texts in Portuguese.
    await account.getByRole('button', { name: 'Português' }).click();
    await expect(page).toHaveURL(/\/pt\?account_tab=settings/);
    const conta = page.getByRole('dialog', { name: 'A minha conta' });
    await expect(conta.getByRole('heading', { name: 'Escolha o seu idioma preferido' })).toBeVisible();
    await expect(conta.getByRole('button', { name: 'Português' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Menu da conta' })).toBeVisible();
  });
});
