// @vitest-environment jsdom
import './support/mocks.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { adminBooking, consoleNetwork, labelled, renderConsole, type Console } from './support/console.tsx';
import { press } from './support/model.ts';
import type { Call } from './support/network.ts';

// Issue 33: the bookings list pages by cursor. "Mais antigas" asks for the page after this one's `next`,
// "Mais recentes" for the page before its `previous`, each kept in the address (Back and a shared link show the
// same page); a new filter starts from the newest again; the caption says how many bookings the search finds, or
// "Mais de 1000" when the server stopped counting there.

const booking = (id: number) =>
  adminBooking(id, { status: 'canceled', paid: false, paid_eur: 0, canceled_at: '2026-11-21T09:00:00Z' });

/** Three pages of a search that finds more than 1000 bookings; a search by name finds 2. */
const PAGES: Record<string, { ids: number[]; next: string | null; previous: string | null }> = {
  first: { ids: [30, 29], next: 'place-29', previous: null },
  'after:place-29': { ids: [28, 27], next: 'place-27', previous: 'place-28' },
  'after:place-27': { ids: [26], next: null, previous: 'place-26' },
  'before:place-26': { ids: [28, 27], next: 'place-27', previous: 'place-28' },
  'before:place-28': { ids: [30, 29], next: 'place-29', previous: null },
};

let rendered: Console | null = null;
afterEach(() => rendered?.stop());

it('turns the pages by cursor, in the address, and says how many bookings there are', async () => {
  const searches: URLSearchParams[] = [];
  const network = consoleNetwork({
    searchAdminBookings: (call: Call) => {
      const query = new URL(call.request.url).searchParams;
      searches.push(query);
      if (query.get('q') === 'Rita') {
        return {
          status: 200,
          body: {
            items: [booking(5), booking(4)],
            total: 2,
            total_capped: false,
            page_size: 50,
            next: null,
            previous: null,
          },
        };
      }
      const key = query.has('after')
        ? `after:${query.get('after')}`
        : query.has('before')
          ? `before:${query.get('before')}`
          : 'first';
      const page = PAGES[key]!;
      return {
        status: 200,
        body: {
          items: page.ids.map(booking),
          total: 1000,
          total_capped: true,
          page_size: 50,
          next: page.next,
          previous: page.previous,
        },
      };
    },
  });
  rendered = await renderConsole('/pt/admin/bookings', { network, inspect: () => {} });
  const shown = () => screen.getAllByRole('link', { name: /^#\d+$/ }).map((link) => link.textContent);
  await screen.findByRole('link', { name: '#30' });
  expect(screen.getByText(/^Mais de 1[\s.\u00a0\u202f]?000 reservas$/)).toBeTruthy();
  const newer = () => screen.getByRole('button', { name: 'Mais recentes' });
  const older = () => screen.getByRole('button', { name: 'Mais antigas' });
  expect(newer()).toHaveProperty('disabled', true);

  press(older());
  await screen.findByRole('link', { name: '#28' });
  expect(shown()).toEqual(['#28', '#27']);
  expect(searches.at(-1)?.get('after')).toBe('place-29');
  expect(rendered.location()).toMatch(/after=place-29/);

  press(older());
  await screen.findByRole('link', { name: '#26' });
  expect(older()).toHaveProperty('disabled', true);
  expect(rendered.location()).toMatch(/after=place-27/);

  press(newer());
  await screen.findByRole('link', { name: '#28' });
  expect(searches.at(-1)?.get('before')).toBe('place-26');
  expect(searches.at(-1)?.has('after')).toBe(false);
  expect(rendered.location()).toMatch(/before=place-26/);
  expect(rendered.location()).not.toMatch(/after=/);

  // A new search starts from the newest: no cursor asked for or kept.
  fireEvent.change(labelled('Cliente (e-mail, telefone ou nome)'), { target: { value: 'Rita' } });
  await screen.findByRole('link', { name: '#5' });
  expect(searches.at(-1)?.has('before')).toBe(false);
  expect(rendered.location()).not.toMatch(/before=|after=/);
  expect(screen.getByText('2 reservas')).toBeTruthy();
  // One page: nothing to turn.
  expect(screen.queryByRole('button', { name: 'Mais antigas' })).toBeNull();
});

it('opens the page a shared link names', async () => {
  const searches: URLSearchParams[] = [];
  const network = consoleNetwork({
    searchAdminBookings: (call: Call) => {
      searches.push(new URL(call.request.url).searchParams);
      return {
        status: 200,
        body: {
          items: [booking(28)],
          total: 3,
          total_capped: false,
          page_size: 50,
          next: null,
          previous: 'place-28',
        },
      };
    },
  });
  rendered = await renderConsole('/pt/admin/bookings?after=place-29&branchId=1', {
    network,
    inspect: () => {},
  });
  await screen.findByRole('link', { name: '#28' });
  await waitFor(() => expect(searches.at(-1)?.get('after')).toBe('place-29'));
  expect(searches.at(-1)?.get('branch_id')).toBe('1');
  expect(screen.getByText('3 reservas')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Mais recentes' })).toHaveProperty('disabled', false);
});
