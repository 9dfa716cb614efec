import { expect, test, type Page, type Request } from '@playwright/test';
import type { EventFrom, SnapshotFrom } from 'xstate';
import { ApiError } from '../machines/api.ts';
import { bookingMachine } from '../machines/booking.machine.ts';
import type { TimeSlot } from '../machines/booking.pricing.ts';
import { generatePaths } from '../tests/machines/model/paths.ts';
import { apiLogin, DEMO_ACCOUNT, storeToken, verifiedPerson } from './support/accounts.ts';
import {
  bookingDialog,
  dayLabel,
  firstActiveBranch,
  holdByApi,
  range,
  slotsOn,
  type ApiSlot,
} from './support/booking.ts';
import { open } from './support/fixtures.ts';
import {
  covering,
  reportCoverage,
  runPath,
  titleOf,
  withoutPrefixes,
  type ModelDriver,
} from './support/model.ts';

type Event = EventFrom<typeof bookingMachine>;
type Snapshot = SnapshotFrom<typeof bookingMachine>;

// The real world of each path: the demo account, logged in, books one slot of its own some days ahead (THE_DAY
// in the model, the path's real date in the browser); the model lists only that slot. WELCOME5 is the real 5%
// coupon, NOPE-0000 a code that does not exist; a 409 is another account taking the slot through the API just
// before Confirm. The driver maps the model's dates to the real ones.
// Left to the vitest model (no deterministic way to make the real server or browser give them): a failed
// local-time or slot load, an unreachable coupon check, a provider failure (503) or a free booking (no checkout:
// no 100% coupon exists), a Stripe checkout that fails to start (`payment.failed`), days before today (their
// buttons are disabled), the confirmed dialog, and the session events (the logged-out start and its pending slot
// are covered by e2e/booking.spec.ts).
const TODAY = '2026-11-23';
const THE_DAY = '2026-11-26';
const SLOT: TimeSlot = {
  id: 1,
  start_time: `${THE_DAY}T10:00:00+00:00`,
  end_time: `${THE_DAY}T11:00:00+00:00`,
  basic_price_eur: 20,
  is_bookeable: true,
};
const TAKEN: TimeSlot = { ...SLOT, is_bookeable: false };
const WELCOME = 'WELCOME5';
const UNKNOWN = 'NOPE-0000';

const ours = (state: Snapshot) => state.context.slots.find((slot) => slot.id === SLOT.id);
const isSelected = (state: Snapshot) => state.context.selected.some((slot) => slot.id === SLOT.id);

