import { expect, test } from './support/test.ts';
import { field, newPerson, smsCode, verificationLink } from './support/accounts.ts';
import { expectNoSeriousViolations, expectNoSeriousViolationsOnPage } from './support/axe.ts';
import { firstActiveBranch, onPublicOrigin, payInLocalCheckout, range, slotsOn } from './support/booking.ts';
import {
  dayName,
  discounted,
  monthsBetween,
  euros,
  expectInLocale,
  JOURNEY_LOCALES,
  LANGUAGE_NAMES,
  pageBody,
  tr,
} from './support/locale-texts.ts';

// The whole life of a client, through the interface only, once per locale. The API is only read for the
// codes the outbox holds (e-mail link, SMS code) and for the branch's slots, to know what the calendar shows.

JOURNEY_LOCALES.forEach((locale, index) => {
  const next = JOURNEY_LOCALES[(index + 1) % JOURNEY_LOCALES.length]!;
  const t = (id: string, values?: Record<string, string | number>) => tr(locale, id, values);

  test(`${locale}: registers, verifies, books two slots with WELCOME5, pays, cancels, switches to ${next} and deletes the account`, async ({
    page,
    request,
    baseURL,
  }) => {
    // 2-2.5 min measured on a busy two-core machine with two browsers, most of it an axe run at every step.
    test.setTimeout(240_000);
    const person = newPerson(`journey-${locale}`);
    const branch = await firstActiveBranch(request);
    // Distinct days per locale, more than 48 h ahead (a full refund), clear of the days other specs book (up to ~30).
    const day = await slotsOn(request, branch, 50 + index);
    const [first, second] = [day.slots[2]!, day.slots[5]!];

    // Landing page.
    await page.goto(onPublicOrigin(baseURL, `/${locale}`));
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await expect(page.locator('#branches')).toBeVisible();
    await expectInLocale(pageBody(page), locale, 'landing page');
    await expectNoSeriousViolationsOnPage(page, `landing page (${locale})`);

    // Register through the auth modal.
    await page.getByRole('button', { name: t('Entrar ou registar') }).click();
    const login = page.getByRole('dialog', { name: t('Iniciar sessão') });
    await expect(login).toBeVisible();
    await expectInLocale(login, locale, 'login view');
    await expectNoSeriousViolations(page, `login view (${locale})`);
    await login.getByRole('button', { name: t('Criar conta') }).click();

    const register = page.getByRole('dialog', { name: t('Criar uma conta') });
    await expect(register).toBeVisible();
    await expectInLocale(register, locale, 'register view');
    await expectNoSeriousViolations(page, `register view (${locale})`);
    await field(register, t('E-mail')).fill(person.email);
    await field(register, t('Nome próprio')).fill(person.firstName);
    await field(register, t('Apelido')).fill(person.lastName);
    await field(register, t('Número de telefone')).fill(person.phone);
    await field(register, t('Palavra-passe')).fill(person.password);
    await field(register, t('Confirmar a palavra-passe')).fill(person.password);
    await register.getByRole('button', { name: t('Registar'), exact: true }).click();

    const verify = page.getByRole('dialog', { name: t('Verificar a conta') });
    await expect(verify).toBeVisible();
    await expect(verify.getByRole('status')).toBeVisible();
    await expectInLocale(verify, locale, 'verify view');
    await expectNoSeriousViolations(page, `verify view (${locale})`);

    // The e-mailed link opens Verify with the code filled in; the SMS code verifies the phone.
    const link = await verificationLink(request, person.email);
    expect(link).toMatch(new RegExp(`^/${locale}\\b`));
    await page.goto(onPublicOrigin(baseURL, link));
    await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1);
    const linked = page.getByRole('dialog', { name: t('Verificar a conta') });
    const code = new URL(`http://x${link}`).searchParams.get('verify_email_code') ?? '';
    await expect(field(linked, t('Código de verificação do e-mail'))).toHaveValue(code);
    await linked.getByRole('button', { name: t('Verificar e-mail'), exact: true }).click();
    await expect(linked.getByRole('status')).toHaveText(
      t('E-mail verificado com sucesso. Verifique agora o seu número de telefone.'),
    );
    await expectInLocale(linked, locale, 'verify view after the e-mail');
    await expectNoSeriousViolations(page, `verify view after the e-mail (${locale})`);
    await field(linked, t('Código de verificação do telefone')).fill(await smsCode(request, person.phone));
    await linked.getByRole('button', { name: t('Verificar telefone'), exact: true }).click();

    // Log in.
    const back = page.getByRole('dialog', { name: t('Iniciar sessão') });
    await expect(back.getByRole('status')).toHaveText(t('Telefone verificado com sucesso. Inicie sessão.'));
    await expectInLocale(back, locale, 'login view after verification');
    await expectNoSeriousViolations(page, `login view after verification (${locale})`);
    await field(back, t('E-mail')).fill(person.email);
    await field(back, t('Palavra-passe')).fill(person.password);
    await back.getByRole('button', { name: t('Entrar'), exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const accountMenu = page.getByRole('button', {
      name: t('{firstName} — menu da conta', { firstName: person.firstName }),
    });
    await expect(accountMenu).toBeVisible();
    await expectInLocale(pageBody(page), locale, 'landing page logged in');
    await expectNoSeriousViolationsOnPage(page, `landing page logged in (${locale})`);

    // Book two slots from the branch card, with WELCOME5.
    await page
      .getByRole('button', { name: t('Reservar em {branchName}', { branchName: branch.name }) })
      .click();
    const booking = page.getByRole('dialog', { name: branch.name });
    await expect(booking).toBeVisible();
    await expect(booking.getByRole('group', { name: t('Horários') })).toBeVisible();
    await expectInLocale(booking, locale, 'booking modal');
    await expectNoSeriousViolations(page, `booking modal (${locale})`);

    for (let month = 0; month < monthsBetween(day.today, day.date); month += 1)
      await booking.getByRole('button', { name: t('Mês seguinte') }).click();
    const dateName = await dayName(page, locale, day.date);
    await booking.getByRole('button', { name: dateName, exact: true }).click();
    await expect(booking.getByRole('heading', { name: dateName })).toBeVisible();
    const slots = booking.getByRole('group', { name: t('Horários') });
    const slotA = slots.getByRole('button', { name: new RegExp(`^${range(first, locale)}`) });
    const slotB = slots.getByRole('button', { name: new RegExp(`^${range(second, locale)}`) });
    await slotA.click();
    await slotB.click();
    await expect(slotA).toHaveAttribute('aria-pressed', 'true');
    await expect(slotB).toHaveAttribute('aria-pressed', 'true');

    await booking.getByLabel(t('Código de cupão')).fill('WELCOME5');
    await booking.getByRole('button', { name: t('Aplicar'), exact: true }).click();
    await expect(
      booking.getByText(
        t('Cupão {code} aplicado: {percent}% de desconto.', { code: 'WELCOME5', percent: 5 }),
      ),
    ).toBeVisible();
    const priceA = discounted(first.basic_price_eur, 5);
    const priceB = discounted(second.basic_price_eur, 5);
    await expect(slotA).toContainText(await euros(page, locale, priceA));
    await expect(slotA.locator('s')).toHaveText(await euros(page, locale, first.basic_price_eur));
    await expectInLocale(booking, locale, 'booking modal with slots and coupon');
    await expectNoSeriousViolations(page, `booking modal with slots and coupon (${locale})`);
    await booking.getByRole('button', { name: t('Confirmar reserva'), exact: true }).click();

    // The summary.
    const summary = page.getByRole('dialog', { name: t('Resumo da reserva') });
    await expect(summary).toBeVisible();
    await expect(summary.getByRole('region', { name: dateName })).toContainText(range(first, locale));
    await expect(summary.getByRole('region', { name: dateName })).toContainText(range(second, locale));
    const total = Math.round((priceA + priceB) * 100) / 100;
    await expect(summary.getByText(await euros(page, locale, total), { exact: true })).toBeVisible();
    const confirm = summary.getByRole('button', { name: t('Confirmar'), exact: true });
    await expect(confirm).toBeDisabled();
    await expectInLocale(summary, locale, 'booking summary');
    await expectNoSeriousViolations(page, `booking summary (${locale})`);
    await summary.getByRole('checkbox').check();
    await confirm.click();

    // Pay in the local checkout inside the payment dialog.
    const payment = page.getByRole('dialog', { name: t('Pagamento') });
    await expect(payment).toBeVisible();
    const checkout = page.frameLocator(`iframe[title="${t('Pagamento')}"]`);
    await expect(checkout.locator('input[name="card_number"]')).toBeVisible();
    await expectInLocale(checkout.locator('body'), locale, 'local checkout page');
    await expectNoSeriousViolations(page, `payment dialog (${locale})`);
    await payInLocalCheckout(page, '4242 4242 4242 4242', t('Pagamento'));

    const result = page.getByRole('dialog', { name: t('Pagamento concluído') });
    await expect(result).toBeVisible({ timeout: 15_000 });
    await expect(result.getByText(t('O seu pagamento foi efetuado com sucesso.'))).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/${locale}\\?`));
    await expectInLocale(result, locale, 'payment result');
    await expectNoSeriousViolations(page, `payment result (${locale})`);
    await result
      .getByRole('button', { name: t('Fechar'), exact: true })
      .last()
      .click();
    await expect(result).toHaveCount(0);

    // My bookings: both paid; cancel them and see the refund.
    await accountMenu.click();
    await page.getByRole('menuitem', { name: t('As minhas reservas') }).click();
    const account = page.getByRole('dialog', { name: t('A minha conta') });
    await expect(account.getByRole('tab', { name: t('As minhas reservas') })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const section = account.getByRole('region', { name: `${branch.name} - ${branch.location}` });
    await expect(section.getByText(`${t('Reservas ativas')} (2)`)).toBeVisible();
    await expect(section.getByText(t('Paga'), { exact: true })).toHaveCount(2);
    await expectInLocale(account, locale, 'my bookings');
    await expectNoSeriousViolations(page, `my bookings (${locale})`);

    const boxes = section.getByRole('checkbox');
    await expect(boxes).toHaveCount(2);
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await account.getByRole('button', { name: t('Cancelar as reservas selecionadas') }).click();
    const cancel = page.getByRole('dialog', { name: t('Cancelar reservas') });
    await expect(cancel.getByRole('row')).toHaveCount(3);
    await expect(
      cancel.getByText(t('Total a reembolsar: {totalText}', { totalText: await euros(page, locale, total) })),
    ).toBeVisible();
    await expectInLocale(cancel, locale, 'cancel dialog');
    await expectNoSeriousViolations(page, `cancel dialog (${locale})`);
    // Named for what they do, in the plural of the two bookings chosen (issue 30).
    const many = (text: string) => /other \{([^}]*)\}/.exec(text)![1]!;
    await expect(
      cancel.getByRole('button', {
        name: many(t('{0, plural, one {Manter a reserva} other {Manter as reservas}}')),
        exact: true,
      }),
    ).toBeVisible();
    await cancel
      .getByRole('button', {
        name: many(t('{0, plural, one {Cancelar a reserva} other {Cancelar as reservas}}')),
        exact: true,
      })
      .click();
    await expect(cancel).toHaveCount(0);

    await expect(section.getByText(`${t('Reservas ativas')} (0)`)).toBeVisible();
    const canceled = section.getByText(`${t('Reservas canceladas')} (2)`);
    await canceled.click();
    const refunded = section.locator('dt', { hasText: t('Reembolsado') });
    await expect(refunded).toHaveCount(2);
    const refunds = await section
      .locator('dt')
      .filter({ hasText: t('Reembolsado') })
      .evaluateAll((terms) => terms.map((term) => term.nextElementSibling?.textContent ?? ''));
    expect(refunds.sort()).toEqual(
      [await euros(page, locale, priceA), await euros(page, locale, priceB)].sort(),
    );
    await expectInLocale(account, locale, 'my bookings after the cancellation');
    await expectNoSeriousViolations(page, `my bookings after the cancellation (${locale})`);

    // Settings: another language, in place.
    await account.getByRole('tab', { name: t('Definições') }).click();
    await expect(account.getByRole('heading', { name: t('Escolha o seu idioma preferido') })).toBeVisible();
    await expectInLocale(account, locale, 'settings');
    await expectNoSeriousViolations(page, `settings (${locale})`);
    await account.getByRole('button', { name: LANGUAGE_NAMES[next] }).click();
    const n = (id: string, values?: Record<string, string | number>) => tr(next, id, values);
    await expect(page).toHaveURL(new RegExp(`/${next}\\?account_tab=settings`));
    await expect(page.locator('html')).toHaveAttribute('lang', next);
    const settings = page.getByRole('dialog', { name: n('A minha conta') });
    await expect(settings.getByRole('heading', { name: n('Escolha o seu idioma preferido') })).toBeVisible();
    await expect(settings.getByRole('button', { name: LANGUAGE_NAMES[next] })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expectInLocale(settings, next, 'settings after the language change');
    await expectNoSeriousViolations(page, `settings after the language change (${next})`);

    // Delete the account: logged out.
    await settings.getByRole('button', { name: n('Eliminar conta') }).click();
    const deletion = page.getByRole('dialog', { name: n('Eliminar conta') });
    await expect(deletion.getByRole('note')).toContainText(n('Esta ação não pode ser anulada.'));
    // Once it has read what the deletion would cancel (issue 30), the dialog can be confirmed: checked then.
    await expect(deletion.getByRole('button', { name: n('Eliminar conta') })).toBeEnabled();
    await expectInLocale(deletion, next, 'delete account confirmation');
    await expectNoSeriousViolations(page, `delete account confirmation (${next})`);
    await deletion.getByRole('button', { name: n('Eliminar conta') }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: n('Entrar ou registar') })).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    await expectInLocale(pageBody(page), next, 'landing page after the deletion');
    await expectNoSeriousViolationsOnPage(page, `landing page after the deletion (${next})`);
  });
});
