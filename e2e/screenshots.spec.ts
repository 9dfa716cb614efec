import { expect, test } from './support/test.ts';
import { apiLogin, bookableSlots, bookAndPay, storeToken, verifiedPerson } from './support/accounts.ts';
import { dayLabel, range } from './support/booking.ts';
import { arrivalKitFor, mergeArrival } from '../server/catalog/index.ts';
import { DEMO_BRANCH_SLUGS, DEMO_BRANCHES } from '../server/demo/demo-data.ts';

// Run with `npm run screenshots` (its own Playwright project): writes docs/screenshots/*.png.
const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const locale of ['pt', 'en']) {
    for (const page of ['landing', 'rights'] as const) {
      test(`${page} in ${locale} on a ${device}`, async ({ browser }) => {
        const context = await browser.newContext({
          viewport,
          reducedMotion: 'reduce',
          locale: `${locale}-PT`,
        });
        const tab = await context.newPage();
        await tab.goto(page === 'landing' ? `/${locale}` : `/${locale}/rights`);
        await expect(tab.locator('html[data-app-ready="true"]')).toHaveCount(1);
        if (page === 'landing') await expect(tab.locator('#branches img').first()).toBeVisible();
        else await expect(tab.locator('#cookies-notice')).toBeVisible();
        await expect(tab.getByTestId('global-loader')).toHaveCount(0);
        // Lazy images below the fold load once scrolled to.
        await tab.evaluate(async () => {
          for (let y = 0; y < document.body.scrollHeight; y += 600) {
            window.scrollTo(0, y);
            await new Promise((resolve) => setTimeout(resolve, 40));
          }
          window.scrollTo(0, 0);
        });
        await tab.waitForLoadState('networkidle');
        await tab.screenshot({ path: `docs/screenshots/${page}-${locale}-${device}.png`, fullPage: true });
        await tab.screenshot({ path: `docs/screenshots/${page}-${locale}-${device}-first-screen.png` });
        await context.close();
      });
    }
  }
}

// The auth modal's views and the account modal's tabs (docs/screenshots/auth-*.png, account-*.png).
const AUTH_VIEWS = {
  login: '?auth_tab=login',
  register: '?auth_tab=register',
  forgotPassword: '?auth_tab=forgotPassword',
  resetPassword: '?reset_token=screenshot-token',
  verify: '?auth_tab=verify&verify_email=rita%40example.com',
} as const;

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const locale of ['pt', 'en']) {
    test(`the auth views in ${locale} on a ${device}`, async ({ browser }) => {
      const context = await browser.newContext({ viewport, reducedMotion: 'reduce', locale: `${locale}-PT` });
      const tab = await context.newPage();
      for (const [view, query] of Object.entries(AUTH_VIEWS)) {
        await tab.goto(`/${locale}${query}`);
        await expect(tab.locator('html[data-app-ready="true"]')).toHaveCount(1);
        await expect(tab.getByRole('dialog')).toBeVisible();
        await expect(tab.getByTestId('global-loader')).toHaveCount(0);
        await tab.screenshot({ path: `docs/screenshots/auth-${view}-${locale}-${device}.png` });
      }
      await context.close();
    });

    test(`the account tabs in ${locale} on a ${device}`, async ({ browser, request }) => {
      const person = await verifiedPerson(request, `shots-${device}`, locale);
      const token = await apiLogin(request, person);
      // A day of its own per test: the tests run in parallel and must not race for the same slots.
      const day = 4 + Object.keys(VIEWPORTS).indexOf(device) * 2 + (locale === 'pt' ? 0 : 1);
      const { slots } = await bookableSlots(request, day);
      const [first, second, , , third] = slots.filter((slot) => /T(0[7-9]|1\d):00/.test(slot.start_time));
      if (first && second) await bookAndPay(request, token, [first, second]);
      if (third) await bookAndPay(request, token, [third]);
      const context = await browser.newContext({ viewport, reducedMotion: 'reduce', locale: `${locale}-PT` });
      const tab = await context.newPage();
      await storeToken(tab, token);
      for (const account of ['myBookings', 'profile', 'settings']) {
        await tab.goto(`/${locale}?account_tab=${account}`);
        await expect(tab.locator('html[data-app-ready="true"]')).toHaveCount(1);
        await expect(tab.getByRole('dialog')).toBeVisible();
        await expect(tab.getByTestId('global-loader')).toHaveCount(0);
        await tab.waitForTimeout(300);
        if (account === 'myBookings') {
          await tab
            .getByRole('dialog')
            .locator('summary')
            .filter({ hasText: /\(2 (bookings|reservas)\)/ })
            .first()
            .click();
        }
        await tab.screenshot({ path: `docs/screenshots/account-${account}-${locale}-${device}.png` });
        if (account === 'myBookings') {
          await tab.getByRole('dialog').getByRole('checkbox').first().check();
          await tab
            .getByRole('dialog')
            .getByRole('button')
            .filter({ hasText: /Cancel|Cancelar/ })
            .first()
            .click();
          await expect(tab.getByRole('dialog')).toHaveCount(2);
          await tab.waitForTimeout(300);
          await tab.screenshot({ path: `docs/screenshots/account-cancel-${locale}-${device}.png` });
        }
      }
      await context.close();
    });
  }
}

