import type { Schemas } from './support/accounts.ts';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.ts';
import {
  bookAndPayOverHttp,
  createBookingOverHttp,
  paidBookingAt,
  newClient,
  outboxTo,
  startAccountApp,
  verifiedAccount,
  type AccountApp,
  type ErrorBody,
} from './support/accounts.ts';
import { createBranch, insertSlot } from './support/fixtures.ts';
import { loggedInOperator } from './support/operators.ts';

// The console over HTTP, on both storage targets: tokens kept apart on every operation of the contract, staff
// kept out of money and prices, and the console's changes (cancel, closure, block) with their refunds,
// messages and audit rows.

type Operation = {
  operationId: string;
  method: string;
  path: string;
  security: Record<string, unknown>[];
  description?: string;
};
const contract = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
);
const concrete = (path: string) =>
  path
    .replace('{session_id}', '00000000-0000-4000-8000-000000000000')
    .replace('{member_id}', '00000000-0000-4000-8000-000000000000')
    .replace('{coupon_code}', 'WELCOME5')
    .replace('{reset_token}', 'x')
    .replace('{code}', '123456')
    .replace('{date}', '2026-03-21')
    .replace(/\{[a-zA-Z_]+\}/g, '1');
const REASON = { reason: 'x' };
const BRANCH = {
  slug: 'tokens-branch',
  name: 'x',
  location: 'x',
  latitude: 0,
  longitude: 0,
  time_zone: 'Europe/Lisbon',
  default_price_eur: 1,
  images: ['/x.jpg'],
  descriptions: { pt: 'x', en: 'x', fr: 'x', de: 'x', sk: 'x' },
};
/** A request each operation would take (so the refusal can only be the token's), by operationId. */
const WELL_FORMED: Record<string, { body?: object; query?: string }> = {
  createOperator: { body: { email: 'x@gym.example', role: 'staff' } },
  adminCancelBooking: { body: { refund: { mode: 'none' }, ...REASON } },
  adminMoveBooking: { body: { time_slot_id: 1, ...REASON } },
  createClosure: {
    body: { branch_id: 1, starts_at: '2026-03-26T17:30:00Z', ends_at: '2026-03-26T20:30:00Z', ...REASON },
  },
  previewClosure: {
    body: { branch_id: 1, starts_at: '2026-03-26T17:30:00Z', ends_at: '2026-03-26T20:30:00Z', ...REASON },
  },
  previewBroadcast: {
    body: { branch_id: 1, starts_at: '2026-03-26T17:30:00Z', ends_at: '2026-03-26T20:30:00Z' },
  },
  createBroadcast: {
    body: {
      idempotency_key: '00000000-0000-4000-8000-000000000001',
      branch_id: 1,
      starts_at: '2026-03-26T17:30:00Z',
      ends_at: '2026-03-26T20:30:00Z',
      channels: ['email'],
      texts: { pt: { subject: 'x', body: 'x' } },
    },
  },
  addMemberNote: { body: { body: 'x' } },
  createAdminBranch: { body: BRANCH },
  updateAdminBranch: { body: { name: 'x' } },
  previewBranchUpdate: { body: { name: 'x' } },
  setBranchPrices: { body: { default_price_eur: 1, bands: [] } },
  unlockBranchDoor: { body: { reason: 'x', request_id: '00000000-0000-4000-8000-000000000000' } },
  setBranchOnCall: { body: { email: null, phone: null } },
  setBranchDatePrice: { body: { day_price_eur: 1, bands: [] } },
  createAdminCoupon: { body: { code: 'TOKENS', discount: 0.1 } },
  updateAdminCoupon: { body: { discount: 0.2 } },
  setAdminRefundPolicy: { body: { thresholds: [{ hours: 0, ratio: 1 }] } },
  refuseRefund: { body: REASON },
  setStaffRefundCeiling: { body: { staff_refund_ceiling_eur: 1 } },
  blockContact: { body: { kind: 'email', value: 'x@gym.example', cancel_future_bookings: false, ...REASON } },
  previewBlockContact: { body: { kind: 'email', value: 'x@gym.example' } },
  blockMember: { body: { cancel_future_bookings: false, ...REASON } },
  unblockMember: { body: REASON },
  eraseMember: { body: { confirm_email: 'x@gym.example', ...REASON } },
  listAdminPayments: { query: '?from=2026-03-01&to=2026-03-31' },
  getMoneyReport: { query: '?from=2026-03-01&to=2026-03-31' },
  getMoneyReportCsv: { query: '?from=2026-03-01&to=2026-03-31' },
  getOccupancyReport: { query: '?from=2026-03-01&to=2026-03-31' },
  getOccupancyReportCsv: { query: '?from=2026-03-01&to=2026-03-31' },
  getOccupancyHeatmap: { query: '?from=2026-03-01&to=2026-03-31' },
  updateMe: {
    body: {
      email: 'x@gym.example',
      phone_number: '+351910000001',
      first_name: 'x',
      last_name: 'x',
      agree_newsletter: false,
    },
  },
  createBooking: { body: { time_slot_id: [1], expected_total_final_price_eur: 15 } },
  getCheckoutSessionStatus: { query: '?stripe_session_id=cs_local_x' },
  resendAccessCode: { body: { booking_id: 1 } },
  cancelBookings: { body: { booking: [{ booking_id: 1, expected_refund_eur: 0 }] } },
  moveBooking: { body: { time_slot_id: 1, expected_price_difference_eur: 0 } },
};
const byScheme = (scheme: string) =>
  operations.filter((operation) => operation.security?.some((entry) => scheme in entry));

