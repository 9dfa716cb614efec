import { expect, test, type Page } from './support/test.ts';
import type { ChildProcess } from 'node:child_process';
import { apiLogin, bookAndPay, bookableSlots, field, outbox, verifiedPerson } from './support/accounts.ts';
import { expectNoSeriousViolationsOnPage } from './support/axe.ts';
import { docScreenshot } from './support/doc-screenshot.ts';
import {
  addOperatorWithCli,
  freePort,
  newDataDir,
  startConsoleServer,
  stopConsoleServer,
} from './support/console-server.ts';
import { operatorSession } from './support/operators.ts';

// Talking to members (issue 32, item 3) in Chromium against the real server: an owner writes to everyone booked at
// a branch in a period, sees how many it reaches, sends; the member's e-mail and SMS are read in the development
// outbox, and the console shows how each went. Notes on the member's page. Every new page passes axe at phone and
// desktop width.

// A port of its own: the console's specs run at once in several workers, each with its own server.
const PORT = await freePort();
const BASE = `http://127.0.0.1:${PORT}`;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let ownerToken = '';

async function asOwner(page: Page): Promise<void> {
  await page.addInitScript((token) => window.localStorage.setItem('admin_token', token), ownerToken);
}

/** An ISO time of the branch (with its offset) as the console's date fields take it: 26/03/2026 19:00. */
const typed = (iso: string) =>
  `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)}`;

let member: Awaited<ReturnType<typeof verifiedPerson>>;

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  const dataDir = newDataDir();
  const owner = addOperatorWithCli(dataDir, 'dona@ginasio.example', 'owner');
  server = await startConsoleServer(dataDir, PORT);
  ownerToken = await operatorSession(request, owner);
});

test.afterAll(async () => {
  await stopConsoleServer(server);
});

for (const [width, height, device] of [
  [1280, 900, 'desktop'],
  [390, 844, 'phone'],
] as const) {
  test(`a broadcast read in the outbox (${device})`, async ({ page, request }) => {
    test.setTimeout(120_000);
    member = await verifiedPerson(request, `broadcast-${device}`);
    const { branch, slots } = await bookableSlots(request, device === 'desktop' ? 4 : 5);
    const slot = slots[0]!;
    await bookAndPay(request, await apiLogin(request, member), [slot]);

    await asOwner(page);
    await page.setViewportSize({ width, height });
    await page.goto('/pt/admin/broadcasts');
    await expect(page.getByRole('heading', { level: 2, name: 'Mensagens aos clientes' })).toBeVisible();
    await field(page, 'Filial').selectOption(String(branch.id));
    await field(page, 'Desde (hora da filial)').fill(typed(slot.start_time));
    await field(page, 'Até (hora da filial)').fill(typed(slot.end_time));
    await page.getByRole('checkbox', { name: 'SMS' }).check();
    await field(page, 'Assunto (Português)').fill('Ar condicionado avariado');
    const text = `O ar condicionado está avariado esta noite (${device}). Pedimos desculpa.`;
    await field(page, 'Mensagem (Português)').fill(text);
    await expect(page.getByText(`${text.length} caracteres`)).toBeVisible();
    await expectNoSeriousViolationsOnPage(page, `console, Messages form (${device})`);
    await page.getByRole('button', { name: 'Ver os destinatários' }).click();
    await expect(page.getByText(/1 cliente com reserva paga nesse período recebe a mensagem/)).toBeVisible();
    await expectNoSeriousViolationsOnPage(page, `console, Messages review (${device})`);
    await docScreenshot(page, `admin-broadcast-review-${device}`, true);
    await page.getByRole('button', { name: 'Enviar a mensagem' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Mensagem enviada a 1 cliente' })).toBeVisible();

    // The member reads it: the e-mail in their language with the operator's words, and the SMS.
    await expect
      .poll(async () => (await outbox(request, member.email)).some((message) => message.text.includes(text)))
      .toBe(true);
    const email = (await outbox(request, member.email)).find((message) => message.text.includes(text))!;
    expect(email.subject).toBe('Ar condicionado avariado');
    expect(email.text).toContain(`Recebe esta mensagem porque tem uma reserva em ${branch.name}`);
    await expect
      .poll(async () => (await outbox(request, member.phone)).map((message) => message.text))
      .toContain(text);

    // How each message went, in the list.
    await page.getByRole('button', { name: 'Ver os envios' }).first().click();
    const deliveries = page.getByRole('table', { name: 'Envios de «Ar condicionado avariado»' }).first();
    await expect(deliveries).toContainText(member.email.toLowerCase());
    await expect(deliveries).toContainText(/só no registo|enviada|na fila/);
    await expectNoSeriousViolationsOnPage(page, `console, Messages list (${device})`);
    await docScreenshot(page, `admin-broadcasts-${device}`, true);
  });
}

test('notes on a member, on the member’s console page', async ({ page, request }) => {
  const found = (await (
    await request.get(`/api/admin/members?q=${encodeURIComponent(member.email)}`, {
      headers: { Authorization: `Bearer ${ownerToken}` },
    })
  ).json()) as { items: { id: string }[] };
  const id = found.items[0]!.id;
  await asOwner(page);
  for (const [width, height, device] of [
    [1280, 900, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/pt/admin/members/${id}`);
    await expect(page.getByRole('heading', { name: 'Notas internas' })).toBeVisible();
    const note = `Deixou a porta aberta (${device}).`;
    await field(page, 'Nova nota').fill(note);
    await page.getByRole('button', { name: 'Guardar a nota' }).click();
    const notes = page.getByRole('region', { name: 'Notas internas' });
    await expect(notes.getByText(note)).toBeVisible();
    await expect(notes.getByText(/dona@ginasio\.example/).first()).toBeVisible();
    await expect(field(page, 'Nova nota')).toHaveValue('');
    await expectNoSeriousViolationsOnPage(page, `console, member notes (${device})`);
    await docScreenshot(page, `admin-member-notes-${device}`, true);
  }
});