function events(state: Snapshot): Event[] {
  const { context } = state;
  const answer = (type: string, extra: object = {}) => ({ type, ...extra }) as unknown as Event;
  if (state.matches('loadingToday'))
    return [answer('xstate.done.actor.loadLocalTime', { output: `${TODAY}T08:00:00+00:00` })];
  if (state.matches('payment')) {
    // The held slot is no longer bookable once the slots reload behind the dialog.
    if (ours(state)?.is_bookeable === false) return [{ type: 'payment.close' }];
    return [answer('xstate.done.actor.loadSlots', { output: [TAKEN] })];
  }
  if (state.matches({ summary: 'reviewing' }))
    return [
      { type: 'terms.toggle' },
      { type: 'summary.close' },
      ...(context.termsAccepted ? [{ type: 'booking.confirm' } as Event] : []),
    ];
  if (state.matches({ summary: 'creating' }))
    return [
      answer('xstate.done.actor.createBooking', { output: 'cs_local_1_secret_x' }),
      answer('xstate.error.actor.createBooking', {
        error: new ApiError('slot_unavailable', 'Este horário já não está disponível.'),
      }),
    ];
  if (!state.matches('browsing')) return [];
  if (state.matches({ browsing: { slots: 'loading' } })) {
    // Only THE_DAY's list is modelled; after a booking the slot comes back taken.
    const list = context.date !== THE_DAY ? [] : context.slots.length > 0 ? context.slots : [SLOT];
    return [answer('xstate.done.actor.loadSlots', { output: list })];
  }
  if (state.matches({ browsing: { coupon: 'checking' } }))
    return [
      context.couponInput === WELCOME
        ? answer('xstate.done.actor.checkCoupon', { output: { id: 1, discount: 0.05, remaining_uses: null } })
        : answer('xstate.error.actor.checkCoupon', {
            error: new ApiError('invalid_coupon', 'Código de cupão inválido.'),
          }),
    ];
  // The logged-in member's offered coupon is looked up first; the e2e server offers none (the journeys keep their
  // prices), so the real answer, not held, is null.
  if (state.matches({ browsing: { coupon: 'offering' } }))
    return [answer('xstate.done.actor.loadOfferedCoupon', { output: null })];
  // Nothing is loading: the user can act (while a call is out, the app's loader covers the page).
  const offered: Event[] = [];
  if (state.matches({ browsing: { slots: 'ready' } })) {
    if (context.date !== THE_DAY) offered.push({ type: 'date.select', date: THE_DAY });
    const slot = ours(state);
    if (slot && (slot.is_bookeable || isSelected(state))) offered.push({ type: 'slot.toggle', slot });
    if (context.selected.length > 0) offered.push({ type: 'selection.clear' }, { type: 'summary.open' });
  }
  if (state.matches({ browsing: { coupon: 'idle' } })) {
    if (context.coupon) offered.push({ type: 'coupon.remove' });
    else if (context.couponInput === '')
      offered.push({ type: 'coupon.input', value: WELCOME }, { type: 'coupon.input', value: UNKNOWN });
    else if (context.couponError === null) offered.push({ type: 'coupon.apply' });
  }
  return offered;
}

const INPUT = { branchId: 1, loggedIn: true, fallbackToday: TODAY };
const SCRIPTED = ['loadLocalTime', 'loadSlots', 'checkCoupon', 'loadOfferedCoupon', 'createBooking'];
const allPaths = withoutPrefixes(
  generatePaths(bookingMachine, {
    events,
    input: INPUT,
    maxStatesForSimplePaths: 0,
    serializeState: (state) =>
      JSON.stringify([
        state.value,
        state.context.date,
        state.context.slots,
        state.context.selected.length,
        state.context.couponInput,
        state.context.coupon !== null,
        state.context.couponError !== null,
        state.context.termsAccepted,
        state.context.summaryError !== null,
      ]),
  }),
);
const paths = await covering(bookingMachine, allPaths, { scripted: SCRIPTED, input: INPUT });

type Data = { branchName: string; today: string; date: string; slot: ApiSlot; sessionToken: string };

let demoToken: Promise<string> | undefined;
let otherToken: Promise<string> | undefined;

const pathOf = (request: Request) => new URL(request.url()).pathname;

function realDate(data: Data, modelDate: string): string {
  return modelDate === THE_DAY ? data.date : data.today;
}

function dialogOf(page: Page, data: Data) {
  return bookingDialog(page, data.branchName);
}
function summaryOf(page: Page) {
  return page.getByRole('dialog', { name: 'Resumo da reserva' });
}
function slotButtonOf(page: Page, data: Data) {
  return dialogOf(page, data).getByRole('button', { name: new RegExp(`^${range(data.slot)}`) });
}

