// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema.gen.ts';
import {
  adminBranch,
  consoleNetwork,
  labelled,
  OWNER,
  renderConsole,
  type Console,
} from './support/console.tsx';
import { press } from './support/model.ts';
import type { Call } from './support/network.ts';

// Issue 31: the owner's credit packs page (`/pt/admin/credit-packs`, src/admin/pages/CreditPacks.tsx) through the
// real console: the list as the operator reads it, a new pack (each field's problem beside it, the request sent,
// the form emptied), a pack's changes in a dialog, taking a pack off sale and putting it back, and staff refused.
// Every request is answered at the network with a body the contract allows.

/** Intl's space between an amount and its currency. */
const NBSP = '\u00a0';

type Pack = components['schemas']['AdminCreditPack'];

const BRANCHES = [adminBranch(1, 'Centro'), adminBranch(2, 'Porto')];

const TEN_HOURS: Pack = {
  id: 1,
  name: '10 horas',
  branch: { id: 1, name: 'Centro' },
  all_branches: true,
  unit: 'hours',
  credit: 10,
  price_eur: 90,
  validity_days: 90,
  weekdays: null,
  from_time: null,
  to_time: null,
  active: true,
  sold: 4,
};
const MORNINGS: Pack = {
  id: 2,
  name: 'Manhãs',
  branch: { id: 2, name: 'Porto' },
  all_branches: false,
  unit: 'eur',
  credit: 50,
  price_eur: 45,
  validity_days: 1,
  weekdays: [1, 2, 3, 4, 5, 7],
  from_time: '07:00',
  to_time: '16:00',
  active: false,
  sold: 0,
};

/** The console with `packs` as the server's list (changed by the test as the server would change it). */
async function renderPacks(packs: Pack[], auto: Parameters<typeof consoleNetwork>[0] = {}) {
  const network = consoleNetwork({
    listAdminBranches: () => ({ status: 200, body: BRANCHES }),
    listAdminCreditPacks: () => ({ status: 200, body: packs }),
    ...auto,
  });
  rendered = await renderConsole('/pt/admin/credit-packs', { network, inspect: () => {} });
  await screen.findByRole('heading', { name: 'Pacotes de crédito', level: 2 }, { timeout: 10_000 });
  return network;
}

let rendered: Console | null = null;
afterEach(() => rendered?.stop());

const listCalls = (calls: Call[]) => calls.filter((call) => call.operationId === 'listAdminCreditPacks');
const cellsOf = (name: string) =>
  within(screen.getByRole('row', { name: new RegExp(`^${name}`) }))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
const newForm = () => screen.getByRole('region', { name: 'Novo pacote' });
const fill = (label: string, value: string, form: HTMLElement = newForm()) => {
  const field = labelled(label, form);
  fireEvent.change(field, { target: { value } });
  fireEvent.blur(field);
};
/** The problem said beside a field (Mantine's error, which the field names as its description). */
const problemOf = (label: string, form: HTMLElement = newForm()): string | null => {
  const field = labelled(label, form);
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const error = ids.map((id) => document.getElementById(id)).find((node) => node?.id.endsWith('-error'));
  return error?.textContent ?? null;
};