let counter = 0;
const unique = (role: string) => `${role}-${Date.now()}-${(counter += 1)}@gym.example`;

describe.each(DATABASE_TARGETS)('operator console on %s', (target) => {
  let server: AccountApp;
  let owner: Awaited<ReturnType<typeof loggedInOperator>>;
  let staff: Awaited<ReturnType<typeof loggedInOperator>>;
  let member: Awaited<ReturnType<typeof verifiedAccount>>;
  let branchId: number;

  const paidBooking = (account: typeof member, start: string, end: string) =>
    paidBookingAt(server.app, account, { branchId, start, end });

  const auditOf = (action: string, entityId: string | number) =>
    server.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action)
      .where('entity_id', '=', String(entityId))
      .execute();

  beforeAll(async () => {
    server = await startAccountApp(target);
    owner = await loggedInOperator(server.app, server.clock, unique('owner'), 'owner');
    server.clock.advance({ seconds: 30 });
    staff = await loggedInOperator(server.app, server.clock, unique('staff'), 'staff');
    member = await verifiedAccount(newClient(server.app), server.app, { locale: 'de' });
    branchId = await createBranch(server.app.db);
  });
  afterAll(async () => server?.close());

  it('refuses a member token on every /api/admin operation and an operator token on every member operation', async () => {
    const adminOperations = byScheme('operatorAuth');
    const memberOperations = byScheme('bearerAuth');
    expect(adminOperations.length).toBeGreaterThan(30);
    expect(memberOperations.length).toBeGreaterThan(5);
    const refused: string[] = [];
    for (const [list, token] of [
      [adminOperations, member.token],
      [memberOperations, owner.token],
    ] as const) {
      for (const operation of list) {
        const request = WELL_FORMED[operation.operationId] ?? {};
        const response = await server.app.inject({
          method: operation.method as 'GET',
          url: `/api${concrete(operation.path)}${request.query ?? ''}`,
          headers: { authorization: `Bearer ${token}` },
          ...(request.body ? { payload: request.body } : {}),
        });
        if (response.statusCode !== 401 || response.json<ErrorBody>().code !== 'unauthorized') {
          refused.push(`${operation.operationId}: ${response.statusCode}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it('answers staff 403 operator_forbidden on every owners-only operation, with nothing changed', async () => {
    const ownersOnly = operations.filter((operation) => operation.description?.includes('Owners only.'));
    expect(ownersOnly.map((operation) => operation.operationId).sort()).toEqual(
      [
        'adminResendDocument',
        'approveRefund',
        'createAdminBranch',
        'createAdminCoupon',
        'createAdminCreditPack',
        'createOperator',
        'exportMember',
        'getAdminRefundPolicy',
        'getBranchPrices',
        'getLedgerCsv',
        'getMoneyReport',
        'getMoneyReportCsv',
        'getOccupancyHeatmap',
        'getOccupancyReport',
        'getOccupancyReportCsv',
        'getStripeReconciliationCsv',
        'listAdminCoupons',
        'listAdminCreditPacks',
        'listAdminDocuments',
        'listAdminGiftVouchers',
        'listAdminPayments',
        'listOperators',
        'refuseRefund',
        'removeBranchDatePrice',
        'removeOperator',
        'setAdminRefundPolicy',
        'setBranchOnCall',
        'setBranchDatePrice',
        'setBranchPrices',
        'setOperatorBranches',
        'setStaffRefundCeiling',
        'updateAdminCoupon',
        'updateAdminCreditPack',
      ].sort(),
    );
    const bodies: Record<string, unknown> = {
      createAdminBranch: {
        slug: 'staff-branch',
        name: 'x',
        location: 'x',
        latitude: 0,
        longitude: 0,
        time_zone: 'Europe/Lisbon',
        default_price_eur: 1,
        images: ['/x.jpg'],
        descriptions: { pt: 'x', en: 'x', fr: 'x', de: 'x', sk: 'x' },
      },
      createAdminCoupon: { code: 'STAFF10', discount: 0.1 },
      createAdminCreditPack: {
        name: 'Staff',
        branch_id: 1,
        unit: 'hours',
        credit: 1,
        price_eur: 10,
        validity_days: 30,
      },
      updateAdminCreditPack: { active: false },
      createOperator: { email: 'new@gym.example', role: 'owner' },
      setAdminRefundPolicy: { thresholds: [{ hours: 0, ratio: 1 }] },
      setBranchPrices: { default_price_eur: 1, bands: [] },
      setBranchOnCall: { email: 'on-call@gym.example', phone: null },
      setOperatorBranches: { branch_ids: [1] },
      setBranchDatePrice: { day_price_eur: 1, bands: [] },
      refuseRefund: { reason: 'x' },
      setStaffRefundCeiling: { staff_refund_ceiling_eur: 1 },
      updateAdminCoupon: { discount: 0.9 },
    };
    const query = '?from=2026-03-01&to=2026-03-31';
    const answers: string[] = [];
    for (const operation of ownersOnly) {
      const response = await server.app.inject({
        method: operation.method as 'GET',
        url: `/api${concrete(operation.path)}${operation.method === 'GET' ? query : ''}`,
        headers: { authorization: `Bearer ${staff.token}` },
        ...(bodies[operation.operationId] ? { payload: bodies[operation.operationId] as object } : {}),
      });
      answers.push(`${operation.operationId}: ${response.statusCode} ${response.json<ErrorBody>().code}`);
    }
    expect(answers).toEqual(
      ownersOnly.map((operation) => `${operation.operationId}: 403 operator_forbidden`),
    );
    expect(
      await server.app.db.selectFrom('coupons').select('code').where('code', '=', 'STAFF10').execute(),
    ).toEqual([]);
    // Staff do see bookings and members.
    expect((await staff.client.get('/api/admin/bookings', staff.token)).statusCode).toBe(200);
    expect((await staff.client.get('/api/admin/members', staff.token)).statusCode).toBe(200);
  });

  it('cancels with an override amount up to what was paid, refunds once, tells the member and audits it', async () => {
    const bookingId = await paidBooking(member, '2026-03-25T10:00:00Z', '2026-03-25T11:00:00Z');
    const cancel = (amount: number) =>
      owner.client.json(
        'POST',
        `/api/admin/bookings/${bookingId}/cancel`,
        { refund: { mode: 'amount', amount_eur: amount }, reason: 'broken shower' },
        owner.token,
      );
    const tooMuch = await cancel(15.01);
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json<ErrorBody>().code).toBe('refund_exceeds_paid');
    const done = await cancel(7.5);
    expect(done.statusCode).toBe(200);
    const detail = done.json<Schemas['AdminBookingDetail']>();
    expect(detail.booking).toMatchObject({ status: 'canceled', refunded_eur: 7.5, paid_eur: 15 });
    expect(detail.history.map((event) => event.kind)).toEqual(
      expect.arrayContaining(['created', 'paid', 'canceled', 'refunded']),
    );
    // Facts, not sentences: the console words and formats them in the operator's language.
    const history = detail.history;
    const event = (kind: (typeof history)[number]['kind']) => history.find((entry) => entry.kind === kind);
    expect(event('paid')).toMatchObject({ amount_cents: 1500, currency: 'EUR', actor: null, reason: null });
    expect(event('refunded')).toMatchObject({
      amount_cents: 750,
      currency: 'EUR',
      reason: 'broken shower',
    });
    expect(event('canceled')).toMatchObject({ actor: owner.email, amount_cents: null });
    expect(history.every((entry) => !('detail' in entry))).toBe(true);
    const fetched = await owner.client.get(`/api/admin/bookings/${bookingId}`, owner.token);
    expect(
      fetched
        .json<Schemas['AdminBookingDetail']>()
        .messages.map((message) => `${message.kind} ${message.channel}`),
    ).toContain('booking_canceled email');
    const again = await cancel(1);
    expect(again.json<ErrorBody>().code).toBe('booking_not_cancelable');
    const refunds = await server.app.db
      .selectFrom('refunds')
      .selectAll()
      .where('booking_id', '=', bookingId)
      .execute();
    expect(refunds.map((refund) => refund.amount_cents)).toEqual([750]);
    const [mail] = await outboxTo(server.app, member.email.toLowerCase());
    expect(mail?.text).toContain('Das Studio hat diese Buchung von Ihnen storniert');
    // The reason the operator gave is told to the member (issue 30).
    expect(mail?.text).toContain('Begründung des Studios: broken shower');
    const [audit] = await auditOf('booking.cancel', bookingId);
    expect(audit).toMatchObject({ operator_email: owner.email, reason: 'broken shower' });
    expect(audit!.after).toMatchObject({ refund_mode: 'amount', refunded_eur: 7.5 });
  });

  it('closes a branch for an evening: full refunds, a message in each member’s language, slots closed until reopened', async () => {
    const other = await verifiedAccount(newClient(server.app), server.app, { locale: 'fr' });
    const first = await paidBooking(member, '2026-03-26T18:00:00Z', '2026-03-26T19:00:00Z');
    const second = await paidBooking(other, '2026-03-26T19:00:00Z', '2026-03-26T20:00:00Z');
    const outside = await paidBooking(other, '2026-03-26T21:00:00Z', '2026-03-26T22:00:00Z');
    const period = {
      branch_id: branchId,
      starts_at: '2026-03-26T17:30:00Z',
      ends_at: '2026-03-26T20:30:00Z',
      reason: 'leak',
    };
    const preview = await owner.client.json('POST', '/api/admin/closures/preview', period, owner.token);
    const previewed = preview.json<Schemas['ClosurePreview']>();
    expect(previewed.bookings.map((booking) => booking.id).sort()).toEqual([first, second].sort());
    expect(previewed.refund_total_eur).toBe(30);

    const created = await owner.client.json('POST', '/api/admin/closures', period, owner.token);
    expect(created.statusCode).toBe(201);
    const closure = created.json<Schemas['Closure']>();
    expect(closure.canceled_booking_ids.sort()).toEqual([first, second].sort());
    const refunds = await server.app.db
      .selectFrom('refunds')
      .select(['booking_id', 'amount_cents'])
      .where('booking_id', 'in', [first, second, outside])
      .execute();
    expect(refunds.map((refund) => [refund.booking_id, refund.amount_cents]).sort()).toEqual(
      [
        [first, 1500],
        [second, 1500],
      ].sort(),
    );
    // Each in their language, with the closure's reason, labelled "told to members" in the console (issue 30).
    const memberMail = (await outboxTo(server.app, member.email.toLowerCase()))[0]?.text;
    expect(memberMail).toContain('Das Studio bleibt geschlossen und hat diese Buchung von Ihnen storniert:');
    expect(memberMail).toContain('Begründung des Studios: leak');
    const otherMail = (await outboxTo(server.app, other.email.toLowerCase()))[0]?.text;
    expect(otherMail).toContain('La salle sera fermée et a annulé cette réservation :');
    expect(otherMail).toContain('Motif donné par la salle : leak');

    const overlapping = await owner.client.json('POST', '/api/admin/closures', period, owner.token);
    expect(overlapping.json<ErrorBody>().code).toBe('closure_overlaps');
    const slots = async () =>
      (await newClient(server.app).get(`/api/bookings/slots/${branchId}/2026-03-26`)).json<
        {
          start_time: string;
          is_bookeable: boolean;
        }[]
      >();
    const during = (await slots()).filter(
      (slot) => slot.start_time.startsWith('2026-03-26T18') || slot.start_time.startsWith('2026-03-26T19'),
    );
    expect(during.length).toBe(2);
    expect(during.every((slot) => !slot.is_bookeable)).toBe(true);

    const reopened = await owner.client.json(
      'POST',
      `/api/admin/closures/${closure.id}/reopen`,
      undefined,
      owner.token,
    );
    expect(reopened.statusCode).toBe(200);
    const after = (await slots()).filter(
      (slot) => slot.start_time.startsWith('2026-03-26T18') || slot.start_time.startsWith('2026-03-26T19'),
    );
    expect(after.every((slot) => slot.is_bookeable)).toBe(true);
    expect(await auditOf('closure.create', closure.id)).toHaveLength(1);
    expect(await auditOf('closure.reopen', closure.id)).toHaveLength(1);
  });

  it('blocks a member, cancels their future bookings with the chosen refund, and audits both', async () => {
    const blocked = await verifiedAccount(newClient(server.app), server.app);
    const bookingId = await paidBooking(blocked, '2026-03-27T10:00:00Z', '2026-03-27T11:00:00Z');
    const { id } = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', blocked.email.toLowerCase())
      .executeTakeFirstOrThrow();
    const answer = await staff.client.json(
      'POST',
      `/api/admin/members/${id}/block`,
      { reason: 'abuse', cancel_future_bookings: true, refund_mode: 'full' },
      staff.token,
    );
    expect(answer.statusCode).toBe(200);
    const member = answer.json<Schemas['MemberDetail']>();
    expect(member.member.blocked).toBe(true);
    expect(member.bookings.find((booking) => booking.id === bookingId)).toMatchObject({
      status: 'canceled',
      refunded_eur: 15,
    });
    const booking = await newClient(server.app).json(
      'POST',
      '/api/bookings/',
      { time_slot_id: [1], max_bookings_per_slot: 1, coupon_code: null, expected_total_final_price_eur: 15 },
      blocked.token,
    );
    expect(booking.json<ErrorBody>().code).toBe('booking_client_blocked');
    // Whom to ask, not "contact us" with no contact (issue 30).
    expect(booking.json<ErrorBody>().detail).toBe(
      'Esta conta não pode fazer reservas. Para mais informações, escreva para info@privategym.pt.',
    );
    // Told of the cancellation and given the contact, neither invited to book again nor shown the operators'
    // reason for the block.
    const [mail] = await outboxTo(server.app, blocked.email.toLowerCase());
    expect(mail?.text).toContain('A sua conta já não pode fazer reservas e esta reserva foi cancelada:');
    expect(mail?.text).toContain('Para mais informações: info@privategym.pt');
    expect(mail?.text).not.toContain('Pode reservar outra hora');
    expect(mail?.text).not.toContain('abuse');
    expect(await auditOf('member.block', id)).toHaveLength(1);
    // The log names the member by their e-mail (issue 32: the audit log in words).
    const logged = await owner.client.get(
      `/api/admin/audit?action=member.block&entity_id=${id}`,
      owner.token,
    );
    expect(logged.json<Schemas['AuditPage']>().items).toEqual([
      expect.objectContaining({
        entity_type: 'member',
        entity_id: id,
        entity_label: blocked.email.toLowerCase(),
      }),
    ]);
    const exported = await owner.client.get(`/api/admin/members/${id}/export`, owner.token);
    expect(exported.statusCode).toBe(200);
    const data = exported.json<Schemas['MemberExport']>();
    expect(data.account.email).toBe(blocked.email.toLowerCase());
    expect(data.account).not.toHaveProperty('password_hash');
    expect(data.bookings).toHaveLength(1);
  });

  it('lists where a booking can move on a day: each slot with its price, and why the move would refuse the others', async () => {
    const mover = await verifiedAccount(newClient(server.app), server.app);
    const other = await verifiedAccount(newClient(server.app), server.app);
    const bookingId = await paidBooking(mover, '2026-04-06T09:00:00Z', '2026-04-06T10:00:00Z');
    const slot = (start: string, priceCents?: number) =>
      insertSlot(server.app.db, {
        branchId,
        start: `2026-04-06T${start}:00Z`,
        end: `2026-04-06T${String(Number(start.slice(0, 2)) + 1).padStart(2, '0')}:00:00Z`,
        localDate: '2026-04-06',
        ...(priceCents ? { priceCents } : {}),
      });
    const free = await slot('11:00');
    const dearer = await slot('12:00', 2500);
    const taken = await paidBooking(other, '2026-04-06T13:00:00Z', '2026-04-06T14:00:00Z');
    const closed = await slot('15:00');
    const closure = await owner.client.json(
      'POST',
      '/api/admin/closures',
      {
        branch_id: branchId,
        starts_at: '2026-04-06T15:00:00Z',
        ends_at: '2026-04-06T16:00:00Z',
        reason: 'paint',
      },
      owner.token,
    );
    expect(closure.statusCode).toBe(201);
    const listed = await staff.client.get(
      `/api/admin/bookings/${bookingId}/move-options?date=2026-04-06`,
      staff.token,
    );
    expect(listed.statusCode).toBe(200);
    const options = listed.json<Schemas['AdminMoveOption'][]>();
    const takenSlot = (
      await server.app.db
        .selectFrom('bookings')
        .select('slot_id')
        .where('id', '=', taken)
        .executeTakeFirstOrThrow()
    ).slot_id;
    expect(options.map((option) => [option.id, option.price_eur, option.unavailable])).toEqual([
      [expect.any(Number), 15, 'current'],
      [free, 15, null],
      [dearer, 25, 'price_differs'],
      [takenSlot, 15, 'taken'],
      [closed, 15, 'closed'],
    ]);
    expect(options[0]!.start_time).toBe('2026-04-06T10:00:00+01:00');
    // The reasons are the move's own: the dearer slot is refused, the free one taken.
    const move = (slotId: number) =>
      staff.client.json(
        'POST',
        `/api/admin/bookings/${bookingId}/move`,
        { time_slot_id: slotId, reason: 'member phoned' },
        staff.token,
      );
    expect((await move(dearer)).json<ErrorBody>().code).toBe('move_price_differs');
    expect((await move(closed)).statusCode).toBe(409);
    expect((await move(free)).statusCode).toBe(200);
  });

  it("lists a member's dearer move as their one booking, never its hold as a booking of its own", async () => {
    const mover = await verifiedAccount(newClient(server.app), server.app);
    const bookingId = await paidBooking(mover, '2026-04-02T10:00:00Z', '2026-04-02T11:00:00Z');
    const dearer = await insertSlot(server.app.db, {
      branchId,
      start: '2026-04-02T17:00:00Z',
      end: '2026-04-02T18:00:00Z',
      localDate: '2026-04-02',
      priceCents: 2500,
    });
    const moved = await newClient(server.app).json(
      'POST',
      `/api/bookings/${bookingId}/move`,
      { time_slot_id: dearer, expected_price_difference_eur: 10 },
      mover.token,
    );
    expect(moved.json<Schemas['MoveBookingResponse']>().status).toBe('awaiting_payment');
    // The hold is there, keeping the slot for the move…
    const holds = await server.app.db
      .selectFrom('booking_moves')
      .select('hold_booking_id')
      .where('booking_id', '=', bookingId)
      .execute();
    expect(holds).toHaveLength(1);
    expect(holds[0]!.hold_booking_id).not.toBeNull();
    // …but the console lists the member's one booking, in the list and in the day's view.
    const listed = await owner.client.get(
      `/api/admin/bookings?q=${encodeURIComponent(mover.email)}`,
      owner.token,
    );
    expect(listed.json<Schemas['AdminBookingPage']>().items.map((item) => item.id)).toEqual([bookingId]);
    const today = await owner.client.get(
      `/api/admin/today?branch_id=${branchId}&date=2026-04-02`,
      owner.token,
    );
    const day = today.json<Schemas['AdminToday']>().branches.find((item) => item.branch.id === branchId)!;
    expect(day.bookings.map((item) => item.id)).toEqual([bookingId]);
  });

  it("lists a day's live bookings and counts its cancelled ones", async () => {
    // Issue 33: a busy branch's day holds hundreds of cancellations; the day's view is of who comes.
    const kept = await paidBooking(member, '2026-04-16T09:00:00Z', '2026-04-16T10:00:00Z');
    const canceled = await paidBooking(member, '2026-04-16T11:00:00Z', '2026-04-16T12:00:00Z');
    const cancel = await owner.client.json(
      'POST',
      `/api/admin/bookings/${canceled}/cancel`,
      { refund: { mode: 'amount', amount_eur: 0 }, reason: 'asked by phone' },
      owner.token,
    );
    expect(cancel.statusCode).toBe(200);
    const today = await owner.client.get(
      `/api/admin/today?branch_id=${branchId}&date=2026-04-16`,
      owner.token,
    );
    expect(today.statusCode).toBe(200);
    const day = today.json<Schemas['AdminToday']>().branches.find((item) => item.branch.id === branchId)!;
    expect(day.bookings.map((item) => [item.id, item.status])).toEqual([[kept, 'confirmed']]);
    expect(day.canceled_count).toBe(1);
    // The bookings list shows the one counted, as the day's link asks for it.
    const listed = await owner.client.get(
      `/api/admin/bookings?branch_id=${branchId}&from=2026-04-16&to=2026-04-16&status=canceled`,
      owner.token,
    );
    expect(listed.json<Schemas['AdminBookingPage']>().items.map((item) => item.id)).toEqual([canceled]);
  });

  it("shows on a branch's day the bookings starting from its local midnight to the next, in its own zone", async () => {
    // Lisbon is UTC+1 on 8 April 2026: its day runs from 23:00 UTC on the 7th to 23:00 UTC on the 8th.
    const dayBefore = await paidBooking(member, '2026-04-07T22:00:00Z', '2026-04-07T23:00:00Z');
    const firstOfDay = await paidBooking(member, '2026-04-07T23:00:00Z', '2026-04-08T00:00:00Z');
    const lastOfDay = await paidBooking(member, '2026-04-08T22:00:00Z', '2026-04-08T23:00:00Z');
    const dayAfter = await paidBooking(member, '2026-04-08T23:00:00Z', '2026-04-09T00:00:00Z');
    const bookingsOf = async (date: string) => {
      const today = await owner.client.get(
        `/api/admin/today?branch_id=${branchId}&date=${date}`,
        owner.token,
      );
      expect(today.statusCode).toBe(200);
      return today
        .json<Schemas['AdminToday']>()
        .branches.find((item) => item.branch.id === branchId)!
        .bookings.map((item) => [item.id, item.start_time]);
    };
    expect(await bookingsOf('2026-04-08')).toEqual([
      [firstOfDay, '2026-04-08T00:00:00+01:00'],
      [lastOfDay, '2026-04-08T23:00:00+01:00'],
    ]);
    expect((await bookingsOf('2026-04-07')).at(-1)).toEqual([dayBefore, '2026-04-07T23:00:00+01:00']);
    expect((await bookingsOf('2026-04-09'))[0]).toEqual([dayAfter, '2026-04-09T00:00:00+01:00']);
  });

  it("lists on each booking's page the confirmation of the checkout that paid it with others", async () => {
    const slotIds = [
      await insertSlot(server.app.db, {
        branchId,
        start: '2026-04-14T10:00:00Z',
        end: '2026-04-14T11:00:00Z',
        localDate: '2026-04-14',
      }),
      await insertSlot(server.app.db, {
        branchId,
        start: '2026-04-14T11:00:00Z',
        end: '2026-04-14T12:00:00Z',
        localDate: '2026-04-14',
      }),
    ];
    const caller = newClient(server.app);
    const { sessionId } = await createBookingOverHttp(caller, member.token, slotIds, 30);
    await caller.json('POST', `/api/checkout/local/${sessionId}/complete`, {
      card_number: '4242 4242 4242 4242',
    });
    const booked = await server.app.db
      .selectFrom('bookings')
      .select('id')
      .where('checkout_session_id', '=', sessionId)
      .orderBy('id')
      .execute();
    expect(booked).toHaveLength(2);
    for (const { id } of booked) {
      const page = await owner.client.get(`/api/admin/bookings/${id}`, owner.token);
      expect(page.statusCode).toBe(200);
      expect(
        page
          .json<Schemas['AdminBookingDetail']>()
          .messages.filter((message) => message.kind === 'booking_confirmed')
          .map((message) => message.channel),
      ).toContain('email');
    }
  });

  it('moves a booking from the console and sends the member the updated-booking e-mail with the same calendar event at a higher SEQUENCE', async () => {
    const bookingId = await paidBooking(member, '2026-03-30T10:00:00Z', '2026-03-30T11:00:00Z');
    const target = await insertSlot(server.app.db, {
      branchId,
      start: '2026-03-31T17:00:00Z',
      end: '2026-03-31T18:00:00Z',
      localDate: '2026-03-31',
    });
    const moved = await owner.client.json(
      'POST',
      `/api/admin/bookings/${bookingId}/move`,
      { time_slot_id: target, reason: 'member phoned' },
      owner.token,
    );
    expect(moved.statusCode).toBe(200);
    expect(
      moved
        .json<Schemas['AdminBookingDetail']>()
        .messages.map((message) => `${message.kind} ${message.channel}`),
    ).toContain('booking_moved email');
    const mails = await server.app.db
      .selectFrom('outbox')
      .select(['recipient', 'attachments', 'locale'])
      .where('kind', '=', 'booking_moved')
      .where('dedupe_key', 'like', `booking_moved:${bookingId}:%`)
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ recipient: member.email.toLowerCase(), locale: 'de' });
    const [calendar] = mails[0]!.attachments as { content: string }[];
    expect(calendar!.content).toContain(`UID:booking-${bookingId}@`);
    expect(calendar!.content).toContain('SEQUENCE:1');
    expect(calendar!.content).toContain('METHOD:REQUEST');
    expect(calendar!.content).toContain('DTSTART:20260331T170000Z');
  });

  it('reports occupancy as booked hours over open hours per branch-local day', async () => {
    const occupancyBranch = await createBranch(server.app.db, { slug: `occupancy-${String(target)}` });
    const slot = (day: string, hour: number) =>
      insertSlot(server.app.db, {
        branchId: occupancyBranch,
        start: `${day}T${String(hour).padStart(2, '0')}:00:00Z`,
        end: `${day}T${String(hour + 1).padStart(2, '0')}:00:00Z`,
        localDate: day,
      });
    // Four open hours on the 27th, one of them booked and paid; two open hours on the 28th, none booked.
    const booked = await slot('2026-03-27', 9);
    for (const hour of [10, 11, 12]) await slot('2026-03-27', hour);
    for (const hour of [9, 10]) await slot('2026-03-28', hour);
    await bookAndPayOverHttp(newClient(server.app), member.token, booked);
    const report = await owner.client.get(
      `/api/admin/reports/occupancy?from=2026-03-27&to=2026-03-28&branch_id=${occupancyBranch}`,
      owner.token,
    );
    expect(report.statusCode).toBe(200);
    expect(
      report
        .json<{ rows: { period: string; booked_hours: number; open_hours: number; occupancy: number }[] }>()
        .rows.map(({ period, booked_hours, open_hours, occupancy }) => ({
          period,
          booked_hours,
          open_hours,
          occupancy,
        })),
    ).toEqual([
      { period: '2026-03-27', booked_hours: 1, open_hours: 4, occupancy: 0.25 },
      { period: '2026-03-28', booked_hours: 0, open_hours: 2, occupancy: 0 },
    ]);
  });

  it('finds each change in the audit log, filtered by action', async () => {
    const log = await owner.client.get('/api/admin/audit?action=booking.cancel', owner.token);
    expect(log.statusCode).toBe(200);
    const { items } = log.json<Schemas['AuditPage']>();
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.action === 'booking.cancel')).toBe(true);
  });
});

describe('an operator cancel racing the member’s own cancel (PostgreSQL: real concurrency)', () => {
  let server: AccountApp;
  beforeAll(async () => {
    server = await startAccountApp('postgres');
  });
  afterAll(async () => server?.close());

  it('refunds the booking once, whoever wins', async () => {
    const owner = await loggedInOperator(server.app, server.clock, unique('owner'), 'owner');
    const member = await verifiedAccount(newClient(server.app), server.app);
    const branchId = await createBranch(server.app.db);
    for (let round = 0; round < 5; round += 1) {
      const start = `2026-03-2${5 + (round % 4)}T${String(8 + round).padStart(2, '0')}:00:00Z`;
      const end = start.replace(
        /T(\d\d)/,
        (_match, hour: string) => `T${String(Number(hour) + 1).padStart(2, '0')}`,
      );
      const slotId = await insertSlot(server.app.db, { branchId, start, end, localDate: start.slice(0, 10) });
      await bookAndPayOverHttp(newClient(server.app), member.token, slotId);
      const { id } = await server.app.db
        .selectFrom('bookings')
        .select('id')
        .where('slot_id', '=', slotId)
        .executeTakeFirstOrThrow();
      const [byOperator, byMember] = await Promise.all([
        owner.client.json(
          'POST',
          `/api/admin/bookings/${id}/cancel`,
          { refund: { mode: 'full' }, reason: 'race' },
          owner.token,
        ),
        newClient(server.app).json(
          'POST',
          '/api/bookings/cancel-bookings',
          { booking: [{ booking_id: id, expected_refund_eur: 15 }] },
          member.token,
        ),
      ]);
      expect([byOperator.statusCode, byMember.statusCode]).toContain(200);
      const refunds = await server.app.db
        .selectFrom('refunds')
        .select('amount_cents')
        .where('booking_id', '=', id)
        .execute();
      expect(refunds).toEqual([{ amount_cents: 1500 }]);
    }
  });
});
