// A walk through issue 31 (regulars, packs and guests) on the real server code (buildApp) with an in-memory
// database, a clock of our own, Seam's own fake for the door and the local checkout for payments:
//   node scripts/regulars-demo.ts > docs/regulars-transcript.txt
// a. a weekly series of 4 across Lisbon's change to summer time, one week taken by another member (shown before
//    paying, dropped), paid in one checkout; one week cancelled, then "this and the following";
// b. an operator puts a pack on sale (CLI); a member buys it through checkout, books a slot paid partly by credit
//    and the rest by card, cancels it (credit back to its lot by the tiered policy); the expiry notice 14 days ahead;
// c. a gift voucher bought for someone, redeemed by them into their wallet;
// d. guests on a booking: each guest's own code on the fake lock for the window, the T-30 message to the guest, a
//    guest removed (code deleted from the lock), the booking cancelled (every guest code deleted).
// After each flow: the ledger rows it wrote (money: ledger_entries and their booking shares; credit:
// credit_movements), the documents and the messages; last, the checks an accountant makes.
// tests/server/regulars-demo.test.ts runs the same walk, so it cannot rot.
import { randomUUID } from 'node:crypto';
import { buildApp } from '../server/app.ts';
import type { Config } from '../server/config.ts';
import { dateFromInstant, fixedClock } from '../server/kernel/clock.ts';
import { JOB_QUEUES } from '../server/jobs/queue.ts';
import { totpCodeAt } from '../server/operators/totp.ts';
import type { components } from '../openapi/schema.gen.ts';
import {
  adminRunner,
  branchCreateArguments,
  injector,
  signIn as signInTo,
  startSeamFake,
  verifiedMember,
} from './demo-support.ts';

type Schemas = components['schemas'];

/** The fields of `bookings list --json` this walk prints. */
type CliBooking = {
  id: number;
  start: string;
  status: string;
  price_eur: string;
  credit_eur: string | null;
  series: number | null;
  guests: number;
};

/** A figure the walk checks, as an accountant would: what it should be and what it is. */
export type Check = { what: string; expected: number | string; actual: number | string; ok: boolean };

/** What the walk saw, for its test. */
export type RegularsFacts = {
  checks: Check[];
  series: {
    occurrences: { week: number; start: string | null; problem: string | null; price_eur: number | null }[];
    checkoutCents: number;
    refundsCents: number[];
    seriesOnCli: (number | null)[];
  };
  pack: {
    lotRemainingAfterCancel: number;
    expiryNotices: number;
    movements: string[];
    creditOnCli: string | null;
  };
  voucher: { code: string; redeemedLotEur: number };
  guests: {
    codesOnLockAfterAdding: number;
    guestMessages: string[];
    removedGuestCodeOnLock: boolean;
    codesOnLockAfterCancel: number;
    guestsOnCli: number;
  };
};

export type WalkOptions = {
  /** Where the server's database lives; an in-memory PGlite by default. */
  database?: Config['database'];
  /** Where the transcript goes; stdout by default. */
  say?: (line: string) => void;
};

const eur = (cents: number) => (cents / 100).toFixed(2);

