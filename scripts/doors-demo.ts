// A walk through the doors against Seam's own fake, on the real server code (buildApp) with an in-memory
// database and a clock of our own (so "30 minutes before the start" comes when we say):
//   node scripts/doors-demo.ts > doors-transcript.txt
// A branch mapped to a fake Seam lock; a member books and pays over HTTP; the code on the fake lock with its
// window; the T-30 message; an unlock event (a signed webhook) turned into checked_in_at; a second booking
// cancelled and its code removed from the lock.
import { randomUUID } from 'node:crypto';
import { buildApp } from '../server/app.ts';
import { fixedClock } from '../server/kernel/clock.ts';
import type { components } from '../openapi/schema.gen.ts';
import {
  adminRunner,
  branchCreateArguments,
  injector,
  startSeamFake,
  verifiedMember,
} from './demo-support.ts';

type Schemas = components['schemas'];

const say = (line = '') => process.stdout.write(`${line}\n`);
const show = (label: string, value: unknown) => say(`${label}: ${JSON.stringify(value, null, 2)}`);

const seam = await startSeamFake();
const { fake, lock } = seam;
say(`# Seam's fake (@seamapi/fake-seam-connect) listening at ${fake.serverUrl}; lock device ${lock}`);

const clock = fixedClock('2026-03-27T10:00:00Z');
const config = seam.config(5, { kind: 'pglite', dataDir: null });
const app = await buildApp(config, { clock });
const inject = injector(app);
const fakeCodes = seam.codes;

// The branch and its door, as the operator does it.
const admin = adminRunner(app, clock, config);
const branchCreated = await admin(...branchCreateArguments(lock));
say(`$ npm run admin -- branch create ... --lock-device ${lock}`);
for (const line of branchCreated) say(`  ${line}`);
const branchId = (await app.db.selectFrom('branches').select('id').executeTakeFirstOrThrow()).id;

// A member registers, is verified, logs in, books Monday 30 March 2026 10:00–11:00 Lisbon and pays.
const email = `ana-${randomUUID().slice(0, 8)}@example.com`;
const token = await verifiedMember(app, { firstName: 'Ana', email, phone: '+351912345678' });
const slots = (await inject('GET', `/api/bookings/slots/${branchId}/2026-03-30`)).json<
  Schemas['TimeSlot'][]
>();
const bookAndPay = async (slot: Schemas['TimeSlot']) => {
  const created = await inject(
    'POST',
    '/api/bookings/',
    {
      time_slot_id: [slot.id],
      max_bookings_per_slot: 1,
      coupon_code: null,
      expected_total_final_price_eur: slot.basic_price_eur,
    },
    token,
  );
  const sessionId = created
    .json<Schemas['CreateBookingResponse']>()
    .checkout_session.clientSecret!.split('_secret_')[0]!;
  return (
    await inject('POST', `/api/checkout/local/${sessionId}/complete`, { card_number: '4242 4242 4242 4242' })
  ).json<Schemas['LocalCheckoutCompleteResponse']>();
};
const morning = slots.find((slot) => slot.start_time.includes('T10:00'))!;
const evening = slots.find((slot) => slot.start_time.includes('T18:00'))!;
say();
say(`# ${clock.now().toString()}: ${email} books ${morning.start_time} and ${evening.start_time} and pays`);
show('payment (morning)', await bookAndPay(morning));
show('payment (evening)', await bookAndPay(evening));

await app.jobs.runDue();
say();
say(
  '# The codes on the fake Seam lock (created by the lock-sync job, window = start − 15 min .. end + 15 min)',
);
show('access codes on the lock', await fakeCodes());
show(
  'our view, per code and door',
  await app.db
    .selectFrom('lock_code_doors')
    .select(['lock_code_id', 'device_id', 'state', 'provider_code_id', 'programmed_from', 'programmed_until'])
    .orderBy('lock_code_id')
    .execute(),
);

/** Our state of each code on each door. */
const doorStates = () =>
  app.db.selectFrom('lock_code_doors').select(['lock_code_id', 'state']).orderBy('lock_code_id').execute();

