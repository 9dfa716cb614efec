import { userInfo } from 'node:os';
import { beforeEach, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/cli.ts';
import { createBranchService } from '../../server/catalog/service.ts';
import { fixedClock } from '../../server/kernel/clock.ts';
import { createCouponService } from '../../server/booking/coupons/service.ts';
import { readRefundRatios } from '../../server/catalog/refund-ratios.ts';
import { bookAndPay, bookingService, errorCode, lisbonSlot, verifiedUser } from './bookings-fixtures.ts';
import { describeOnPglite, emptyAllTables } from './support/databases.ts';
import { createBranch } from './support/fixtures.ts';

// The back office drives the same database and services as the server; these tests run its commands as the
// operator types them and check what the product then does.

const clock = fixedClock('2026-03-20T10:00:00Z');

const DESCRIPTIONS = ['pt', 'en', 'fr', 'de', 'sk'].flatMap((locale) => [
  '--description',
  `${locale}=<p>Ginásio ${locale}</p>`,
]);

describeOnPglite('back office commands', (getDb) => {
  let out: string[];
  let err: string[];

  async function admin(...argv: string[]): Promise<number> {
    out = [];
    err = [];
    return runAdmin(argv, {
      db: getDb(),
      clock,
      horizonDays: 3,
      io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    });
  }

  const branches = () => createBranchService({ db: getDb(), clock, horizonDays: 3 });

  beforeEach(async () => {
    clock.set('2026-03-20T10:00:00Z');
    await emptyAllTables(getDb());
  });

  it('creates a branch in its own zone with images and descriptions, and generates its slots', async () => {
    const code = await admin(
      'branch',
      'create',
      '--slug',
      'cluj-centru',
      '--name',
      'Cluj – Centru',
      '--location',
      'Strada Memorandumului 1',
      '--latitude',
      '46.77',
      '--longitude',
      '23.59',
      '--time-zone',
      'Europe/Bucharest',
      '--slot-minutes',
      '90',
      '--price',
      '12.50',
      '--order',
      '3',
      '--image',
      '/images/cluj-1.jpg',
      '--image',
      '/images/cluj-2.jpg',
      ...DESCRIPTIONS.slice(0, 8),
      '--description',
      'sk=<p onclick="x()">Fitko</p><script>alert(1)</script>',
    );
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out[0]).toMatch(/^created branch \d+ \(cluj-centru\)$/);
    const [branch] = await branches().listBranches();
    expect(branch).toMatchObject({
      name: 'Cluj – Centru',
      time_zone: 'Europe/Bucharest',
      slot_minutes: 90,
      order: 3,
      images_urls: ['/images/cluj-1.jpg', '/images/cluj-2.jpg'],
      min_and_max_price_eur_long_cached: [12.5, 12.5],
      active_with_smart_lock: true,
    });
    expect(branch!.descriptions_data.pt).toBe('<p>Ginásio pt</p>');
    // Attributes and scripts never reach the stored HTML.
    expect(branch!.descriptions_data.sk).toBe(
      '&lt;p onclick=&quot;x()&quot;&gt;Fitko</p>&lt;script&gt;alert(1)&lt;/script&gt;',
    );
    // Slots exist, 90 minutes long, starting at local midnight in Bucharest (UTC+2 in March).
    const slots = await branches().listSlots(branch!.id, '2026-03-21');
    expect(slots[0]).toMatchObject({
      start_time: '2026-03-21T00:00:00+02:00',
      end_time: '2026-03-21T01:30:00+02:00',
    });
    expect(slots[0]!.basic_price_eur).toBe(12.5);
  });

  it('refuses bad branch input with exit code 2 and a message naming the problem', async () => {
    expect(await admin('branch', 'create', '--slug', 'x', '--name', 'X')).toBe(2);
    expect(err[0]).toContain('--location is required');
    const valid = [
      'branch',
      'create',
      '--slug',
      'porto',
      '--name',
      'Porto',
      '--location',
      'Rua 1',
      '--latitude',
      '41.1',
      '--longitude=-8.6',
      '--price',
      '15',
      '--image',
      '/a.jpg',
      ...DESCRIPTIONS,
    ];
    expect(await admin(...valid, '--time-zone', 'Europe/Atlantis')).toBe(2);
    expect(err[0]).toContain('--time-zone: not an IANA time zone');
    expect(
      await admin(
        ...valid
          .filter((arg) => !arg.startsWith('sk=') && arg !== '--description')
          .concat(DESCRIPTIONS.slice(0, 8)),
        '--time-zone',
        'Europe/Lisbon',
      ),
    ).toBe(2);
    expect(err[0]).toContain('missing: sk');
    expect(await admin(...valid, '--time-zone', 'Europe/Lisbon', '--price', 'ten')).toBe(2);
    expect(err[0]).toContain('--price must be an amount in euros');
    expect(await admin('branch', 'update', '999', '--name', 'Nobody')).toBe(2);
    expect(err[0]).toContain('there is no branch 999');
    expect(await admin('branch', 'frobnicate')).toBe(2);
    expect(err[0]).toContain("unknown command 'branch frobnicate'");
    expect(await branches().listBranches()).toEqual([]);
  });

  it('updates a branch: activation, order, zone, gallery and one description', async () => {
    const id = await createBranch(getDb(), { name: 'Lisboa', order: 1 });
    const code = await admin(
      'branch',
      'update',
      String(id),
      '--inactive',
      '--order',
      '7',
      '--time-zone',
      'Atlantic/Madeira',
      '--image',
      '/new.jpg',
      '--description',
      'en=<p>Updated</p>',
      '--slot-minutes',
      '45',
    );
    expect({ code, err }).toEqual({ code: 0, err: [] });
    const [branch] = await branches().listBranches();
    expect(branch).toMatchObject({
      active_with_smart_lock: false,
      order: 7,
      time_zone: 'Atlantic/Madeira',
      image: '/new.jpg',
      images_urls: ['/new.jpg'],
      slot_minutes: 45,
    });
    expect(branch!.descriptions_data).toMatchObject({ en: '<p>Updated</p>', pt: '<p>pt</p>' });
    expect(await admin('branch', 'update', String(id), '--active')).toBe(0);
    expect((await branches().listBranches())[0]!.active_with_smart_lock).toBe(true);
    expect(await admin('branch', 'update', String(id), '--active', '--inactive')).toBe(2);
    expect(err[0]).toContain('exclude each other');
    // Links a browser would run, or plain http in production (the CLI's default), are not published.
    expect(await admin('branch', 'update', String(id), '--map-url', 'javascript:alert(1)')).toBe(2);
    expect(err[0]).toContain("'--map-url' must be an https address or a path on this site");
    expect(await admin('branch', 'update', String(id), '--image', 'data:image/svg+xml,<svg/>')).toBe(2);
    expect(err[0]).toContain("'images[0]' must be an https address");
    expect(await admin('branch', 'update', String(id), '--map-url', 'http://maps.example/x')).toBe(2);
    expect(await admin('branch', 'update', String(id), '--map-url', 'https://maps.example/x')).toBe(0);
  });

  it('adds and removes price rules, which price new slots and the cached range', async () => {
    const id = await createBranch(getDb(), { defaultPriceCents: 1500 });
    expect(
      await admin(
        'price-rule',
        'add',
        String(id),
        '--weekdays',
        '6,7',
        '--from',
        '08:00',
        '--to',
        '12:00',
        '--price',
        '25',
      ),
    ).toBe(0);
    expect(out[0]).toMatch(/^added price rules \d+, \d+$/);
    expect((await branches().listBranches())[0]!.min_and_max_price_eur_long_cached).toEqual([15, 25]);
    await branches().ensureSlotHorizon();
    // Saturday 21 March 2026, 09:00 in Lisbon is in the band; 13:00 is not.
    const slots = await branches().listSlots(id, '2026-03-21');
    const price = (start: string) => slots.find((slot) => slot.start_time.startsWith(start))!.basic_price_eur;
    expect([price('2026-03-21T09:00'), price('2026-03-21T13:00')]).toEqual([25, 15]);

    expect(await admin('price-rule', 'list', String(id), '--json')).toBe(0);
    const rules = JSON.parse(out.join('\n')) as { id: number; weekday: number; from: string; to: string }[];
    expect(rules.map((rule) => [rule.weekday, rule.from, rule.to])).toEqual([
      [6, '08:00', '12:00'],
      [7, '08:00', '12:00'],
    ]);
    for (const rule of rules) expect(await admin('price-rule', 'remove', String(rule.id))).toBe(0);
    expect((await branches().listBranches())[0]!.min_and_max_price_eur_long_cached).toEqual([15, 15]);

    expect(
      await admin(
        'price-rule',
        'add',
        String(id),
        '--weekdays',
        '8',
        '--from',
        '08:00',
        '--to',
        '09:00',
        '--price',
        '1',
      ),
    ).toBe(2);
    expect(
      await admin(
        'price-rule',
        'add',
        String(id),
        '--weekdays',
        '1',
        '--from',
        '10:00',
        '--to',
        '09:00',
        '--price',
        '1',
      ),
    ).toBe(2);
    expect(err[0]).toContain('--to must be later than --from');
  });

  it('sets a whole price grid at once or from a day, re-pricing the slots already generated', async () => {
    const id = await createBranch(getDb(), { defaultPriceCents: 1500 });
    await branches().ensureSlotHorizon();
    const priceOn = async (date: string, time: string) =>
      (await branches().listSlots(id, date)).find((slot) => slot.start_time.startsWith(`${date}T${time}`))!
        .basic_price_eur;

    expect(
      await admin(
        'prices',
        'set',
        String(id),
        '--default',
        '15',
        '--band',
        '6,7@08:00-12:00=25',
        '--from',
        '2026-03-22',
      ),
    ).toBe(0);
    expect(out).toEqual([`prices of branch ${id} apply from 2026-03-22: 4 slots re-priced`]);
    // Saturday the 21st is before the grid's first day; Sunday the 22nd is its first day.
    expect([await priceOn('2026-03-21', '09:00'), await priceOn('2026-03-22', '09:00')]).toEqual([15, 25]);
    expect((await branches().listBranches())[0]!.min_and_max_price_eur_long_cached).toEqual([15, 25]);

    // Today's grid changes at once; the dated grid still takes over on its day.
    expect(await admin('branch', 'update', String(id), '--price', '12')).toBe(0);
    expect(out).toContain(`prices of branch ${id} apply from 2026-03-20: 37 slots re-priced`);
    expect([await priceOn('2026-03-20', '18:00'), await priceOn('2026-03-21', '09:00')]).toEqual([12, 12]);
    expect([await priceOn('2026-03-22', '09:00'), await priceOn('2026-03-22', '13:00')]).toEqual([25, 15]);
    expect(await admin('prices', 'show', String(id), '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual([
      { from: '2026-03-20', default_price_eur: '12.00', bands: [] },
      {
        from: '2026-03-22',
        default_price_eur: '15.00',
        bands: [
          { weekday: 6, from: '08:00', to: '12:00', price_eur: '25.00' },
          { weekday: 7, from: '08:00', to: '12:00', price_eur: '25.00' },
        ],
      },
    ]);

    expect(await admin('prices', 'set', String(id), '--default', '15', '--band', 'weekends=20')).toBe(2);
    expect(err[0]).toContain('--band must be <weekdays>@<HH:MM>-<HH:MM>=<eur>');
    expect(await admin('prices', 'set', String(id), '--default', '15', '--from', '2026-03-19')).toBe(2);
    expect(err[0]).toBe(
      "prices set: the first day must be a date (YYYY-MM-DD) between the branch's today (2026-03-20) and 2036-03-20",
    );
    expect(await admin('prices', 'set', '999', '--default', '15')).toBe(2);
    expect(err[0]).toBe('prices set: branch_not_found');
  });

  it('creates and updates coupons the booking rules then apply', async () => {
    const user = await verifiedUser(getDb(), { createdAt: new Date('2026-01-10T00:00:00Z') });
    const code = await admin(
      'coupon',
      'create',
      'spring10',
      '--discount',
      '0.10',
      '--valid-from',
      '2026-03-01',
      '--valid-until',
      '2026-04-01T00:00:00+01:00',
      '--max-uses',
      '100',
      '--max-uses-per-user',
      '3',
      '--registered-before',
      '2026-02-01',
    );
    expect({ code, err, out }).toEqual({ code: 0, err: [], out: ['created coupon SPRING10'] });
    const coupons = createCouponService({ db: getDb(), clock });
    expect(await coupons.findUsableCoupon(user, 'Spring10')).toMatchObject({ discount: 0.1 });

    expect(await admin('coupon', 'create', 'SPRING10', '--discount', '0.2')).toBe(2);
    expect(err[0]).toContain('coupon SPRING10 exists already');
    expect(await admin('coupon', 'create', 'BIG', '--discount', '1.5')).toBe(2);
    expect(err[0]).toContain('--discount is a fraction');
    expect(
      await admin('coupon', 'create', 'FOREVER', '--discount', '0.1', '--valid-until', '9999-12-31'),
    ).toBe(2);
    expect(err[0]).toContain('--valid-until must lie in the years 2000 to 2100');

    // Registered after the cut-off: the coupon is not for this account.
    const late = await verifiedUser(getDb(), { createdAt: new Date('2026-03-01T00:00:00Z') });
    expect(await errorCode(coupons.findUsableCoupon(late, 'SPRING10'))).toBe('invalid_coupon');

    expect(await admin('coupon', 'update', 'spring10', '--inactive')).toBe(0);
    expect(await errorCode(coupons.findUsableCoupon(user, 'SPRING10'))).toBe('invalid_coupon');
    expect(
      await admin(
        'coupon',
        'update',
        'spring10',
        '--active',
        '--registered-before',
        'none',
        '--valid-until',
        '2026-03-01',
      ),
    ).toBe(2);
    expect(err[0]).toContain('--valid-until must be after --valid-from');
    expect(await admin('coupon', 'update', 'spring10', '--active', '--registered-before', 'none')).toBe(0);
    expect(await coupons.findUsableCoupon(late, 'SPRING10')).toMatchObject({ discount: 0.1 });

    expect(await admin('coupon', 'list', '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual([
      expect.objectContaining({
        code: 'SPRING10',
        discount: 0.1,
        max_uses: 100,
        max_uses_per_user: 3,
        active: true,
      }),
    ]);
  });

  it('sets the refund ratios new bookings take, and refuses a policy that is not one', async () => {
    expect(await admin('refund-ratios', 'set', '{"72": 1, "12": 0.25, "0": 0}')).toBe(0);
    expect(await readRefundRatios(getDb())).toEqual({ '72': 1, '12': 0.25, '0': 0 });
    expect(await admin('refund-ratios', 'show')).toBe(0);
    expect(out).toEqual(['{"0":0,"12":0.25,"72":1}']);
    expect(await admin('refund-ratios', 'set', '{"48": 2, "0": 0}')).toBe(2);
    expect(await admin('refund-ratios', 'set', 'half')).toBe(2);
    expect(await admin('refund-ratios', 'set', '{"48": 1}')).toBe(2);
    expect(err[0]).toContain('"0" threshold');
    expect(await readRefundRatios(getDb())).toEqual({ '72': 1, '12': 0.25, '0': 0 });
  });

  it('blocks and unblocks e-mails and phones; a blocked client cannot book', async () => {
    const branchId = await createBranch(getDb());
    const user = await verifiedUser(getDb(), { email: 'mallory@example.com' });
    const slot = await lisbonSlot(getDb(), branchId, '2026-03-30T10:00');
    expect(await admin('block', 'add', 'email', 'Mallory@Example.com', '--reason', 'chargebacks')).toBe(0);
    expect(out).toEqual(['blocked email mallory@example.com']);
    expect(await admin('block', 'add', 'phone', '+351 912 000 111')).toBe(0);
    expect(await admin('block', 'list', '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual([
      expect.objectContaining({ kind: 'email', value: 'mallory@example.com', reason: 'chargebacks' }),
      expect.objectContaining({ kind: 'phone', value: '+351912000111', reason: null }),
    ]);
    const book = () =>
      bookingService(getDb(), clock).createBooking({
        userId: user,
        slotIds: [slot],
        couponId: null,
        expectedTotalEur: 15,
        locale: 'pt',
      });
    expect(await errorCode(book())).toBe('booking_client_blocked');
    expect(await admin('block', 'remove', 'email', 'mallory@example.com')).toBe(0);
    expect(await errorCode(book())).toBeNull();
    expect(await admin('block', 'remove', 'email', 'mallory@example.com')).toBe(2);
    expect(err[0]).toContain('is not blocked');
    expect(await admin('block', 'add', 'fax', '123')).toBe(2);
    expect(await admin('block', 'add', 'email', 'not-an-address')).toBe(2);
  });

  it('lists bookings in the branch’s zone and payments with their refunds', async () => {
    const branchId = await createBranch(getDb(), { name: 'Lisboa' });
    const user = await verifiedUser(getDb(), { email: 'ana@example.com' });
    const slots = [
      await lisbonSlot(getDb(), branchId, '2026-03-30T10:00'),
      await lisbonSlot(getDb(), branchId, '2026-03-30T11:00'),
    ];
    const sessionId = await bookAndPay(getDb(), clock, user, slots, 30);
    const booked = await getDb().selectFrom('bookings').select('id').orderBy('start_time').execute();
    await bookingService(getDb(), clock).cancelBookings({
      userId: user,
      items: [{ bookingId: booked[1]!.id, expectedRefundEur: 15 }],
    });

    expect(await admin('bookings', 'list', '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual([
      expect.objectContaining({
        start: '2026-03-30T11:00:00+01:00',
        status: 'canceled',
        client: 'ana@example.com',
      }),
      expect.objectContaining({
        start: '2026-03-30T10:00:00+01:00',
        status: 'confirmed',
        paid: true,
        price_eur: '15.00',
      }),
    ]);
    expect(await admin('bookings', 'list', '--status', 'confirmed', '--branch', String(branchId))).toBe(0);
    expect(out).toHaveLength(2); // header and one row
    expect(out[1]).toContain('2026-03-30T10:00:00+01:00');
    expect(await admin('bookings', 'list', '--from', '2026-04-01')).toBe(0);
    expect(out).toEqual(['(none)']);
    expect(await admin('bookings', 'list', '--status', 'lost')).toBe(2);
    expect(await admin('bookings', 'list', '--from', 'yesterday')).toBe(2);

    expect(await admin('payments', 'list', '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual([
      expect.objectContaining({
        session: sessionId,
        payment: 'paid',
        amount_eur: '30.00',
        refunded_eur: '15.00',
      }),
    ]);
    expect(await admin('payments', 'list', '--status', 'unpaid')).toBe(0);
    expect(out).toEqual(['(none)']);
  });

  it('writes each change to the audit log as cli:<OS user>, with what it was before and after; reads and refusals write nothing', async () => {
    const id = await createBranch(getDb(), { defaultPriceCents: 1500 });
    const audit = () =>
      getDb()
        .selectFrom('audit_log')
        .select(['operator_id', 'operator_email', 'action', 'entity_type', 'entity_id', 'before', 'after'])
        .orderBy('id')
        .execute();
    const changes = [
      ['branch', 'update', String(id), '--name', 'Porto – Baixa'],
      [
        'price-rule',
        'add',
        String(id),
        '--weekdays',
        '6',
        '--from',
        '08:00',
        '--to',
        '12:00',
        '--price',
        '25',
      ],
      ['coupon', 'create', 'audit10', '--discount', '0.10'],
      ['coupon', 'update', 'AUDIT10', '--discount', '0.20'],
      ['refund-ratios', 'set', '{"24": 1, "0": 0}'],
      ['block', 'add', 'email', 'eve@example.com', '--reason', 'fraud'],
      ['block', 'remove', 'email', 'eve@example.com'],
    ];
    for (const argv of changes) expect(await admin(...argv), argv.join(' ')).toBe(0);
    const [rule] = await branches().listPriceRules(id);
    expect(await admin('price-rule', 'remove', String(rule!.id))).toBe(0);
    // Reading, and a change refused, leave no row.
    expect(await admin('coupon', 'list')).toBe(0);
    expect(await admin('coupon', 'update', 'NOPE', '--discount', '0.5')).toBe(2);
    const rows = await audit();
    expect(rows.map((row) => `${row.action} ${row.entity_type}:${row.entity_id}`)).toEqual([
      `branch.update branch:${id}`,
      `branch.prices branch:${id}`,
      'coupon.create coupon:AUDIT10',
      'coupon.update coupon:AUDIT10',
      'refund_policy.set refund_policy:refund_ratios',
      'contact.block blocked_contact:email:eve@example.com',
      'contact.unblock blocked_contact:email:eve@example.com',
      // Every price change is the price grid's use case, audited as the console's is.
      `branch.prices branch:${id}`,
    ]);
    expect(new Set(rows.map((row) => `${row.operator_id} ${row.operator_email}`))).toEqual(
      new Set([`null cli:${userInfo().username}`]),
    );
    expect((rows[0]!.before as { name: string }).name).not.toMatch(/Porto/);
    expect(rows[0]!.after).toMatchObject({ name: 'Porto – Baixa' });
    expect(rows[3]!.before).toMatchObject({ discount: 0.1 });
    expect(rows[3]!.after).toMatchObject({ discount: 0.2 });
    expect(rows[4]!.after).toEqual({ '0': 0, '24': 1 });
  });

  it('prints help for the tool and for each command', async () => {
    expect(await admin('--help')).toBe(0);
    expect(out.join('\n')).toContain('npm run admin -- <command>');
    expect(out.join('\n')).toContain('block add email|phone <value>');
    expect(await admin('coupon', 'create', '--help')).toBe(0);
    expect(out.join('\n')).toContain('coupon create <CODE> --discount <fraction>');
    expect(await admin()).toBe(2);
  });
});