async function expectBrowsing(page: Page, data: Data, state: Snapshot) {
  const dialog = dialogOf(page, data);
  await expect(dialog).toBeVisible();
  await expect(summaryOf(page)).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Pagamento' })).toHaveCount(0);
  await expect(
    dialog.getByRole('heading', { name: dayLabel(realDate(data, state.context.date)) }),
  ).toBeVisible();
  // The buttons follow the machine: enabled exactly when it takes their event (a selection, the slots loaded).
  for (const [name, type] of [
    ['Desmarcar tudo', 'selection.clear'],
    ['Confirmar reserva', 'summary.open'],
  ] as const) {
    const button = dialog.getByRole('button', { name });
    if (state.can({ type })) await expect(button).toBeEnabled();
    else await expect(button).toBeDisabled();
  }
  // The coupon: applied, or the field with its error; Apply only with a code typed.
  const { coupon, couponInput, couponError } = state.context;
  if (coupon) {
    await expect(dialog.getByText('Cupão WELCOME5 aplicado: 5% de desconto')).toBeVisible();
  } else {
    await expect(dialog.getByLabel('Código de cupão')).toHaveValue(couponInput);
    await expect(dialog.getByText('Código de cupão inválido.')).toHaveCount(couponError ? 1 : 0);
    const apply = dialog.getByRole('button', { name: 'Aplicar' });
    if (state.matches({ browsing: { coupon: 'checking' } }))
      await expect(apply).toHaveAttribute('data-loading', 'true');
    else if (couponInput === '') await expect(apply).toBeDisabled();
    else await expect(apply).toBeEnabled();
  }
}