export async function walkRegulars(options: WalkOptions = {}): Promise<RegularsFacts> {
  const write = options.say ?? ((line: string) => process.stdout.write(`${line}\n`));
  const say = (line = '') => write(line);
  const show = (label: string, value: unknown) => say(`${label}: ${JSON.stringify(value, null, 2)}`);
  const checks: Check[] = [];
  const check = (what: string, expected: number | string, actual: number | string) => {
    const ok = expected === actual;
    checks.push({ what, expected, actual, ok });
    say(`  ${ok ? 'ok ' : 'NOT'} ${what}: ${actual}${ok ? '' : ` (expected ${expected})`}`);
  };

  const seam = await startSeamFake();
  const { fake, lock } = seam;

  // Monday 16 March 2026, 10:00 UTC. Lisbon moves to summer time on Sunday 29 March.
  const clock = fixedClock('2026-03-16T10:00:00Z');
  const config = seam.config(35, options.database ?? { kind: 'pglite', dataDir: null });
  const app = await buildApp(config, { clock }).catch(async (error: unknown) => {
    await seam.stop();
    throw error;
  });
  try {
    say(`# Issue 31 — regulars, packs and guests: a transcript`);
    say(`# Server: buildApp on an in-memory PGlite, clock fixed by the walk; payments: the local checkout`);
    say(`# Door: Seam's fake (@seamapi/fake-seam-connect), lock device ${lock}`);

    const inject = injector(app);
    /** A request the walk needs to succeed: printed with its status, stopped on anything else. */
    const call = async <T>(
      method: 'GET' | 'POST' | 'DELETE',
      url: string,
      body?: unknown,
      token?: string,
    ): Promise<T> => {
      const answer = await inject(method, url, body, token);
      say(`${method} ${url}${body === undefined ? '' : ` ${JSON.stringify(body)}`} -> ${answer.status}`);
      if (answer.status >= 300) throw new Error(`${method} ${url} answered ${answer.status}: ${answer.body}`);
      return (answer.body === '' ? undefined : answer.json()) as T;
    };

    const fakeCodes = seam.codes;

    const admin = adminRunner(app, clock, config);
    const adminShown = async (shown: string, ...argv: string[]) => {
      say(`$ npm run admin -- ${shown}`);
      const lines = await admin(...argv);
      for (const line of lines) say(`  ${line}`);
      return lines;
    };

    /** `bookings list --email <address> --json`, the fields of issue 31: what the operator's CLI says of them. */
    const cliBookings = async (email: string) => {
      const rows = JSON.parse(
        (await admin('bookings', 'list', '--email', email, '--json')).join('\n'),
      ) as CliBooking[];
      say(`$ npm run admin -- bookings list --email ${email} --json   (issue 31's fields)`);
      for (const row of rows) {
        say(
          `  #${row.id} ${row.start} ${row.status}: price_eur ${row.price_eur}, credit_eur ${row.credit_eur}, series ${row.series}, guests ${row.guests}`,
        );
      }
      return rows;
    };

    // What each flow wrote: everything after the marks taken when it began.
    const marks = { entry: 0, movement: 0, outbox: 0, document: 0 };
    const mark = async () => {
      const last = async (table: 'ledger_entries' | 'credit_movements' | 'outbox' | 'tax_documents') =>
        (
          await app.db
            .selectFrom(table)
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0;
      marks.entry = await last('ledger_entries');
      marks.movement = await last('credit_movements');
      marks.outbox = await last('outbox');
      marks.document = await last('tax_documents');
    };
    const actor = (row: { actor_type: string; actor_name: string | null }) =>
      row.actor_type + (row.actor_name ? ` ${row.actor_name}` : '');

    /** The money ledger's rows written since the mark, each with its booking shares. */
    const printLedger = async () => {
      const entries = await app.db
        .selectFrom('ledger_entries')
        .select([
          'id',
          'kind',
          'purpose',
          'amount_cents',
          'vat_cents',
          'provider',
          'checkout_session_id',
          'refunded_entry_id',
          'branch_id',
          'actor_type',
          'actor_name',
          'occurred_at',
        ])
        .where('id', '>', marks.entry)
        .orderBy('id')
        .execute();
      const shares = await app.db
        .selectFrom('ledger_entry_bookings')
        .select(['entry_id', 'booking_id', 'amount_cents'])
        .where('entry_id', '>', marks.entry)
        .orderBy('entry_id')
        .orderBy('booking_id')
        .execute();
      say('money ledger (ledger_entries, with ledger_entry_bookings shares):');
      if (entries.length === 0) say('  (no row)');
      for (const entry of entries) {
        say(
          `  #${entry.id} ${entry.kind} ${entry.purpose} ${eur(entry.amount_cents)} EUR (VAT ${eur(entry.vat_cents)})` +
            `${entry.refunded_entry_id ? ` pays back #${entry.refunded_entry_id}` : ''}` +
            ` | ${entry.provider} ${entry.checkout_session_id} | branch ${entry.branch_id} | ${actor(entry)}` +
            ` | ${entry.occurred_at.toISOString()}`,
        );
        const own = shares.filter((share) => share.entry_id === entry.id);
        if (own.length === 0) say('      no booking share (a sale of credit)');
        for (const share of own) say(`      share: booking #${share.booking_id} ${eur(share.amount_cents)}`);
      }
      return entries;
    };

    /** The credit ledger's rows written since the mark, and the lots they touched. */
    const printCredit = async () => {
      const movements = await app.db
        .selectFrom('credit_movements as movement')
        .innerJoin('credit_lots as lot', 'lot.id', 'movement.lot_id')
        .select([
          'movement.id',
          'movement.lot_id',
          'lot.name',
          'lot.unit',
          'movement.kind',
          'movement.amount',
          'movement.value_cents',
          'movement.booking_id',
          'movement.actor_type',
          'movement.actor_name',
          'movement.occurred_at',
        ])
        .where('movement.id', '>', marks.movement)
        .orderBy('movement.id')
        .execute();
      say('credit ledger (credit_movements; amounts in the lot’s unit: cents or minutes):');
      if (movements.length === 0) say('  (no row)');
      for (const movement of movements) {
        say(
          `  #${movement.id} lot ${movement.lot_id} «${movement.name}» ${movement.kind} ${movement.amount} ${movement.unit}` +
            `${movement.value_cents ? ` (worth ${eur(movement.value_cents)} EUR of the booking's price)` : ''}` +
            `${movement.booking_id ? ` booking #${movement.booking_id}` : ''} | ${actor(movement)}` +
            ` | ${movement.occurred_at.toISOString()}`,
        );
      }
      const touched = [...new Set(movements.map((movement) => movement.lot_id))];
      if (touched.length > 0) {
        const lots = await app.db
          .selectFrom('credit_lots')
          .select(['id', 'name', 'unit', 'initial', 'remaining', 'expires_at', 'ledger_entry_id'])
          .where('id', 'in', touched)
          .orderBy('id')
          .execute();
        for (const lot of lots) {
          say(
            `  lot ${lot.id} «${lot.name}»: ${lot.remaining} of ${lot.initial} ${lot.unit} left, expires ${lot.expires_at.toISOString()}` +
              `${lot.ledger_entry_id ? `, bought by ledger row #${lot.ledger_entry_id}` : ''}`,
          );
        }
      }
      return movements;
    };

    const printDocuments = async () => {
      const documents = await app.db
        .selectFrom('tax_documents')
        .select(['id', 'kind', 'ledger_entry_id', 'total_cents', 'vat_cents', 'lines', 'status'])
        .where('id', '>', marks.document)
        .orderBy('id')
        .execute();
      say('tax documents (one per ledger row; issued by the invoice-issue job):');
      if (documents.length === 0) say('  (none)');
      for (const document of documents) {
        say(
          `  ${document.kind} for ledger row #${document.ledger_entry_id}: ${eur(document.total_cents)} EUR (VAT ${eur(document.vat_cents)}), ${document.status}` +
            ` — ${document.lines.map((line) => `${line.description} (${line.detail})`).join('; ')}`,
        );
      }
    };

    /** The outbox rows written since the mark; the full text of the kinds named. */
    const printMessages = async (fullText: readonly string[] = []) => {
      await app.afterAnswer.idle();
      const messages = await app.db
        .selectFrom('outbox')
        .select(['id', 'channel', 'recipient', 'kind', 'subject', 'text_body'])
        .where('id', '>', marks.outbox)
        .orderBy('id')
        .execute();
      say('messages (outbox):');
      if (messages.length === 0) say('  (none)');
      for (const message of messages) {
        say(
          `  ${message.channel} to ${message.recipient} [${message.kind}]${message.subject ? ` ${message.subject}` : ''}`,
        );
        if (fullText.includes(message.kind)) {
          for (const line of message.text_body.trimEnd().split('\n')) say(`  | ${line}`);
        }
      }
      return messages;
    };

    /** Everything the flow wrote, printed: its money rows, credit rows, documents and messages. */
    const printWritten = async (fullText: readonly string[] = []) => {
      say();
      const entries = await printLedger();
      const movements = await printCredit();
      await printDocuments();
      return { entries, movements, messages: await printMessages(fullText) };
    };

    const signIn = (email: string) => signInTo(app, email);
    const member = (firstName: string, email: string, phone: string) =>
      verifiedMember(app, { firstName, email, phone });
    const slotAt = async (localDate: string, localTime: string) => {
      const slots = (await inject('GET', `/api/bookings/slots/${branchId}/${localDate}`)).json<
        Schemas['TimeSlot'][]
      >();
      const slot = slots.find((candidate) => candidate.start_time.includes(`T${localTime}`));
      if (!slot) throw new Error(`no slot at ${localDate} ${localTime}`);
      return slot;
    };
    const sessionOf = (created: Schemas['CreateBookingResponse']) =>
      created.checkout_session.clientSecret!.split('_secret_')[0]!;
    const payByCard = async (sessionId: string) => {
      const paid = await call<Schemas['LocalCheckoutCompleteResponse']>(
        'POST',
        `/api/checkout/local/${sessionId}/complete`,
        { card_number: '4242 4242 4242 4242' },
      );
      say(`  checkout ${sessionId}: ${paid.status}, ${paid.outcome}`);
      const session = await app.db
        .selectFrom('checkout_sessions')
        .select(['amount_cents', 'payment_status'])
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      say(`  the member paid ${eur(session.amount_cents)} EUR by card (${session.payment_status})`);
      return session.amount_cents;
    };
    /** Books one slot at its price and pays it by card: what the member paid, in cents. */
    const bookOneByCard = async (token: string, slot: Schemas['TimeSlot']) => {
      const created = await call<Schemas['CreateBookingResponse']>(
        'POST',
        '/api/bookings/',
        { time_slot_id: [slot.id], expected_total_final_price_eur: slot.basic_price_eur },
        token,
      );
      return payByCard(sessionOf(created));
    };
    const myBookings = async (token: string) =>
      (await inject('GET', '/api/bookings/my-bookings', undefined, token)).json<Schemas['Booking'][]>();
    const bookingLine = (booking: Schemas['Booking']) =>
      `  #${booking.id} ${booking.time_slot_data.start_time} ${booking.status}: paid ${booking.final_price_eur.toFixed(2)} by card` +
      `${booking.credit_eur ? ` + ${booking.credit_eur.toFixed(2)} by credit` : ''}, refunded ${(booking.refunded_eur ?? 0).toFixed(2)}` +
      `${booking.status === 'confirmed' ? `, refundable now ${booking.refundable_eur.toFixed(2)}` : ''}` +
      `${booking.series_id ? `, series ${booking.series_id}` : ''}`;
    const cancel = async (token: string, bookings: Schemas['Booking'][]) =>
      call<Schemas['Message']>(
        'POST',
        '/api/bookings/cancel-bookings',
        {
          booking: bookings.map((booking) => ({
            booking_id: booking.id,
            expected_refund_eur: booking.refundable_eur,
          })),
        },
        token,
      );
    const runJob = async (queue: (typeof JOB_QUEUES)[keyof typeof JOB_QUEUES]) => {
      await app.jobs.boss.send(queue, null, { startAfter: dateFromInstant(clock.now()) });
      await app.jobs.runDue([queue]);
    };
    /** The lock confirms the codes it holds, as Seam's signed `access_code.set` webhook says. */
    const lockConfirmsCodes = async () => {
      for (const code of await fakeCodes()) {
        if (code.status === 'set') continue;
        fake.database.updateAccessCode({ access_code_id: code.access_code_id, status: 'set' });
        const answer = await seam.signedWebhook(app, {
          event_id: randomUUID(),
          event_type: 'access_code.set',
          device_id: lock,
          access_code_id: code.access_code_id,
          occurred_at: clock.now().toString(),
        });
        if (answer.statusCode !== 200) throw new Error(`webhook answered ${answer.statusCode}`);
      }
    };

    // ---------------------------------------------------------------------------------------------------------
    say();
    say(`# Setting up (${clock.now().toString()}): the branch, its door, an owner for the console`);
    await adminShown(
      'branch create --slug avenidas-novas --name "Lisboa – Avenidas Novas" ... --time-zone Europe/Lisbon --price 15' +
        ` --lock-device ${lock}`,
      ...branchCreateArguments(lock),
    );
    const branchId = (await app.db.selectFrom('branches').select('id').executeTakeFirstOrThrow()).id;
    await adminShown(
      `date-price set ${branchId} 2026-04-13 --day 20   (a dearer date)`,
      'date-price',
      'set',
      String(branchId),
      '2026-04-13',
      '--day',
      '20',
    );
    const ownerLines = await admin('operator', 'add', 'owner@gym.example', '--role', 'owner');
    say(
      '$ npm run admin -- operator add owner@gym.example --role owner   (then a password and a TOTP login)',
    );
    const setupToken = /[?&]setup=([A-Za-z0-9_-]+)/.exec(ownerLines.join('\n'))![1]!;
    const totpSecret = /[?&]secret=([A-Z2-7]+)/.exec(ownerLines.join('\n'))![1]!;
    await inject('POST', '/api/admin/auth/setup-password', {
      token: setupToken,
      password: 'a long console passphrase',
    });
    /** The owner signs in to the console with the code their authenticator shows now. */
    const ownerSignIn = async () =>
      (
        await inject('POST', '/api/admin/auth/login', {
          email: 'owner@gym.example',
          password: 'a long console passphrase',
          totp_code: totpCodeAt(totpSecret, clock.now().epochMilliseconds),
        })
      ).json<Schemas['OperatorLoginResponse']>().access_token;

    // ---------------------------------------------------------------------------------------------------------
    say();
    say('## a. A weekly series of 4 across the change to summer time (Sunday 29 March 2026)');
    await mark();
    const rui = await member('Rui', 'rui@example.pt', '+351912000001');
    let ana = await member('Ana', 'ana@example.pt', '+351912000002');
    say(
      `# ${clock.now().toString()}: another member (rui@example.pt) has already booked Monday 30 March 18:00`,
    );
    const ruiSlot = await slotAt('2026-03-30', '18:00');
    const ruiPaidCents = await bookOneByCard(rui, ruiSlot);

    say();
    say('# ana@example.pt opens Monday 23 March 18:00 (Lisbon) and asks for "repeat weekly", 4 weeks');
    const first = await slotAt('2026-03-23', '18:00');
    const preview = await call<Schemas['WeeklySeries']>('GET', `/api/bookings/weekly/${first.id}?weeks=4`);
    say(
      `  every ${['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'][preview.iso_weekday]} at ${preview.local_time} in the branch's zone:`,
    );
    for (const week of preview.occurrences) {
      say(
        `  week ${week.week} ${week.date}: ${week.slot ? `${week.slot.start_time} (${week.slot.start_time.endsWith('+00:00') ? 'winter time, UTC+0' : 'summer time, UTC+1'}) ${week.slot.basic_price_eur.toFixed(2)} EUR` : 'no slot'}` +
          `${week.problem ? ` — cannot be booked: ${week.problem}` : ''}`,
      );
    }
    const kept = preview.occurrences.filter((week) => week.problem === null && week.slot);
    const seriesTotal = kept.reduce((total, week) => total + week.slot!.basic_price_eur, 0);
    say(
      `# She drops week ${preview.occurrences
        .filter((week) => week.problem)
        .map((week) => week.week)
        .join(', ')} and keeps ${kept.length}: one checkout of ${seriesTotal.toFixed(2)} EUR`,
    );
    const seriesCreated = await call<Schemas['CreateBookingResponse']>(
      'POST',
      '/api/bookings/',
      {
        time_slot_id: kept.map((week) => week.slot!.id),
        expected_total_final_price_eur: seriesTotal,
        weekly_series: true,
      },
      ana,
    );
    const seriesCheckoutCents = await payByCard(sessionOf(seriesCreated));
    await app.jobs.runDue();
    let anaBookings = await myBookings(ana);
    say(
      'GET /api/bookings/my-bookings (one group, each week a booking with its own code and refund policy):',
    );
    for (const booking of anaBookings) say(bookingLine(booking));
    const seriesId = anaBookings[0]!.series_id!;
    const consoleSeries = await call<Schemas['AdminBookingPage']>(
      'GET',
      `/api/admin/bookings?series_id=${seriesId}`,
      undefined,
      await ownerSignIn(),
    );
    say('  the console lists the series (owner):');
    for (const item of consoleSeries.items) {
      say(
        `  #${item.id} ${item.start_time} ${item.status} — weekly series #${item.series!.id}: week ${item.series!.week} of ${item.series!.weeks}`,
      );
    }
    const seriesOnCli = await cliBookings('ana@example.pt');
    say(`  codes on the fake lock: ${(await fakeCodes()).length} (Rui's and Ana's three weeks)`);

    clock.set('2026-03-22T12:00:00Z');
    say();
    say(
      `# ${clock.now().toString()} — 30 hours before week 1: Ana cancels week 1 alone (the policy gives 50% from 24 h)`,
    );
    anaBookings = await myBookings(ana);
    const [week1, week3, week4] = anaBookings;
    say(bookingLine(week1!));
    await cancel(ana, [week1!]);
    say(
      '# Then "this week and the following" from week 3 (My bookings adds the later weeks to the selection): 100% back',
    );
    anaBookings = await myBookings(ana);
    await cancel(
      ana,
      anaBookings.filter((booking) => booking.id === week3!.id || booking.id === week4!.id),
    );
    anaBookings = await myBookings(ana);
    for (const booking of anaBookings) say(bookingLine(booking));
    await app.jobs.runDue();
    say(`  codes on the fake lock now: ${(await fakeCodes()).length} (Rui's only)`);
    const seriesRefunds = (await printWritten(['booking_canceled'])).entries
      .filter((row) => row.kind === 'refund')
      .map((row) => row.amount_cents);
    say();
    say('checks:');
    check('Rui paid by card', 1500, ruiPaidCents);
    check('the series: one checkout for its three weeks (15 + 15 + 20)', 5000, seriesCheckoutCents);
    check(
      'Ana was refunded 7.50 (week 1 at 50%) + 15.00 + 20.00',
      4250,
      anaBookings.reduce((total, booking) => total + Math.round((booking.refunded_eur ?? 0) * 100), 0),
    );
    check(
      'the refund rows add up to what she was refunded',
      4250,
      seriesRefunds.reduce((a, b) => a + b, 0),
    );

    // ---------------------------------------------------------------------------------------------------------
    say();
    say(
      '## b. A prepaid pack: defined by the operator, bought, spent with a card top-up, given back, expiring',
    );
    await mark();
    say(`# ${clock.now().toString()}`);
    await adminShown(
      `pack create --name "Crédito de 10 €" --branch ${branchId} --unit eur --credit 10 --price 9 --valid-days 30`,
      'pack',
      'create',
      '--name',
      'Crédito de 10 €',
      '--branch',
      String(branchId),
      '--unit',
      'eur',
      '--credit',
      '10',
      '--price',
      '9',
      '--valid-days',
      '30',
    );
    await adminShown('pack list', 'pack', 'list');
    let bia = await member('Beatriz', 'beatriz@example.pt', '+351912000003');
    const packs = await call<Schemas['CreditPack'][]>('GET', '/api/credit-packs');
    for (const pack of packs) {
      say(
        `  pack ${pack.id} «${pack.name}»: ${pack.credit} ${pack.unit} for ${pack.price_eur.toFixed(2)} EUR, ${pack.validity_days} days`,
      );
    }
    say('# beatriz@example.pt buys it in My account → Carteira');
    const packCheckout = await call<Schemas['CreateBookingResponse']>(
      'POST',
      `/api/credit-packs/${packs[0]!.id}/purchase`,
      {},
      bia,
    );
    const packPaidCents = await payByCard(sessionOf(packCheckout));
    await app.jobs.runDue();
    let wallet = await call<Schemas['Wallet']>('GET', '/api/wallet', undefined, bia);
    for (const lot of wallet.lots) {
      say(
        `  lot ${lot.id} «${lot.name}»: ${lot.remaining} of ${lot.initial} ${lot.unit}, expires ${lot.expires_at}`,
      );
    }

    say('# She books Wednesday 25 March 10:00 (15.00 EUR): the credit pays 10.00, the card the rest');
    const packSlot = await slotAt('2026-03-25', '10:00');
    const cover = await call<Schemas['CreditCover']>(
      'POST',
      '/api/wallet/cover',
      { time_slot_id: [packSlot.id] },
      bia,
    );
    say(`  credit pays ${cover.credit_eur.toFixed(2)}, due by card ${cover.due_eur.toFixed(2)}`);
    const creditBooking = await call<Schemas['CreateBookingResponse']>(
      'POST',
      '/api/bookings/',
      { time_slot_id: [packSlot.id], expected_total_final_price_eur: cover.due_eur, use_credit: true },
      bia,
    );
    const creditBookingCardCents = await payByCard(sessionOf(creditBooking));
    await app.jobs.runDue();
    let biaBookings = await myBookings(bia);
    for (const booking of biaBookings) say(bookingLine(booking));
    const creditOnCli = await cliBookings('beatriz@example.pt');

    clock.set('2026-03-24T04:00:00Z');
    say();
    say(
      `# ${clock.now().toString()} — 30 hours before: she cancels; the policy's 50% tier applies to both parts`,
    );
    biaBookings = await myBookings(bia);
    say(bookingLine(biaBookings[0]!));
    await cancel(bia, biaBookings);
    await app.jobs.runDue();
    biaBookings = await myBookings(bia);
    say(bookingLine(biaBookings[0]!));
    wallet = await call<Schemas['Wallet']>('GET', '/api/wallet', undefined, bia);
    say('  the wallet’s history (newest first):');
    for (const movement of wallet.movements) {
      say(
        `  ${movement.at} ${movement.kind} ${movement.amount} ${movement.unit}${movement.booking_id ? ` (booking #${movement.booking_id})` : ''}`,
      );
    }
    const lotAfterCancel = wallet.lots[0]!;
    say(`  lot ${lotAfterCancel.id}: ${lotAfterCancel.remaining} ${lotAfterCancel.unit} left`);

    // Bought on 22 March for 30 days: its last day is 21 April (to 23:59:59 in Lisbon, 22:59:59 UTC); the notice
    // goes 14 days before that.
    const expiryNotices = async () =>
      (
        await app.db
          .selectFrom('outbox')
          .select('id')
          .where('kind', '=', 'credit_expiry')
          .where('recipient', '=', 'beatriz@example.pt')
          .execute()
      ).length;
    clock.set('2026-04-07T22:00:00Z');
    await runJob(JOB_QUEUES.creditExpiry);
    say();
    say(
      `# ${clock.now().toString()} — the hourly credit-expiry job, 14 days and 1 hour before: ${await expiryNotices()} notice`,
    );
    clock.set('2026-04-07T23:00:00Z');
    await runJob(JOB_QUEUES.creditExpiry);
    clock.set('2026-04-08T09:00:00Z');
    await runJob(JOB_QUEUES.creditExpiry);
    const noticesSent = await expiryNotices();
    say(`# ${clock.now().toString()} — two runs later, within 14 days: ${noticesSent} notice (sent once)`);
    const packWritten = await printWritten(['booking_canceled', 'credit_expiry']);
    const packEntries = packWritten.entries;
    const packMovements = packWritten.movements;
    say();
    say('checks:');
    check('the pack’s sale row is what she paid for it', packPaidCents, packEntries[0]!.amount_cents);
    check(
      'the booking’s price = credit spent + card',
      1500,
      packMovements.find((row) => row.kind === 'spend')!.value_cents + creditBookingCardCents,
    );
    check(
      'card part refunded at 50% (ledger refund row)',
      Math.round(creditBookingCardCents / 2),
      packEntries.find((row) => row.kind === 'refund')?.amount_cents ?? 0,
    );
    check(
      'credit part given back at 50% (return movement)',
      500,
      packMovements.find((row) => row.kind === 'return')?.amount ?? 0,
    );
    check(
      'the lot: 1000 granted − 1000 spent + 500 returned',
      500,
      Math.round(lotAfterCancel.remaining * 100),
    );
    check('what My bookings says was refunded', 2.5, biaBookings[0]!.refunded_eur ?? 0);
    check('one expiry notice', 1, packWritten.messages.filter((row) => row.kind === 'credit_expiry').length);

    // ---------------------------------------------------------------------------------------------------------
    say();
    say('## c. A gift voucher, bought for someone and redeemed into their wallet');
    await mark();
    bia = await signIn('beatriz@example.pt');
    say(`# ${clock.now().toString()}: Beatriz offers 40 EUR to Rita (Carteira → "Oferecer um vale")`);
    const voucherCheckout = await call<Schemas['CreateBookingResponse']>(
      'POST',
      '/api/gift-vouchers',
      {
        amount_eur: 40,
        recipient_name: 'Rita',
        recipient_email: 'rita@example.pt',
        message: 'Parabéns! Bons treinos.',
      },
      bia,
    );
    const voucherSession = sessionOf(voucherCheckout);
    const voucherPaidCents = await payByCard(voucherSession);
    await app.jobs.runDue();
    const voucherStatus = await call<Schemas['CheckoutSessionStatus']>(
      'GET',
      `/api/checkout/session-status?stripe_session_id=${voucherSession}`,
      undefined,
      bia,
    );
    const voucherCode = voucherStatus.gift_voucher!.code!;
    say(
      `  voucher ${voucherCode}: ${voucherStatus.gift_voucher!.amount_eur.toFixed(2)} EUR for ${voucherStatus.gift_voucher!.recipient_name}, expires ${voucherStatus.gift_voucher!.expires_at}`,
    );
    say('# Rita opens the link in her e-mail, signs up and redeems the code (Carteira → "Usar um vale")');
    const rita = await member('Rita', 'rita@example.pt', '+351912000004');
    const redeemed = await call<Schemas['WalletLot']>(
      'POST',
      '/api/wallet/redeem',
      { code: voucherCode },
      rita,
    );
    say(
      `  lot ${redeemed.id} «${redeemed.name}»: ${redeemed.remaining} ${redeemed.unit}, every branch: ${redeemed.scope.branches === null}, expires ${redeemed.expires_at}`,
    );
    const again = await inject('POST', '/api/wallet/redeem', { code: voucherCode }, bia);
    say(
      `POST /api/wallet/redeem (the same code again) -> ${again.status} ${again.json<{ code: string }>().code}`,
    );
    const consoleVouchers = await call<Schemas['AdminGiftVoucher'][]>(
      'GET',
      '/api/admin/gift-vouchers',
      undefined,
      await ownerSignIn(),
    );
    say('  the console’s Vales page (owner):');
    for (const voucher of consoleVouchers) {
      say(
        `  ${voucher.code} ${voucher.amount_eur.toFixed(2)} EUR ${voucher.status}, bought by ${voucher.buyer_email}, redeemed by ${voucher.redeemed_by_email}`,
      );
    }
    const [voucherEntry] = (await printWritten(['gift_voucher'])).entries;
    say();
    say('checks:');
    check('the voucher’s sale row is what Beatriz paid', voucherPaidCents, voucherEntry!.amount_cents);
    check('Rita’s lot holds the voucher’s amount (cents)', 4000, Math.round(redeemed.remaining * 100));
    check('a second redemption is refused', 409, again.status);

    // ---------------------------------------------------------------------------------------------------------
    say();
    say('## d. Guests: a door code of their own');
    await mark();
    ana = await signIn('ana@example.pt');
    say(`# ${clock.now().toString()}: Ana books Thursday 9 April 10:00 (Lisbon, 09:00 UTC) and pays`);
    const guestSlot = await slotAt('2026-04-09', '10:00');
    const guestBookingPaidCents = await bookOneByCard(ana, guestSlot);
    await app.jobs.runDue();
    const booking = (await myBookings(ana)).find((row) =>
      row.time_slot_data.start_time.startsWith('2026-04-09'),
    )!;
    say('# In My bookings → "Convidados" she adds two guests');
    await call<Schemas['BookingGuest']>(
      'POST',
      `/api/bookings/${booking.id}/guests`,
      { name: 'Rita', email: 'rita@example.pt', phone_number: '+351912000004' },
      ana,
    );
    const guestPaulo = await call<Schemas['BookingGuest']>(
      'POST',
      `/api/bookings/${booking.id}/guests`,
      { name: 'Paulo', email: 'paulo@example.pt' },
      ana,
    );
    await app.jobs.runDue();
    await lockConfirmsCodes();
    await app.jobs.runDue();
    const guests = await call<Schemas['BookingGuest'][]>(
      'GET',
      `/api/bookings/${booking.id}/guests`,
      undefined,
      ana,
    );
    for (const guest of guests) say(`  guest ${guest.id} ${guest.name}: door code ${guest.door_code}`);
    const guestsOnCli = (await cliBookings('ana@example.pt')).find((row) => row.id === booking.id);
    const guestCodeIds = async () =>
      Object.fromEntries(
        (
          await app.db
            .selectFrom('booking_guests as guest')
            .innerJoin('lock_code_doors as door', 'door.lock_code_id', 'guest.lock_code_id')
            .select(['guest.name', 'door.provider_code_id'])
            .where('guest.booking_id', '=', booking.id)
            .execute()
        ).map((row) => [row.name, row.provider_code_id]),
      );
    const providerIds = await guestCodeIds();
    const onLock = (await fakeCodes()).filter((code) => code.starts_at === '2026-04-09T08:45:00.000Z');
    show('codes on the fake Seam lock for the window (start − 15 min .. end + 15 min)', onLock);
    say(
      `  Ana's code, Rita's (${providerIds.Rita}) and Paulo's (${providerIds.Paulo}): ${new Set(onLock.map((code) => code.code)).size} different codes`,
    );

    clock.set('2026-04-09T08:30:00Z');
    await app.jobs.runDue();
    await app.jobs.runDue();
    say();
    say(`# ${clock.now().toString()} — T-30: each guest gets their own code, in the member's language`);
    const sentToGuests = (
      await app.db
        .selectFrom('outbox')
        .select(['channel', 'recipient'])
        .where('kind', '=', 'guest_code')
        .orderBy('id')
        .execute()
    ).map((row) => `${row.channel} ${row.recipient}`);
    for (const line of sentToGuests) say(`  ${line}`);

    clock.set('2026-04-09T08:35:00Z');
    say();
    say(
      `# ${clock.now().toString()} — Ana removes Paulo: his code is revoked at once and deleted from the lock`,
    );
    await call('DELETE', `/api/bookings/${booking.id}/guests/${guestPaulo.id}`, undefined, ana);
    await app.jobs.runDue();
    const afterRemoval = await fakeCodes();
    const pauloStillOnLock = afterRemoval.some((code) => code.access_code_id === providerIds.Paulo);
    say(
      `  Paulo's ${providerIds.Paulo} on the lock: ${pauloStillOnLock ? 'still there' : 'gone'}; codes left for the window: ${afterRemoval.filter((code) => code.starts_at === '2026-04-09T08:45:00.000Z').length}`,
    );

    clock.set('2026-04-09T08:40:00Z');
    say();
    say(
      `# ${clock.now().toString()} — Ana cancels the booking (20 minutes ahead: the policy refunds nothing): every code goes`,
    );
    const toCancel = (await myBookings(ana)).find((row) => row.id === booking.id)!;
    say(bookingLine(toCancel));
    await cancel(ana, [toCancel]);
    await app.jobs.runDue();
    const afterCancel = (await fakeCodes()).filter((code) => code.starts_at === '2026-04-09T08:45:00.000Z');
    show('codes on the fake lock for the window after the sync', afterCancel);
    const guestsAfter = await call<Schemas['BookingGuest'][]>(
      'GET',
      `/api/bookings/${booking.id}/guests`,
      undefined,
      ana,
    );
    for (const guest of guestsAfter) say(`  guest ${guest.id} ${guest.name}: door code ${guest.door_code}`);
    say(
      `  our record: ${JSON.stringify(
        await app.db
          .selectFrom('booking_guests')
          .select(['name', 'lock_code_id', 'removed_at'])
          .where('booking_id', '=', booking.id)
          .orderBy('id')
          .execute(),
      )}`,
    );
    const guestEntries = (await printWritten(['guest_code'])).entries;
    say();
    say('checks:');
    check('the booking’s payment row is what Ana paid', guestBookingPaidCents, guestEntries[0]!.amount_cents);
    check(
      'no refund row (nothing refunded 20 minutes ahead)',
      0,
      guestEntries.filter((row) => row.kind === 'refund').length,
    );
    check('guests cost nothing: one money row', 1, guestEntries.length);
    check('no code of the booking left on the lock', 0, afterCancel.length);

    // ---------------------------------------------------------------------------------------------------------
    clock.set('2026-04-22T09:00:00Z');
    say();
    say(
      `## b, continued. ${clock.now().toString()}: Beatriz's lot has expired; the job writes off what is left`,
    );
    await mark();
    await runJob(JOB_QUEUES.creditExpiry);
    await printCredit();

    // ---------------------------------------------------------------------------------------------------------
    say();
    say('## The books at the end, as an accountant reads them');
    const totals = await app.db
      .selectFrom('ledger_entries')
      .select(['kind', 'purpose'])
      .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.sum<number>('amount_cents').as('cents')])
      .groupBy(['kind', 'purpose'])
      .orderBy('kind')
      .orderBy('purpose')
      .execute();
    for (const row of totals)
      say(`  ${row.kind} ${row.purpose}: ${row.rows} row(s), ${eur(Number(row.cents))} EUR`);
    const sumOf = (kind: 'payment' | 'refund') =>
      totals.filter((row) => row.kind === kind).reduce((total, row) => total + Number(row.cents), 0);
    const paidSessions = await app.db
      .selectFrom('checkout_sessions')
      .select((eb) => eb.fn.sum<number>('amount_cents').as('cents'))
      .where('payment_status', '=', 'paid')
      .executeTakeFirstOrThrow();
    const refunds = await app.db
      .selectFrom('refunds')
      .select((eb) => eb.fn.sum<number>('amount_cents').as('cents'))
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    const shareless = await app.db
      .selectFrom('ledger_entries as entry')
      .leftJoin('ledger_entry_bookings as share', 'share.entry_id', 'entry.id')
      .select(['entry.id', 'entry.purpose', 'entry.amount_cents'])
      .select((eb) => eb.fn.sum<number>('share.amount_cents').as('shares'))
      .groupBy(['entry.id', 'entry.purpose', 'entry.amount_cents'])
      .execute();
    const lots = await app.db
      .selectFrom('credit_lots as lot')
      .leftJoin('credit_movements as movement', 'movement.lot_id', 'lot.id')
      .select(['lot.id', 'lot.name', 'lot.remaining'])
      .select((eb) =>
        eb.fn
          .sum<number>(
            eb
              .case()
              .when('movement.kind', 'in', ['grant', 'return', 'release'])
              .then(eb.ref('movement.amount'))
              .else(eb.neg(eb.ref('movement.amount')))
              .end(),
          )
          .as('balance'),
      )
      .groupBy(['lot.id', 'lot.name', 'lot.remaining'])
      .orderBy('lot.id')
      .execute();
    say('checks:');
    check(
      'payments in the ledger = checkouts paid at the provider',
      Number(paidSessions.cents),
      sumOf('payment'),
    );
    check('refunds in the ledger = refunds the provider made', Number(refunds.cents), sumOf('refund'));
    check(
      'every booking row’s shares add up to it (sales of credit have none)',
      0,
      shareless.filter((row) =>
        ['credit_pack', 'gift_voucher'].includes(row.purpose)
          ? row.shares !== null
          : Number(row.shares) !== row.amount_cents,
      ).length,
    );
    for (const lot of lots) {
      check(
        `lot ${lot.id} «${lot.name}»: remaining = sum of its movements`,
        Number(lot.balance),
        lot.remaining,
      );
    }

    return {
      checks,
      series: {
        occurrences: preview.occurrences.map((week) => ({
          week: week.week,
          start: week.slot?.start_time ?? null,
          problem: week.problem,
          price_eur: week.slot?.basic_price_eur ?? null,
        })),
        checkoutCents: seriesCheckoutCents,
        refundsCents: seriesRefunds,
        seriesOnCli: seriesOnCli.map((row) => row.series),
      },
      pack: {
        lotRemainingAfterCancel: lotAfterCancel.remaining,
        expiryNotices: noticesSent,
        movements: packMovements.map((row) => `${row.kind} ${row.amount}`),
        creditOnCli: creditOnCli[0]!.credit_eur,
      },
      voucher: { code: voucherCode, redeemedLotEur: redeemed.remaining },
      guests: {
        codesOnLockAfterAdding: onLock.length,
        guestMessages: sentToGuests,
        removedGuestCodeOnLock: pauloStillOnLock,
        codesOnLockAfterCancel: afterCancel.length,
        guestsOnCli: guestsOnCli!.guests,
      },
    };
  } finally {
    await app.close();
    await seam.stop();
  }
}

if (import.meta.main) {
  const facts = await walkRegulars();
  process.exit(facts.checks.every((check) => check.ok) ? 0 : 1);
}
