// @vitest-environment jsdom
import './support/mocks.ts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { adminBooking, consoleNetwork, renderConsole, type Console } from './support/console.tsx';
import { press } from './support/model.ts';
import type { Call } from './support/network.ts';

// Issue 31: the operator sees weekly series in the console. A booking made in a series says its week, and that
// line lists the series' weeks (the `series_id` filter, kept in the address); "Mostrar todas as reservas" drops it.

const booking = (id: number, week: number) =>
  adminBooking(id, {
    series: { id: 7, week, weeks: 3 },
    start_time: `2026-12-0${week}T10:00:00Z`,
    end_time: `2026-12-0${week}T11:00:00Z`,
  });

let rendered: Console | null = null;
afterEach(() => rendered?.stop());

it('lists a weekly series’ weeks from a booking’s series line, and all bookings again', async () => {
  const searches: URLSearchParams[] = [];
  const network = consoleNetwork({
    searchAdminBookings: (call: Call) => {
      const query = new URL(call.request.url).searchParams;
      searches.push(query);
      const items = query.get('series_id') === '7' ? [booking(3, 2), booking(2, 1)] : [booking(3, 2)];
      return {
        status: 200,
        body: { items, total: items.length, total_capped: false, page_size: 50, next: null, previous: null },
      };
    },
  });
  rendered = await renderConsole('/pt/admin/bookings', { network, inspect: () => {} });
  const line = await screen.findByRole('link', { name: 'Série semanal #7: semana 2 de 3' });
  expect(searches.at(-1)?.has('series_id')).toBe(false);

  press(line);
  await screen.findByText('Só as semanas da série semanal #7.');
  await screen.findByRole('link', { name: 'Série semanal #7: semana 1 de 3' });
  expect(searches.at(-1)?.get('series_id')).toBe('7');
  expect(rendered.location()).toMatch(/seriesId=7/);

  press(screen.getByRole('button', { name: 'Mostrar todas as reservas' }));
  await waitFor(() => expect(searches.at(-1)?.has('series_id')).toBe(false));
  expect(screen.queryByText('Só as semanas da série semanal #7.')).toBeNull();
  expect(rendered.location()).not.toMatch(/seriesId/);
});
