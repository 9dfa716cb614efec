import { expect, test, type Page } from './support/test.ts';
import { DEMO_ACCOUNT } from './support/accounts.ts';
import { firstActiveBranch, range, slotsOn } from './support/booking.ts';
import { open } from './support/fixtures.ts';
import { dayName, monthsBetween } from './support/locale-texts.ts';

// A booking with the keyboard only: Tab, Shift+Tab, Enter, Space and Escape, typing into fields, and the arrow
// keys inside the calendar and the slot grid (one tab stop each, issue 30).

type Focused = { tag: string; name: string; visible: boolean; outline: string; shadow: string };

/** The focused element, its accessible-ish name and whether its focus is drawn (outline or box-shadow). */
async function focused(page: Page): Promise<Focused> {
  return page.evaluate(async () => {
    // What is painted: a focus ring that transitions in (even in the 0.01 ms the reduced motion leaves) still has
    // its starting width in the frame the focus moved, so the style is read two frames later.
    for (let frame = 0; frame < 2; frame += 1) await new Promise(requestAnimationFrame);
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body)
      return { tag: 'body', name: '', visible: false, outline: '', shadow: '' };
    const style = getComputedStyle(element);
    const labelledBy = element.getAttribute('aria-labelledby');
    const byIds = labelledBy
      ?.split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    const label = (element as HTMLInputElement).labels?.[0]?.textContent;
    const name = element.getAttribute('aria-label') ?? byIds ?? label ?? element.textContent ?? '';
    const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadowed = style.boxShadow !== 'none' && style.boxShadow !== '';
    return {
      tag: element.tagName.toLowerCase(),
      name: name.replace(/\s+/g, ' ').trim(),
      visible: outlined || shadowed,
      outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
      shadow: style.boxShadow,
    };
  });
}

async function expectVisibleFocus(page: Page): Promise<Focused> {
  const now = await focused(page);
  expect(
    now.visible,
    `focus is not drawn on <${now.tag}> "${now.name}" (${now.outline}; ${now.shadow})`,
  ).toBe(true);
  return now;
}