const driver: ModelDriver<typeof bookingMachine, Data> = {
  machine: bookingMachine,
  input: INPUT,
  calls: {
    loadLocalTime: (request) => pathOf(request).startsWith('/api/bookings/local-time/branch/'),
    loadSlots: (request) => pathOf(request).startsWith('/api/bookings/slots/'),
    checkCoupon: (request) => pathOf(request).startsWith('/api/bookings/coupon-code/'),
    createBooking: (request) => request.method() === 'POST' && pathOf(request) === '/api/bookings/',
  },
  async setup({ page, request }, path) {
    // One login per worker: the server allows 30 logins per 15 minutes from one address.
    demoToken ??= apiLogin(request, DEMO_ACCOUNT);
    const sessionToken = await demoToken;
    const branch = await firstActiveBranch(request);
    // Each path its own slot, 10 days ahead and on (every other slot: nothing of theirs is back to back).
    const index = paths.indexOf(path);
    const day = await slotsOn(request, branch, 10 + Math.floor(index / 6));
    const slot = day.slots[(index % 6) * 2 + 1]!;
    await storeToken(page, sessionToken);
    await open(page, `/pt?booking_tab=bookSessions&booking_branch_id=${branch.id}`);
    return { branchName: branch.name, today: day.today, date: day.date, slot, sessionToken };
  },
  act: {
    async 'date.select'({ page, data }) {
      const dialog = dialogOf(page, data);
      // The model's month is THE_DAY's; the real day may lie in the next month.
      if (data.date.slice(0, 7) !== data.today.slice(0, 7))
        await dialog.getByRole('button', { name: 'Mês seguinte' }).click();
      await dialog.getByRole('button', { name: dayLabel(data.date), exact: true }).click();
    },
    'slot.toggle': ({ page, data }) => slotButtonOf(page, data).click(),
    'selection.clear': ({ page, data }) =>
      dialogOf(page, data).getByRole('button', { name: 'Desmarcar tudo' }).click(),
    'summary.open': ({ page, data }) =>
      dialogOf(page, data).getByRole('button', { name: 'Confirmar reserva' }).click(),
    'coupon.input': ({ page, data }, event) =>
      dialogOf(page, data)
        .getByLabel('Código de cupão')
        .fill((event as Extract<Event, { type: 'coupon.input' }>).value),
    'coupon.apply': ({ page, data }) => dialogOf(page, data).getByRole('button', { name: 'Aplicar' }).click(),
    'coupon.remove': ({ page, data }) =>
      dialogOf(page, data).getByRole('button', { name: 'Remover cupão' }).click(),
    'terms.toggle': ({ page }) => summaryOf(page).getByRole('checkbox').click(),
    'summary.close': ({ page }) =>
      summaryOf(page).getByRole('button', { name: 'Cancelar', exact: true }).click(),
    async 'booking.confirm'({ page, request, data, rest }) {
      // A 409 next: another account takes the slot first, so the real server refuses this booking.
      if ((rest[0]?.event as { type: string } | undefined)?.type === 'xstate.error.actor.createBooking') {
        otherToken ??= verifiedPerson(request, 'modelo-outro').then((person) => apiLogin(request, person));
        await holdByApi(request, await otherToken, [data.slot]);
      }
      await summaryOf(page).getByRole('button', { name: 'Confirmar', exact: true }).click();
    },
    'payment.close': ({ page }) =>
      page.getByRole('dialog', { name: 'Pagamento' }).getByRole('button', { name: 'Fechar' }).click(),
  },
  states: [
    {
      name: 'the branch date is loading: the slots say so',
      matches: (state) => state.matches('loadingToday'),
      async expect({ page, data }) {
        await expect(dialogOf(page, data).getByRole('status')).toHaveText('A carregar os horários…');
      },
    },
    {
      name: 'the slots are loading',
      matches: (state) => state.matches({ browsing: { slots: 'loading' } }),
      async expect({ page, data }, state) {
        await expectBrowsing(page, data, state);
        await expect(dialogOf(page, data).getByRole('status')).toHaveText('A carregar os horários…');
      },
    },
    {
      name: 'the day, its slots, the selection and the coupon',
      matches: (state) => state.matches({ browsing: { slots: 'ready' } }),
      async expect({ page, data }, state) {
        await expectBrowsing(page, data, state);
        const slot = ours(state);
        if (state.context.date === THE_DAY && slot) {
          const button = slotButtonOf(page, data);
          await expect(button).toHaveAttribute('aria-pressed', String(isSelected(state)));
          if (slot.is_bookeable || isSelected(state)) await expect(button).toBeEnabled();
          else await expect(button).toBeDisabled();
        }
      },
    },
    {
      name: 'the summary with the slot, the terms and any refusal',
      matches: (state) => state.matches({ summary: 'reviewing' }),
      async expect({ page, data }, state) {
        const summary = summaryOf(page);
        await expect(summary).toBeVisible();
        await expect(summary.getByRole('region', { name: dayLabel(data.date) })).toContainText(
          range(data.slot),
        );
        const terms = summary.getByRole('checkbox');
        if (state.context.termsAccepted) await expect(terms).toBeChecked();
        else await expect(terms).not.toBeChecked();
        const confirm = summary.getByRole('button', { name: 'Confirmar', exact: true });
        if (state.context.termsAccepted) await expect(confirm).toBeEnabled();
        else await expect(confirm).toBeDisabled();
        const error = summary.getByRole('alert');
        if (state.context.summaryError) await expect(error).toHaveText(/\S/);
        else await expect(error).toHaveText('');
      },
    },
    {
      name: 'the summary is busy booking',
      matches: (state) => state.matches({ summary: 'creating' }),
      async expect({ page }) {
        const summary = summaryOf(page);
        await expect(summary.getByRole('button', { name: 'Confirmar', exact: true })).toHaveAttribute(
          'data-loading',
          'true',
        );
        await expect(summary.getByRole('button', { name: 'Cancelar', exact: true })).toBeDisabled();
      },
    },
    {
      name: 'the payment dialog with the checkout, the summary gone',
      matches: (state) => state.matches({ payment: 'checkout' }),
      async expect({ page }) {
        const payment = page.getByRole('dialog', { name: 'Pagamento' });
        await expect(payment).toBeVisible();
        await expect(payment.locator('iframe[title="Pagamento"]')).toBeVisible();
        await expect(summaryOf(page)).toHaveCount(0);
      },
    },
  ],
};

test.describe('the booking flow, driven by the model', () => {
  for (const path of paths) {
    test(`follows ${titleOf(path)}`, async ({ page, request, baseURL }) => {
      await runPath(driver, path, { page, request, baseURL });
    });
  }

  test('the paths run through the UI check every state they reach and cover 14 states and 20 transitions', async () => {
    console.log(
      `[model e2e] booking: ${allPaths.length} generated paths, ${paths.length} kept to cover them`,
    );
    await reportCoverage(driver, paths, SCRIPTED, { states: 14, transitions: 20 });
  });
});