// The booking modal's tabs, the summary, the checkout and each payment result (docs/screenshots/booking-*.png).
for (const [index, [device, viewport]] of Object.entries(VIEWPORTS).entries()) {
  test(`the booking modal and payment results on a ${device}`, async ({ browser, request, baseURL }) => {
    test.setTimeout(90_000);
    const origin = (baseURL ?? '').replace('127.0.0.1', 'localhost');
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce', locale: 'en-GB' });
    const token = await apiLogin(request, { email: 'demo@example.com', password: 'Demo-gym-2026!' });
    await context.addInitScript((value) => window.localStorage.setItem('token', value), token);
    const tab = await context.newPage();
    const { branch, date, slots } = await bookableSlots(request, 12 + index);
    const settle = async () => {
      await expect(tab.getByTestId('global-loader')).toHaveCount(0);
      await tab.waitForTimeout(400);
    };
    const shot = (name: string) => tab.screenshot({ path: `docs/screenshots/booking-${name}-${device}.png` });

    await tab.goto(`${origin}/en?booking_tab=branchInformation&booking_branch_id=${branch.id}`);
    const dialog = tab.getByRole('dialog', { name: branch.name });
    await expect(dialog.getByRole('heading', { name: 'Location' })).toBeVisible();
    await settle();
    await shot('branch-information');

    await dialog.getByRole('tab', { name: 'Book sessions' }).click();
    const day = dialog.getByRole('button', { name: dayLabel(date, 'en-GB'), exact: true });
    if ((await day.count()) === 0) await dialog.getByRole('button', { name: 'Next month' }).click();
    await day.click();
    const pick = slots.filter((slot) => /T(0[7-9]|1\d):00/.test(slot.start_time)).slice(0, 2);
    for (const slot of pick) {
      await dialog.getByRole('button', { name: new RegExp(`^${range(slot, 'en')}`) }).click();
    }
    await dialog.getByLabel('Coupon code').fill('WELCOME5');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(dialog.getByText(/Coupon WELCOME5 applied/)).toBeVisible();
    // Back to the top of the modal: calendar, image and the first slots.
    await dialog.evaluate((node) => node.scrollTo(0, 0));
    await tab.evaluate(() => document.querySelector('.mantine-Modal-body')?.scrollTo(0, 0));
    await settle();
    await shot('book-sessions');
    // The basket under the day's slots: every chosen slot across dates, the count and the total (issue 30).
    await dialog.locator('.basket').scrollIntoViewIfNeeded();
    await settle();
    await shot('basket');

    await dialog.getByRole('button', { name: 'Confirm booking' }).click();
    const summary = tab.getByRole('dialog', { name: 'Booking summary' });
    await summary.getByRole('checkbox').check();
    // Each slot's refund deadline, read from the live policy (issue 30).
    await expect(summary.locator('.refund-deadline').first()).toBeVisible();
    await settle();
    await shot('summary');

    await summary.getByRole('button', { name: 'Confirm', exact: true }).click();
    const checkout = tab.frameLocator('iframe[title="Payment"]');
    await expect(checkout.locator('input[name="card_number"]')).toBeVisible();
    await settle();
    await shot('checkout');

    await checkout.locator('input[name="card_number"]').fill('4242 4242 4242 4242');
    await checkout.getByRole('button').click();
    await expect(tab.getByRole('dialog', { name: 'Payment successful' })).toBeVisible({ timeout: 15_000 });
    await settle();
    await shot('result-success');

    const held = slots.filter((slot) => !pick.includes(slot))[index + 3]!;
    const response = await request.post('/api/bookings/', {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        time_slot_id: [held.id],
        max_bookings_per_slot: 1,
        coupon_code: null,
        expected_total_final_price_eur: held.basic_price_eur,
      },
    });
    const secret = ((await response.json()) as { checkout_session: { clientSecret: string } })
      .checkout_session.clientSecret;
    await tab.goto(`${origin}/en?stripe_session_id=${secret.split('_secret_')[0]}&booking_date=${date}`);
    await expect(tab.getByRole('dialog', { name: 'Payment pending' })).toBeVisible();
    await settle();
    await shot('result-pending');

    await tab.route('**/api/checkout/session-status**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: '{"status":"expired","clientSecret":null,"bookings":[]}',
      }),
    );
    await tab.goto(`${origin}/en?stripe_session_id=cs_local_expired&booking_date=${date}`);
    await expect(tab.getByRole('dialog', { name: 'Payment session expired' })).toBeVisible();
    await settle();
    await shot('result-expired');
    await context.close();
  });
}