/** Presses an arrow key until the focused element's name matches, checking the focus at every stop. */
async function arrowTo(page: Page, name: string | RegExp, key = 'ArrowRight', max = 45): Promise<void> {
  const matches = (candidate: string) =>
    typeof name === 'string' ? candidate === name : name.test(candidate);
  for (let step = 0; step < max; step += 1) {
    if (matches((await expectVisibleFocus(page)).name)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`no element named ${String(name)} within ${max} presses of ${key}`);
}

/** How many Tab stops there are in `selector` (buttons that Tab reaches). */
async function tabStops(page: Page, selector: string): Promise<number> {
  return page
    .locator(`${selector} button:not([disabled])`)
    .evaluateAll((buttons) => buttons.filter((button) => (button as HTMLElement).tabIndex >= 0).length);
}

/** Presses Tab (or Shift+Tab) until the focused element's name matches, checking the focus at every stop. */
async function tabTo(page: Page, name: string | RegExp, { back = false, max = 120 } = {}): Promise<void> {
  const matches = (candidate: string) =>
    typeof name === 'string' ? candidate === name || candidate === `${name} *` : name.test(candidate);
  for (let step = 0; step < max; step += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    if (now.tag === 'body') continue;
    await expectVisibleFocus(page);
    if (matches(now.name)) return;
  }
  throw new Error(`no focusable element named ${String(name)} within ${max} Tab presses`);
}

test('logs in, picks a date and two slots, confirms and reaches the payment with the keyboard only', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const branch = await firstActiveBranch(request);
  const day = await slotsOn(request, branch, 56);
  const [first, second] = [day.slots[3]!, day.slots[4]!];
  await open(page, '/pt');

  // The auth modal.
  await tabTo(page, 'Entrar ou registar');
  await page.keyboard.press('Enter');
  const login = page.getByRole('dialog', { name: 'Iniciar sessão' });
  await expect(login).toBeVisible();
  // The modal opens on its first field, not on its Close button (issue 30).
  await expect(login.getByLabel(/^E-mail/)).toBeFocused();
  await page.keyboard.type(DEMO_ACCOUNT.email);
  await tabTo(page, 'Palavra-passe');
  await page.keyboard.type(DEMO_ACCOUNT.password);
  // Back and forth: Shift+Tab returns to the e-mail, which kept its value.
  await tabTo(page, 'E-mail', { back: true });
  await expect(login.getByLabel(/^E-mail/)).toHaveValue(DEMO_ACCOUNT.email);
  await tabTo(page, 'Entrar');
  await page.keyboard.press('Enter');
  await expect(login).toHaveCount(0);
  await expect(page.getByRole('button', { name: /menu da conta/ })).toBeVisible();

  // The booking modal from the branch card.
  await tabTo(page, `Reservar em ${branch.name}`);
  await page.keyboard.press('Enter');
  const booking = page.getByRole('dialog', { name: branch.name });
  await expect(booking).toBeVisible();
  for (let month = 0; month < monthsBetween(day.today, day.date); month += 1) {
    await tabTo(page, 'Mês seguinte');
    await page.keyboard.press('Enter');
  }
  const date = await dayName(page, 'pt', day.date);
  // The calendar is one tab stop; the arrows move inside it (Down a week, Right a day).
  expect(await tabStops(page, '.calendar__grid')).toBe(1);
  await tabTo(page, /^\S+, \d+ de \S+ de \d{4}$/);
  await page.keyboard.press('Home');
  await arrowTo(page, date);
  await page.keyboard.press('Enter');
  await expect(booking.getByRole('heading', { name: date })).toBeVisible();
  await expect(booking.getByRole('button', { name: date, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  const slots = booking.getByRole('group', { name: 'Horários' });
  // The day's slots arrive after the heading: count the grid's tab stops once it is there, not the loading line.
  await expect(slots).toBeVisible();
  expect(await tabStops(page, '.slot-grid')).toBe(1);
  await tabTo(page, /^\d{2}:\d{2} - \d{2}:\d{2}/);
  await page.keyboard.press('Home');
  await arrowTo(page, new RegExp(`^${range(first)}`));
  await page.keyboard.press('Space');
  await expect(slots.getByRole('button', { name: new RegExp(`^${range(first)}`) })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // The next slot, one row down or one to the right: the arrows follow the grid's rows.
  await arrowTo(page, new RegExp(`^${range(second)}`));
  await page.keyboard.press('Enter');
  await expect(slots.getByRole('button', { name: new RegExp(`^${range(second)}`) })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await tabTo(page, 'Confirmar reserva');
  await page.keyboard.press('Enter');

  // The summary: Escape closes it and leaves the selection; then the terms and Confirm.
  const summary = page.getByRole('dialog', { name: 'Resumo da reserva' });
  await expect(summary).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(summary).toHaveCount(0);
  await expect(booking).toBeVisible();
  await tabTo(page, 'Confirmar reserva');
  await page.keyboard.press('Enter');
  await expect(summary).toBeVisible();
  await expect(summary).toContainText(range(first));
  await expect(summary).toContainText(range(second));
  await tabTo(page, /regras, termos e condições/);
  const checkbox = summary.getByRole('checkbox');
  // The link inside the label comes before or after the box: reach the box itself.
  if (!(await checkbox.evaluate((element) => element === document.activeElement)))
    await tabTo(page, /Concordo com as/, { back: true, max: 3 });
  await page.keyboard.press('Space');
  await expect(checkbox).toBeChecked();
  await tabTo(page, 'Confirmar');
  await page.keyboard.press('Enter');

  // The payment dialog; Escape closes it, then the booking modal.
  const payment = page.getByRole('dialog', { name: 'Pagamento' });
  await expect(payment).toBeVisible();
  await expect(summary).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(payment).toHaveCount(0);
  await expect(booking).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(booking).toHaveCount(0);
  await expect(page).not.toHaveURL(/booking_tab/);
});
