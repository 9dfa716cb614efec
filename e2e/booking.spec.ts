import { expect, test } from './support/test.ts';
import { apiLogin, DEMO_ACCOUNT, storeToken } from './support/accounts.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import {
  bookingDialog,
  firstActiveBranch,
  logInInModal,
  pickDate,
  range,
  slotButton,
  slotsOn,
} from './support/booking.ts';
import { open } from './support/fixtures.ts';

test.describe('the branch and booking modal', () => {
  // With the modals' open and close transitions, as most users see them (the rest of e2e asks for reduced motion).
  test.use({ reducedMotion: 'no-preference' });

  test('loads its code only when a branch card opens it, and the back button closes it', async ({
    page,
    request,
  }) => {
    const branch = await firstActiveBranch(request);
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    await open(page, '/pt');
    await page.waitForLoadState('networkidle');
    // Neither the modal's code nor its catalog (booking-*.js) belongs to the landing page.
    const bookingCode = (path: string) => /BookingModal|PaymentResult|StripeCheckout|\/booking-/.test(path);
    expect(scripts.filter(bookingCode)).toEqual([]);

    await page.getByRole('button', { name: `Reservar em ${branch.name}` }).click();
    const dialog = bookingDialog(page, branch.name);
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`booking_tab=bookSessions&booking_branch_id=${branch.id}`));
    expect(scripts.some((path) => /BookingModal/.test(path))).toBe(true);
    expect(scripts.some((path) => /\/booking-/.test(path))).toBe(true);
    // Without a publishable key, Stripe.js is never loaded.
    expect(scripts.some((path) => /StripeCheckout/.test(path))).toBe(false);
    await expect(dialog.getByRole('tab', { name: 'Reservar sessões', selected: true })).toBeVisible();

    await page.goBack();
    await expect(dialog).toHaveCount(0);
    await expect(page).not.toHaveURL(/booking_tab/);

    await page.goForward();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page).not.toHaveURL(/booking_/);
  });

  test('opened by its address, paints from the first HTML: its main image preloaded, the modal in the page', async ({
    page,
    request,
  }) => {
    const branch = await firstActiveBranch(request);
    const address = `/en?booking_tab=bookSessions&booking_branch_id=${branch.id}`;
    const html = await (await request.get(address)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<link rel="preload" as="image" fetchpriority="high" href="${branch.image}" />`);
    // The first HTML's modal, after the prerendered landing, with the branch's name and main image.
    const body = html.slice(html.indexOf('</head>'));
    expect(body).toMatch(/<div class="booking-shell" data-booking-shell="">/);
    expect(body).toContain(`<img class="booking-main-image" src="${branch.image}"`);
    // The app's code loads after the first paint, as on the landing: none of it competes with the image.
    expect(head).not.toMatch(/modulepreload[^>]*(BookingModal|\/start-|\/runtime-|\/booking-)/);
    // Without a branch in the address (or with one that does not exist), neither the preload nor the modal.
    for (const path of ['/en', '/en?booking_tab=bookSessions&booking_branch_id=999999']) {
      const plain = await (await request.get(path)).text();
      expect(plain).not.toContain('rel="preload" as="image" fetchpriority="high"');
      expect(plain).not.toContain('data-booking-shell');
    }
    // The page the browser gets from that address opens the live modal over the adopted landing, in place of the
    // first HTML's one.
    await open(page, address);
    const dialog = bookingDialog(page, branch.name);
    await expect(dialog.getByRole('tab', { name: 'Book sessions', selected: true })).toBeVisible();
    await expect(page.locator('[data-booking-shell]')).toHaveCount(0);
    await expect(dialog).toHaveCount(1);
  });

  test('opened by its address without JavaScript, shows the branch and closes by its link', async ({
    browser,
    request,
  }) => {
    const branch = await firstActiveBranch(request);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/en?booking_tab=bookSessions&booking_branch_id=${branch.id}`);
    const dialog = bookingDialog(page, branch.name);
    await expect(dialog.getByRole('img', { name: branch.name })).toBeVisible();
    await dialog.getByRole('link', { name: 'Close' }).click();
    await expect(page).toHaveURL(/\/en$/);
    await expect(page.locator('[data-booking-shell]')).toHaveCount(0);
    await context.close();
  });

  test('reopens on reload, falls back to the first active branch for an unknown id, and shows the branch information', async ({
    page,
    request,
  }) => {
    const branch = await firstActiveBranch(request);
    await open(page, '/pt?booking_tab=branchInformation&booking_branch_id=999999');
    const dialog = bookingDialog(page, branch.name);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('tab', { name: 'Informação do espaço', selected: true })).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Localização' })).toBeVisible();
    await expect(dialog.locator(`iframe[title="Mapa de ${branch.name}"]`)).toHaveAttribute(
      'src',
      /openstreetmap\.org/,
    );
    await expectNoSeriousViolations(page, 'branch information tab');

    await dialog.getByRole('button', { name: `Ampliar a imagem 1 de ${branch.name}` }).click();
    const enlarged = page.getByRole('button', { name: 'Fechar a imagem' });
    await expect(enlarged).toBeVisible();
    await enlarged.click();
    await expect(enlarged).toHaveCount(0);

    await page.reload();
    await expect(bookingDialog(page, branch.name)).toBeVisible();
    await bookingDialog(page, branch.name).getByRole('tab', { name: 'Reservar sessões' }).click();
    await expect(page).toHaveURL(/booking_tab=bookSessions/);
  });

  test('is browsed anonymously, sends the user to login when a slot is picked, and resumes after login', async ({
    page,
    request,
  }) => {
    const branch = await firstActiveBranch(request);
    const { today, date, slots } = await slotsOn(request, branch, 3);
    const wanted = slots[5]!;
    await open(page, '/pt');
    await page.getByRole('button', { name: `Reservar em ${branch.name}` }).click();
    const dialog = bookingDialog(page, branch.name);
    await expect(
      dialog.getByRole('button', { name: `Iniciar sessão para reservar em ${branch.name}` }),
    ).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Confirmar reserva' })).toHaveCount(0);
    await expect(dialog.getByRole('group', { name: /./ }).first()).toBeVisible();
    await expect(
      dialog.getByText('Todos os horários são sempre no fuso horário da localização do espaço.'),
    ).toHaveCount(0);
    await expectNoSeriousViolations(page, 'book sessions tab');

    await pickDate(dialog, today, date);
    await slotButton(dialog, wanted).click();
    await expect(page).toHaveURL(/auth_tab=login/);
    await expect(page).toHaveURL(/booking_tab=bookSessions/);
    await expect(page).toHaveURL(new RegExp(`booking_branch_id=${branch.id}`));
    await logInInModal(page, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);

    await expect(dialog).toBeVisible();
    await expect(slotButton(dialog, wanted)).toHaveAttribute('aria-pressed', 'true');
    await expect(dialog.getByRole('button', { name: 'Confirmar reserva' })).toBeEnabled();
    await expect(dialog.getByRole('button', { name: 'Aplicar' })).toBeDisabled();

    await dialog.getByLabel('Código de cupão').fill('NOPE-0000');
    await dialog.getByRole('button', { name: 'Aplicar' }).click();
    await expect(dialog.getByText('Código de cupão inválido.')).toBeVisible();

    await dialog.getByRole('button', { name: 'Desmarcar tudo' }).click();
    await expect(slotButton(dialog, wanted)).toHaveAttribute('aria-pressed', 'false');
    await expect(dialog.getByRole('button', { name: 'Confirmar reserva' })).toBeDisabled();
  });

  for (const activeCount of [1, 0]) {
    test(`'Book now' with ${activeCount} active branch(es) opens the modal directly on bookSessions`, async ({
      page,
      request,
    }) => {
      const branch = await firstActiveBranch(request);
      await storeToken(page, await apiLogin(request, DEMO_ACCOUNT));
      await page.route('**/api/bookings/branches?*', async (route) => {
        const response = await route.fetch();
        const branches = (await response.json()) as { id: number; active_with_smart_lock: boolean }[];
        const json = branches.map((candidate) => ({
          ...candidate,
          active_with_smart_lock: activeCount === 1 && candidate.id === branch.id,
        }));
        await route.fulfill({ response, json });
      });
      await open(page, '/pt');
      await page.getByRole('button', { name: 'Reservar agora', exact: true }).first().click();
      await expect(page).toHaveURL(/booking_tab=bookSessions/);
      if (activeCount === 1) {
        const dialog = bookingDialog(page, branch.name);
        await expect(dialog).toBeVisible();
        await expect(page).toHaveURL(new RegExp(`booking_branch_id=${branch.id}`));
        await expect(dialog.getByRole('button', { name: 'Confirmar reserva' })).toBeDisabled();
      } else {
        await expect(page.getByRole('dialog').getByRole('alert')).toHaveText(
          'Nenhum espaço ativo encontrado',
        );
      }
    });
  }

  test.describe('in New York', () => {
    test.use({ timezoneId: 'America/New_York' });

    test('shows branch-local times and the time-zone warning', async ({ page, request }) => {
      const branch = await firstActiveBranch(request);
      const { today, date, slots } = await slotsOn(request, branch, 4);
      await open(page, `/pt?booking_tab=bookSessions&booking_branch_id=${branch.id}`);
      const dialog = bookingDialog(page, branch.name);
      await expect(
        dialog.getByText('Todos os horários são sempre no fuso horário da localização do espaço.'),
      ).toBeVisible();
      await pickDate(dialog, today, date);
      for (const slot of slots.slice(0, 3)) await expect(slotButton(dialog, slot)).toBeVisible();
      expect(range(slots[0]!)).toMatch(/^\d\d:\d\d - \d\d:\d\d$/);
    });
  });
});