// The door-code e-mail as a member reads it, light and dark (docs/screenshots/email-door-code-*.png, issue 30).
// The basket and the summary's refund deadlines in Portuguese too (issue 30: pt and one other language).
for (const [index, [device, viewport]] of Object.entries(VIEWPORTS).entries()) {
  test(`the basket and the summary's refund deadlines in pt on a ${device}`, async ({
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const origin = (baseURL ?? '').replace('127.0.0.1', 'localhost');
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce', locale: 'pt-PT' });
    const token = await apiLogin(request, { email: 'demo@example.com', password: 'Demo-gym-2026!' });
    await context.addInitScript((value) => window.localStorage.setItem('token', value), token);
    const tab = await context.newPage();
    const { branch, date, slots } = await bookableSlots(request, 20 + index);
    const settle = async () => {
      await expect(tab.getByTestId('global-loader')).toHaveCount(0);
      await tab.waitForTimeout(400);
    };
    const shot = (name: string) =>
      tab.screenshot({ path: `docs/screenshots/booking-${name}-pt-${device}.png` });

    await tab.goto(`${origin}/pt?booking_tab=bookSessions&booking_branch_id=${branch.id}`);
    const dialog = tab.getByRole('dialog', { name: branch.name });
    const day = dialog.getByRole('button', { name: dayLabel(date), exact: true });
    if ((await day.count()) === 0) await dialog.getByRole('button', { name: 'Mês seguinte' }).click();
    await day.click();
    for (const slot of slots.filter((slot) => /T(0[7-9]|1\d):00/.test(slot.start_time)).slice(0, 2)) {
      await dialog.getByRole('button', { name: new RegExp(`^${range(slot)}`) }).click();
    }
    await dialog.locator('.basket').scrollIntoViewIfNeeded();
    await settle();
    await shot('basket');

    await dialog.getByRole('button', { name: 'Confirmar reserva' }).click();
    const summary = tab.getByRole('dialog', { name: 'Resumo da reserva' });
    await summary.getByRole('checkbox').check();
    await expect(summary.locator('.refund-deadline').first()).toBeVisible();
    await settle();
    await shot('summary');
    await context.close();
  });
}

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const locale of ['pt', 'en']) {
    test(`the door-code e-mail in ${locale} on a ${device}`, async ({ browser, request }) => {
      const person = await verifiedPerson(request, `shots-mail-${device}`, locale);
      const token = await apiLogin(request, person);
      const day = 20 + Object.keys(VIEWPORTS).indexOf(device) * 2 + (locale === 'pt' ? 0 : 1);
      const { slots } = await bookableSlots(request, day);
      await bookAndPay(request, token, [slots[10]!]);
      const listed = await request.get('/api/bookings/my-bookings', {
        headers: { Authorization: `Bearer ${token}` },
      });
      const [booking] = (await listed.json()) as { id: number }[];
      // The T-30 message now (the development route), once the doors have taken the code.
      await expect
        .poll(
          async () =>
            (
              (await (await request.post(`/api/dev/bookings/${booking!.id}/send-door-code`)).json()) as {
                outcome: string;
              }
            ).outcome,
          { timeout: 15_000 },
        )
        .toMatch(/^(sent|already_sent)$/);
      const messages = (await (
        await request.get(`/api/dev/outbox?to=${encodeURIComponent(person.email)}`)
      ).json()) as { channel: string; subject: string | null; html: string | null }[];
      const mail = messages.find(
        (message) => message.channel === 'email' && message.html?.includes('class="code"'),
      );
      expect(mail?.html).toBeTruthy();
      for (const scheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport, colorScheme: scheme });
        const tab = await context.newPage();
        await tab.setContent(mail!.html!);
        await tab.screenshot({
          path: `docs/screenshots/email-door-code-${locale}-${device}-${scheme}.png`,
          fullPage: true,
        });
        await context.close();
      }
    });
  }
}

