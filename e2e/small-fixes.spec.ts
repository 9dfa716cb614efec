import { expect, test } from './support/test.ts';
import { open, simulateLoggedIn, waitForBranches } from './support/fixtures.ts';
import { JOURNEY_LOCALES, LANGUAGE_NAMES } from './support/locale-texts.ts';

// Issue 17, item 7: the smaller things a new member noticed.

test.describe('small things a new member notices', () => {
  test('a verification link keeps its code readable in the address bar', async ({ page }) => {
    await open(page, '/pt?verify_email=rita%40example.com&verify_email_code=614802');
    await expect(page.getByRole('dialog', { name: 'Verificar a conta' })).toBeVisible();
    await expect(page.getByLabel('Código de verificação do e-mail')).toHaveValue('614802');
    expect(page.url()).toContain('verify_email_code=614802');
    expect(page.url()).not.toContain('%22');
  });

  test('og:locale is a full language_TERRITORY tag, from the server and after the app runs', async ({
    page,
    request,
  }) => {
    const tags = { pt: 'pt_PT', fr: 'fr_FR', en: 'en_GB', de: 'de_DE', sk: 'sk_SK' };
    for (const locale of JOURNEY_LOCALES) {
      const html = await (await request.get(`/${locale}`)).text();
      expect(html, locale).toContain(`<meta property="og:locale" content="${tags[locale]}" />`);
    }
    await open(page, '/sk');
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'sk_SK');
    await page.getByRole('button', { name: /^Jazyk/ }).click();
    await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'de_DE');
  });

  test('an unknown page answers 404 and shows the top bar and the footer', async ({ page, request }) => {
    expect((await request.get('/pt/no-such-page')).status()).toBe(404);
    expect((await request.get('/en/rights/nothing/here')).status()).toBe(404);
    expect((await request.get('/en/rights')).status()).toBe(200);
    const response = await page.goto('/en/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'This page does not exist.' })).toBeVisible();
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(/\/en$/);
  });

  test('the language menu marks the current language with aria-checked', async ({ page }) => {
    await open(page, '/fr');
    await page.getByRole('button', { name: /^Langue/ }).click();
    for (const locale of JOURNEY_LOCALES)
      await expect(page.getByRole('menuitemradio', { name: LANGUAGE_NAMES[locale] })).toHaveAttribute(
        'aria-checked',
        String(locale === 'fr'),
      );
  });

  test("the refund policy reads 'less than 24 hours' for the last tier, never 'more than 0 hours'", async ({
    page,
  }) => {
    const expected = {
      pt: 'Com menos de 24 horas de antecedência, é reembolsado 0%.',
      en: 'Less than 24 hours ahead, 0% is refunded.',
      fr: 'Moins de 24 heures à l’avance',
    };
    for (const [locale, text] of Object.entries(expected)) {
      await open(page, `/${locale}`);
      const faq = page.locator('#faq');
      await expect.poll(async () => (await faq.textContent()) ?? '').toContain(text.replace('’', "'"));
      expect(await faq.textContent()).not.toMatch(/mais de 0 hora|Above 0 hours|Plus de 0 heure/);
    }
  });
});

// Issue 30: Portuguese's short weekday names are the whole names ('domingo'), and the calendar's Sunday column
// ran 7 px past a 390 px phone and was cut on a 360 px one.
test('the calendar shows its seven columns whole on a 360 px phone, in every language', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const locale of JOURNEY_LOCALES) {
    await open(page, `/${locale}?booking_tab=bookSessions&booking_branch_id=1`);
    const weekdays = page.locator('.calendar__weekday');
    await expect(weekdays).toHaveCount(7);
    const cut = await page.locator('.calendar__grid').evaluate((grid) => {
      const room = grid.getBoundingClientRect();
      const dialog = grid.closest('[role="dialog"]')!.getBoundingClientRect();
      return Array.from(grid.children)
        .filter((cell) => {
          const box = cell.getBoundingClientRect();
          return (
            box.right > Math.min(room.right, dialog.right) + 0.5 ||
            box.left < Math.max(room.left, dialog.left) - 0.5 ||
            cell.scrollWidth > cell.clientWidth + 1
          );
        })
        .map((cell) => (cell.getAttribute('title') ?? cell.textContent ?? '').trim());
    });
    expect(cut, `${locale}: cells cut or outside the calendar`).toEqual([]);
  }
});

// Issue 30: on a laptop the booking modal scrolls as a whole, and its image and calendar scrolled away with the
// slots, leaving a blank half; the login button's label (the branch's name in it) was cut.
test('on a laptop the calendar stays in view while the slots scroll, and the login button shows its whole label', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, '/pt?booking_tab=bookSessions&booking_branch_id=1');
  const dialog = page.getByRole('dialog');
  const login = dialog.getByRole('button', { name: /^Iniciar sessão para reservar em / });
  await expect(login).toBeVisible();
  // The page is prerendered with the modal open and the app re-renders it when it starts, and the slots arrive after:
  // scrolling once before that ends scrolls a shorter dialog, so the scroll is repeated until the layout has settled.
  await expect(async () => {
    await dialog.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await expect(login).toBeInViewport({ timeout: 500 });
  }).toPass();
  await expect(dialog.locator('.calendar__month')).toBeInViewport();
  await expect(dialog.locator('.calendar__grid')).toBeInViewport();
  const cut = await login.evaluate((button) =>
    [button, ...Array.from(button.querySelectorAll<HTMLElement>('*'))].some(
      (part) => part.scrollWidth > part.clientWidth + 1 && getComputedStyle(part).overflow !== 'visible',
    ),
  );
  expect(cut, 'the login button’s label is cut').toBe(false);
});

// Issue 30: in the burger menu "Book now" lost its button look (the menu's plain-entry rule took it) and, full
// width, centred its label while every entry under it is left-aligned.
test('the burger menu’s Book now is a button aligned with the entries under it', async ({ page }) => {
  await simulateLoggedIn(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '/pt');
  await waitForBranches(page);
  await page.getByRole('button', { name: 'Abrir menu' }).click();
  const menu = page.locator('#mobile-menu');
  const bookNow = menu.getByRole('button', { name: 'Reservar agora' });
  const myBookings = menu.getByRole('button', { name: 'As minhas reservas' });
  await expect(bookNow).toBeVisible();
  const [book, entry] = await Promise.all([bookNow.boundingBox(), myBookings.boundingBox()]);
  expect(Math.abs(book!.x - entry!.x), 'left edges').toBeLessThanOrEqual(1);
  const label = await bookNow.evaluate((button) => {
    const text = document.createRange();
    text.selectNodeContents(button);
    return { left: text.getBoundingClientRect().left - button.getBoundingClientRect().left };
  });
  expect(label.left, 'the label starts near the button’s left edge, not centred').toBeLessThan(40);
  expect(await bookNow.evaluate((button) => getComputedStyle(button).backgroundColor)).not.toBe(
    'rgba(0, 0, 0, 0)',
  );
});