// Seam reports the code set on the lock: a signed webhook.
const signed = (event: Record<string, unknown>) => seam.signedWebhook(app, event);
const onLock = await fakeCodes();
const morningCode = onLock.find((code) => code.starts_at === '2026-03-30T08:45:00.000Z');
const eveningCode = onLock.find((code) => code.starts_at === '2026-03-30T16:45:00.000Z');
for (const code of [morningCode!, eveningCode!]) {
  fake.database.updateAccessCode({ access_code_id: code.access_code_id, status: 'set' });
  const answer = await signed({
    event_id: randomUUID(),
    event_type: 'access_code.set',
    device_id: lock,
    access_code_id: code.access_code_id,
    occurred_at: clock.now().toString(),
  });
  say(
    `POST /api/locks/webhook access_code.set ${code.access_code_id} -> ${answer.statusCode} ${answer.body}`,
  );
}
const forged = await app.inject({
  method: 'POST',
  url: '/api/locks/webhook',
  payload: JSON.stringify({
    event_id: randomUUID(),
    event_type: 'access_code.removed_from_device',
    access_code_id: morningCode!.access_code_id,
  }),
  headers: {
    'content-type': 'application/json',
    'svix-id': 'msg_x',
    'svix-timestamp': String(Math.floor(Date.now() / 1000)),
    'svix-signature': 'v1,Zm9yZ2Vk',
  },
});
say(`POST /api/locks/webhook (forged signature) -> ${forged.statusCode} ${forged.body}`);
show('states now', await doorStates());

clock.set('2026-03-30T08:30:00Z');
await app.jobs.runDue();
say();
say(`# ${clock.now().toString()} (T-30 of the morning session, 09:00 UTC = 10:00 Lisbon): the message`);
for (const message of await app.db
  .selectFrom('outbox')
  .select(['channel', 'recipient', 'subject', 'text_body'])
  .where('kind', '=', 'access_code')
  .orderBy('id')
  .execute()) {
  say(`--- ${message.channel} to ${message.recipient}${message.subject ? ` — ${message.subject}` : ''}`);
  say(message.text_body.trimEnd());
}

say();
const unlockAt = '2026-03-30T08:52:00Z';
const unlocked = await signed({
  event_id: randomUUID(),
  event_type: 'lock.unlocked',
  device_id: lock,
  access_code_id: morningCode!.access_code_id,
  method: 'keycode',
  occurred_at: unlockAt,
});
say(`# The member types the code at ${unlockAt}: Seam sends lock.unlocked -> ${unlocked.statusCode}`);
show(
  'recorded door events',
  await app.db
    .selectFrom('lock_events')
    .select(['event_type', 'provider_code_id', 'lock_code_id', 'booking_id', 'occurred_at'])
    .orderBy('id')
    .execute(),
);
clock.set('2026-03-30T09:00:00Z');
const mine = (await inject('GET', '/api/bookings/my-bookings', undefined, token)).json<
  Schemas['Booking'][]
>();
show(
  'GET /api/bookings/my-bookings (morning)',
  (({ id, time_slot_data, lock_code, lock_code_valid_from, lock_code_valid_until, checked_in_at }) => ({
    id,
    start: time_slot_data.start_time,
    lock_code,
    lock_code_valid_from,
    lock_code_valid_until,
    checked_in_at,
  }))(mine.find((booking) => booking.time_slot_data.start_time.includes('T10:00'))!),
);

say();
say('# The member cancels the evening session: its code is deleted from the lock and confirmed revoked');
const eveningBooking = mine.find((booking) => booking.time_slot_data.start_time.includes('T18:00'))!;
const canceled = await inject(
  'POST',
  '/api/bookings/cancel-bookings',
  { booking: [{ booking_id: eveningBooking.id, expected_refund_eur: eveningBooking.refundable_eur }] },
  token,
);
say(`POST /api/bookings/cancel-bookings -> ${canceled.status} ${JSON.stringify(canceled.json())}`);
show('states right after', await doorStates());
await app.jobs.runDue();
show('access codes on the lock after the sync', await fakeCodes());
show('states after the sync', await doorStates());

/** The fields of `bookings list --json` this walk prints. */
type AdminBookingRow = {
  id: number;
  start: string;
  status: string;
  lock_code: string | null;
  lock_code_state: string | null;
  checked_in_at: string | null;
};
show(
  '$ npm run admin -- bookings list --json (door fields)',
  (JSON.parse((await admin('bookings', 'list', '--json')).join('\n')) as AdminBookingRow[]).map(
    ({ id, start, status, lock_code, lock_code_state, checked_in_at }) => ({
      id,
      start,
      status,
      lock_code,
      lock_code_state,
      checked_in_at,
    }),
  ),
);
const status = await admin('locks', 'status');
say('$ npm run admin -- locks status');
for (const line of status) say(`  ${line}`);

await app.close();
await seam.stop();
process.exit(0);