describe('the credit packs page', () => {
  it('lists every pack: branch, where it is spent, credit, price, validity, when, on sale, sold', async () => {
    await renderPacks([TEN_HOURS, MORNINGS]);
    await screen.findByRole('row', { name: /^10 horas/ });
    expect(cellsOf('10 horas')).toEqual([
      '10 horas',
      'Centrousa-se em todas as filiais',
      '10 h',
      `90${NBSP}€`,
      '90 dias',
      'Todos os dias, a qualquer hora',
      'à venda',
      '4',
      'AlterarRetirar de venda',
    ]);
    expect(cellsOf('Manhãs')).toEqual([
      'Manhãs',
      'Portousa-se só nesta filial',
      `50${NBSP}€`,
      `45${NBSP}€`,
      '1 dia',
      'segunda–sexta, domingo, das 07:00 às 16:00',
      'fora de venda',
      '0',
      'AlterarPôr à venda',
    ]);
    // Owners see the page in the console's navigation.
    expect(screen.getByRole('link', { name: 'Pacotes' }).getAttribute('aria-current')).toBe('page');
  });

  it('says what is wrong beside each field, a field once left and all of them on Criar, and sends nothing', async () => {
    const network = await renderPacks([]);
    await screen.findByText('Nenhum pacote.');
    // A field left with a bad value says so; the fields not yet filled say nothing yet.
    fill('Crédito (horas)', '0');
    expect(problemOf('Crédito (horas)')).toBe('O crédito tem de ser maior do que zero.');
    expect(problemOf('Nome')).toBeNull();
    fill('Crédito (horas)', '1,3');
    expect(problemOf('Crédito (horas)')).toBe(
      'As horas contam-se em quartos de hora, por exemplo 1,25 ou 10.',
    );
    press(within(newForm()).getByRole('button', { name: 'Criar' }));
    expect(problemOf('Nome')).toBe('Escreva o nome do pacote.');
    expect(problemOf('Filial que vende')).toBe('Escolha a filial que vende o pacote.');
    expect(problemOf('Preço (€)')).toBe('Escreva um valor em euros, por exemplo 49,90.');
    expect(problemOf('Validade (dias)')).toBe('Escreva um número inteiro de dias, de 1 a 1095.');
    // Euros are not counted in quarters, but in cents.
    fireEvent.change(labelled('Unidade', newForm()), { target: { value: 'eur' } });
    expect(problemOf('Crédito (€)')).toBeNull();
    fill('Crédito (€)', '-5');
    expect(problemOf('Crédito (€)')).toBe('O crédito tem de ser maior do que zero.');
    fill('Preço (€)', '12,345');
    expect(problemOf('Preço (€)')).toBe('Os euros têm no máximo duas casas decimais.');
    fill('Validade (dias)', '2000');
    expect(problemOf('Validade (dias)')).toBe('Escreva um número inteiro de dias, de 1 a 1095.');
    // The hours: both or neither, the end after the start, as HH:MM.
    fill('Desde (hora local, HH:MM)', '18:00');
    expect(problemOf('Até (hora local, HH:MM)')).toBe('Escreva também esta hora, ou deixe as duas vazias.');
    fill('Até (hora local, HH:MM)', '09:00');
    expect(problemOf('Até (hora local, HH:MM)')).toBe('A hora final tem de ser depois da inicial.');
    fill('Desde (hora local, HH:MM)', '25:00');
    expect(problemOf('Desde (hora local, HH:MM)')).toBe('Escreva a hora como HH:MM, por exemplo 07:00.');
    press(within(newForm()).getByRole('button', { name: 'Criar' }));
    expect(network.calls.some((call) => call.operationId === 'createAdminCreditPack')).toBe(false);
  });

  it('creates an off-peak pack as typed, then empties the form and lists it', async () => {
    const packs: Pack[] = [TEN_HOURS];
    const network = await renderPacks(packs, { createAdminCreditPack: () => undefined });
    await screen.findByRole('row', { name: /^10 horas/ });
    fill('Nome', '  Manhãs ');
    fireEvent.change(labelled('Filial que vende', newForm()), { target: { value: '2' } });
    fireEvent.change(labelled('Unidade', newForm()), { target: { value: 'eur' } });
    fill('Crédito (€)', '50');
    fill('Preço (€)', '44,90');
    fill('Validade (dias)', '30');
    for (const day of ['segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira'])
      fireEvent.click(within(newForm()).getByRole('checkbox', { name: day }));
    fill('Desde (hora local, HH:MM)', '7:00');
    fill('Até (hora local, HH:MM)', '16:00');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    const create = within(newForm()).getByRole('button', { name: 'Criar' });
    press(create);
    await waitFor(() => expect(create.dataset.loading).toBe('true'));
    const stored: Pack = {
      ...MORNINGS,
      id: 3,
      price_eur: 44.9,
      validity_days: 30,
      weekdays: [1, 2, 3, 4, 5],
    };
    const call = await network.answer(['createAdminCreditPack'], () => {
      packs.push(stored);
      return { status: 201, body: stored };
    });
    expect(call.body).toEqual({
      name: 'Manhãs',
      branch_id: 2,
      all_branches: false,
      unit: 'eur',
      credit: 50,
      price_eur: 44.9,
      validity_days: 30,
      weekdays: [1, 2, 3, 4, 5],
      from_time: '07:00',
      to_time: '16:00',
    });
    // The form is empty again for the next pack, with no problem shown; the list has the new pack.
    await waitFor(() => expect(labelled('Nome', newForm()).value).toBe(''));
    expect(labelled('Filial que vende', newForm()).value).toBe('');
    expect(labelled('Unidade', newForm()).value).toBe('hours');
    expect(labelled('Crédito (horas)', newForm()).value).toBe('');
    expect(within(newForm()).getByRole('checkbox', { name: 'segunda-feira' })).toHaveProperty(
      'checked',
      false,
    );
    expect(problemOf('Nome')).toBeNull();
    await screen.findByRole('row', { name: /^Manhãs/ });
    expect(listCalls(network.calls)).toHaveLength(2);
  });

  it('shows the server’s refusal on the form and keeps what was typed', async () => {
    await renderPacks([], {
      createAdminCreditPack: () => ({
        status: 404,
        body: { code: 'branch_not_found', detail: 'Filial não encontrada.' },
      }),
    });
    await screen.findByText('Nenhum pacote.');
    fill('Nome', '5 horas');
    fireEvent.change(labelled('Filial que vende', newForm()), { target: { value: '1' } });
    fill('Crédito (horas)', '5');
    fill('Preço (€)', '50');
    fill('Validade (dias)', '60');
    fireEvent.click(within(newForm()).getByRole('checkbox', { name: 'Válido em todas as filiais' }));
    press(within(newForm()).getByRole('button', { name: 'Criar' }));
    expect((await within(newForm()).findByRole('alert')).textContent).toBe('Filial não encontrada.');
    expect(labelled('Nome', newForm()).value).toBe('5 horas');
    expect(within(newForm()).getByRole('checkbox', { name: 'Válido em todas as filiais' })).toHaveProperty(
      'checked',
      true,
    );
  });

  it('changes a pack in its dialog, sending only what changed, then closes it and reloads the list', async () => {
    const packs: Pack[] = [TEN_HOURS, MORNINGS];
    const network = await renderPacks(packs, { updateAdminCreditPack: () => undefined });
    press(await screen.findByRole('button', { name: 'Alterar Manhãs' }));
    const dialog = await screen.findByRole('dialog', { name: 'Alterar o pacote Manhãs' });
    expect(labelled('Nome', dialog).value).toBe('Manhãs');
    expect(labelled('Filial que vende', dialog).value).toBe('2');
    expect(labelled('Crédito (€)', dialog).value).toBe('50');
    expect(labelled('Desde (hora local, HH:MM)', dialog).value).toBe('07:00');
    expect(within(dialog).getByRole('checkbox', { name: 'domingo' })).toHaveProperty('checked', true);
    const save = within(dialog).getByRole('button', { name: 'Guardar' });
    // Nothing changed yet: nothing to save.
    expect(save).toHaveProperty('disabled', true);
    // A bad change is said beside its field, and not sent.
    fill('Até (hora local, HH:MM)', '06:00', dialog);
    expect(problemOf('Até (hora local, HH:MM)', dialog)).toBe('A hora final tem de ser depois da inicial.');
    fill('Até (hora local, HH:MM)', '12:00', dialog);
    fill('Preço (€)', '39,5', dialog);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'domingo' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Válido em todas as filiais' }));
    press(save);
    const changed: Pack = {
      ...MORNINGS,
      price_eur: 39.5,
      to_time: '12:00',
      weekdays: [1, 2, 3, 4, 5],
      all_branches: true,
    };
    const call = await network.answer(['updateAdminCreditPack'], () => {
      packs[1] = changed;
      return { status: 200, body: changed };
    });
    expect(new URL(call.request.url).pathname).toBe('/api/admin/credit-packs/2');
    expect(call.body).toEqual({
      price_eur: 39.5,
      to_time: '12:00',
      weekdays: [1, 2, 3, 4, 5],
      all_branches: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(cellsOf('Manhãs')[5]).toBe('segunda–sexta, das 07:00 às 12:00'));
    expect(cellsOf('Manhãs')[1]).toBe('Portousa-se em todas as filiais');
    expect(listCalls(network.calls)).toHaveLength(2);
  });

  it('takes a pack off sale and puts it back on sale', async () => {
    const packs: Pack[] = [TEN_HOURS];
    const sent: unknown[] = [];
    const network = await renderPacks(packs, {
      updateAdminCreditPack: (call) => {
        expect(new URL(call.request.url).pathname).toBe('/api/admin/credit-packs/1');
        sent.push(call.body);
        packs[0] = { ...packs[0]!, active: (call.body as { active: boolean }).active };
        return { status: 200, body: packs[0] };
      },
    });
    press(await screen.findByRole('button', { name: 'Retirar de venda 10 horas' }));
    await waitFor(() => expect(cellsOf('10 horas')[6]).toBe('fora de venda'));
    press(screen.getByRole('button', { name: 'Pôr à venda 10 horas' }));
    await waitFor(() => expect(cellsOf('10 horas')[6]).toBe('à venda'));
    expect(sent).toEqual([{ active: false }, { active: true }]);
    expect(listCalls(network.calls)).toHaveLength(3);
  });

  it('says why a change of sale failed beside the list', async () => {
    await renderPacks([TEN_HOURS], {
      updateAdminCreditPack: () => ({
        status: 404,
        body: { code: 'not_found', detail: 'Este pacote já não existe.' },
      }),
    });
    press(await screen.findByRole('button', { name: 'Retirar de venda 10 horas' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Este pacote já não existe.');
  });

  it('refuses staff before the page asks for anything, and shows no link to it', async () => {
    const network = await (async () => {
      const staff = consoleNetwork({
        getOperatorMe: () => ({ status: 200, body: { ...OWNER, role: 'staff' } }),
        listAdminCreditPacks: () => ({ status: 200, body: [] }),
      });
      rendered = await renderConsole('/pt/admin/credit-packs', { network: staff, inspect: () => {} });
      return staff;
    })();
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toContain(
      'Esta página é só para responsáveis.',
    );
    expect(screen.queryByRole('link', { name: 'Pacotes' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Reservas' })).toBeTruthy();
    expect(listCalls(network.calls)).toEqual([]);
  });

  it('says the page is for owners when the server refuses the list', async () => {
    await renderPacks([], {
      listAdminCreditPacks: () => ({
        status: 403,
        body: { code: 'operator_forbidden', detail: 'Só para responsáveis.' },
      }),
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Esta página é só para responsáveis.');
  });
});
