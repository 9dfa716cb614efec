import type { ChildProcess } from 'node:child_process';
import { expect, test, type Page } from './support/test.ts';
import { apiLogin, bookAndPay, verifiedPerson } from './support/accounts.ts';
import { expectNoSeriousViolationsOnPage } from './support/axe.ts';
import { slotsOn, type ApiBranch } from './support/booking.ts';
import { docScreenshot } from './support/doc-screenshot.ts';
import {
  addOperatorWithCli,
  freePort,
  newDataDir,
  startConsoleServer,
  stopConsoleServer,
} from './support/console-server.ts';
import { consoleSession, signedInWith } from './support/operators.ts';

// The occupancy heatmap (issue 32, item 6) in Chromium against the real server with the demo's branches: members
// book evenings over the next days, and the owner reads on the Money page each branch's occupancy by weekday and
// hour, as a table a screen reader reads with its headers; the branch not open yet has no open hours. The page
// passes axe at phone and desktop width, where the grid scrolls sideways inside its own focusable region.

// A port of its own: the console's specs run at once in several workers, each with its own server.
const PORT = await freePort();
const BASE = `http://127.0.0.1:${PORT}`;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let ownerToken = '';
/** The booked slots' local weekday (Monday 1) and hour, by branch name. */
const booked = new Map<string, { weekday: number; hour: number }[]>();

/** The ISO weekday and hour of a slot's start, as its ISO text (with the branch's offset) writes them. */
function localHour(iso: string) {
  const day = new Date(`${iso.slice(0, 10)}T12:00:00Z`).getUTCDay();
  return { weekday: day === 0 ? 7 : day, hour: Number(iso.slice(11, 13)) };
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  const dataDir = newDataDir();
  const owner = addOperatorWithCli(dataDir, 'dona.mapa@ginasio.example', 'owner');
  server = await startConsoleServer(dataDir, PORT);
  ownerToken = await consoleSession(request, owner);
  // Evenings over the next eight days at the two open branches, busier at Lisbon, a few mornings too.
  const branches = ((await (await request.get('/api/bookings/branches')).json()) as ApiBranch[]).filter(
    (branch) => branch.active_with_smart_lock,
  );
  const person = await verifiedPerson(request, 'heatmap');
  const token = await apiLogin(request, person);
  for (const [index, branch] of branches.entries()) {
    const hours = index === 0 ? [7, 8, 18, 19, 20] : [19];
    for (let day = 1; day <= 8; day += 1) {
      const { slots } = await slotsOn(request, branch, day);
      const chosen = slots.filter((slot) => {
        const { hour } = localHour(slot.start_time);
        return hours.includes(hour) && (hour >= 18 || day % 2 === 0);
      });
      if (chosen.length === 0) continue;
      await bookAndPay(request, token, chosen);
      booked.set(branch.name, [
        ...(booked.get(branch.name) ?? []),
        ...chosen.map((slot) => localHour(slot.start_time)),
      ]);
    }
  }
});

test.afterAll(async () => {
  await stopConsoleServer(server);
});

async function openMoneyPage(page: Page) {
  await signedInWith(page, ownerToken);
  await page.goto('/pt/admin/money');
  await expect(
    page.getByRole('heading', { level: 3, name: 'Ocupação por dia da semana e hora' }),
  ).toBeVisible();
}

const WEEKDAYS = [
  'segunda-feira',
  'terça-feira',
  'quarta-feira',
  'quinta-feira',
  'sexta-feira',
  'sábado',
  'domingo',
];

test('an owner reads each branch’s occupancy by weekday and hour, with its headers, and the branch not open yet has none', async ({
  page,
}) => {
  await openMoneyPage(page);
  const [lisbon, lisbonHours] = [...booked.entries()][0]!;
  const grid = page.getByRole('table', { name: `Ocupação de ${lisbon} por dia da semana e hora` });
  await expect(grid).toBeVisible();
  // A row a weekday, Monday first, each read by its full name; a column an hour (the demo's branches never close).
  const rowHeaders = grid.getByRole('rowheader');
  await expect(rowHeaders).toHaveCount(7);
  for (const [index, name] of WEEKDAYS.entries())
    await expect(rowHeaders.nth(index)).toHaveAccessibleName(name);
  const columnHeaders = grid.getByRole('columnheader');
  await expect(columnHeaders).toHaveCount(25);
  await expect(columnHeaders.nth(19)).toHaveAccessibleName('18:00–19:00');
  // Each booked hour's cell: booked hours over open hours, said with the weekday and hour it is in.
  for (const { weekday, hour } of lisbonHours) {
    const cell = grid
      .getByRole('row', { name: new RegExp(`^${WEEKDAYS[weekday - 1]}`) })
      .getByRole('cell')
      .nth(hour);
    await expect(cell).toHaveText(/^\d+\s?%$/);
    await expect(cell).not.toHaveText(/^0\s?%$/);
    await expect(cell).toHaveAttribute(
      'title',
      new RegExp(
        `^${WEEKDAYS[weekday - 1]} ${String(hour).padStart(2, '0')}:00: .* h reservadas de .* h abertas\\)$`,
      ),
    );
  }
  // Opening soon: no hour of it counts as open.
  await expect(page.getByText('Funchal – Lido: sem horas abertas neste período.')).toBeVisible();
  await expect(page.getByRole('table', { name: /^Ocupação de Funchal/ })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Legenda da ocupação' }).getByRole('listitem')).toHaveCount(6);
});

for (const [width, height, device] of [
  [1280, 900, 'desktop'],
  [390, 844, 'phone'],
] as const) {
  test(`the heatmap passes axe at ${device} width and fits the screen's width`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await openMoneyPage(page);
    const [lisbon] = [...booked.keys()];
    const grid = page.getByRole('table', { name: `Ocupação de ${lisbon} por dia da semana e hora` });
    await expect(grid).toBeVisible();
    // On a phone the grid is turned a quarter: a row an hour, a column a weekday.
    const [dayHeaders, hourHeaders] =
      device === 'phone'
        ? [grid.getByRole('columnheader'), grid.getByRole('rowheader')]
        : [grid.getByRole('rowheader'), grid.getByRole('columnheader')];
    // The corner's header is among the column headers.
    await expect(dayHeaders).toHaveCount(device === 'phone' ? 8 : 7);
    await expect(hourHeaders).toHaveCount(device === 'phone' ? 24 : 25);
    await expect(dayHeaders.last()).toHaveAccessibleName('domingo');
    await expect(hourHeaders.last()).toHaveAccessibleName('23:00–00:00');
    await page.waitForLoadState('networkidle');
    await expectNoSeriousViolationsOnPage(page, `money page with the heatmap at ${device} width`);
    // Neither the grid's own region nor the page scrolls sideways.
    const region = grid.locator('xpath=ancestor::*[@tabindex="0"][1]');
    const [scrollWidth, clientWidth] = await region.evaluate((element) => [
      element.scrollWidth,
      element.clientWidth,
    ]);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page
      .getByRole('heading', { level: 3, name: 'Ocupação por dia da semana e hora' })
      .evaluate((heading) => {
        // Below the console's top bar.
        heading.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -72);
      });
    await docScreenshot(page, `admin-heatmap-${device}`);
  });
}
