import { expect, test } from './support/test.ts';
import { apiLogin, bookAndPay, storeToken, verifiedPerson } from './support/accounts.ts';
import { expectNoSeriousViolations } from './support/axe.ts';
import { firstActiveBranch, onPublicOrigin, slotsOn } from './support/booking.ts';

// Issue 31: a guest with a door code of their own. The member adds a guest in My bookings; the branch's virtual
// door then holds two codes for the booking's window (the member's and the guest's), each opening it; removing
// the guest takes their code off the door and the keypad refuses it, while the member's still opens.

test('a guest added in My bookings gets a code of their own on the door, gone once removed', async ({
  page,
  request,
  baseURL,
}) => {
  const branch = await firstActiveBranch(request);
  const person = await verifiedPerson(request, 'guests');
  const token = await apiLogin(request, person);
  const { slots } = await slotsOn(request, branch, 13);
  const slot = slots[3]!;
  await bookAndPay(request, token, [slot]);

  await storeToken(page, token);
  await page.goto(onPublicOrigin(baseURL, '/pt?account_tab=myBookings'));
  const account = page.getByRole('dialog', { name: 'A minha conta' });
  await account.getByRole('button', { name: /^Convidados da reserva de / }).click();
  const guests = page.getByRole('dialog', { name: /^Convidados: / });
  await expect(guests.getByText('Ainda não tem convidados nesta reserva.')).toBeVisible();
  await guests.getByLabel('Nome do convidado').fill('Rita Gomes');
  await guests.getByLabel('Telemóvel do convidado').fill('912');
  await guests.getByRole('button', { name: 'Adicionar convidado' }).click();
  await expect(guests.getByRole('alert')).toHaveText(
    'O número de telefone tem de incluir o indicativo do país e ser válido',
  );
  await guests.getByLabel('Telemóvel do convidado').fill('+351 912 345 678');
  await guests.getByRole('button', { name: 'Adicionar convidado' }).click();
  const rita = guests.getByRole('listitem').filter({ hasText: 'Rita Gomes' });
  await expect(rita).toContainText('+351912345678');
  await expect(rita).toContainText(/código (a ser programado|pronto) na porta/);
  await expectNoSeriousViolations(page, 'guests dialog');

  // The door holds two codes for the booking's window: the member's and Rita's; both open it.
  const start = new Date(slot.start_time).getTime();
  const windowStart = new Date(start - 15 * 60_000).toISOString();
  const keypad = await page.context().newPage();
  const rows = keypad.getByRole('row').filter({ hasText: windowStart });
  await expect(async () => {
    await keypad.goto(onPublicOrigin(baseURL, `/api/dev/doors/${branch.id}`));
    await expect(rows).toHaveCount(2, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const codes = await Promise.all(
    (await rows.all()).map(async (row) => (await row.getByRole('cell').first().textContent())!.trim()),
  );
  expect(new Set(codes).size).toBe(2);
  const opens = async (code: string) =>
    (
      (await (
        await request.post(`/api/dev/doors/${branch.id}/enter`, {
          data: { code, at: new Date(start + 5 * 60_000).toISOString() },
        })
      ).json()) as { opened: boolean }
    ).opened;
  for (const code of codes) expect(await opens(code)).toBe(true);

  // Removed: Rita's code leaves the door, and the keypad refuses it; the member's code still opens.
  await rita.getByRole('button', { name: 'Remover Rita Gomes' }).click();
  await expect(guests.getByText('Ainda não tem convidados nesta reserva.')).toBeVisible();
  await expect(async () => {
    await keypad.goto(onPublicOrigin(baseURL, `/api/dev/doors/${branch.id}`));
    await expect(rows).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const left = (await rows.getByRole('cell').first().textContent())!.trim();
  const removed = codes.find((code) => code !== left)!;
  expect(await opens(removed)).toBe(false);
  expect(await opens(left)).toBe(true);
});