// My bookings' door-code card with the branch's arrival kit (docs/screenshots/account-door-code-*.png, issue 30).
// A code is readable from 30 minutes before the start and this server runs on the wall clock, so the page's
// list of bookings is the server's own answer with its first booking given what the server gives at T-30: a
// code, its window, and the demo branch's kit as the server words it (catalog/arrival.ts over the demo data).
for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const locale of ['pt', 'en'] as const) {
    test(`the door-code card in ${locale} on a ${device}`, async ({ browser, request }) => {
      const person = await verifiedPerson(request, `shots-card-${device}`, locale);
      const token = await apiLogin(request, person);
      const day = 24 + Object.keys(VIEWPORTS).indexOf(device) * 2 + (locale === 'pt' ? 0 : 1);
      const { slots } = await bookableSlots(request, day);
      await bookAndPay(request, token, [slots[10]!]);
      const lisboa = DEMO_BRANCHES.find((branch) => branch.slug === DEMO_BRANCH_SLUGS.lisboa)!;
      const kit = arrivalKitFor(mergeArrival({}, lisboa.arrival ?? {}), locale, {
        mapUrl: lisboa.mapUrl ?? null,
        supportPhone: '+351 210 000 000',
      });
      const context = await browser.newContext({ viewport, reducedMotion: 'reduce', locale: `${locale}-PT` });
      const tab = await context.newPage();
      await tab.route('**/api/bookings/my-bookings*', async (route) => {
        const answer = await route.fetch();
        const bookings = (await answer.json()) as Record<string, unknown>[];
        const slot = bookings[0]!.time_slot_data as { start_time: string; end_time: string };
        const shift = (iso: string, minutes: number) =>
          new Date(Date.parse(iso) + minutes * 60_000).toISOString().replace('.000Z', '+00:00');
        bookings[0] = {
          ...bookings[0],
          lock_code: '482913',
          lock_code_valid_from: shift(slot.start_time, -15),
          lock_code_valid_until: shift(slot.end_time, 15),
          arrival: kit,
        };
        await route.fulfill({ response: answer, json: bookings });
      });
      await storeToken(tab, token);
      await tab.goto(`/${locale}?account_tab=myBookings`);
      await expect(tab.getByTestId('arrival-kit')).toBeVisible();
      await expect(tab.getByTestId('global-loader')).toHaveCount(0);
      await tab.waitForTimeout(300);
      await tab.screenshot({ path: `docs/screenshots/account-door-code-${locale}-${device}.png` });
      await tab.getByTestId('door-code').screenshot({
        path: `docs/screenshots/account-door-code-card-${locale}-${device}.png`,
      });
      await context.close();
    });
  }
}
