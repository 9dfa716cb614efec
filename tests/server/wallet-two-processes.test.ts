import { describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/cli.ts';
import { DEMO_CLIENT } from '../../server/demo/demo-data.ts';
import { systemClock } from '../../server/kernel/clock.ts';
import { callJson, useServerProcesses } from './support/server-process.ts';

// Issue 31: two real server processes on one PostgreSQL database, and one member with one hour of credit left
// booking two different slots at once, one request through each process. The lot can pay one of them: exactly one
// booking is made (paid from credit, confirmed), the other hears 409 price_changed, and the lot's balance is the
// sum of its movements, never below zero.

const ROUNDS = 5;

describe('the last hour of a lot, spent through two server processes at once', () => {
  const shared = useServerProcesses({
    fromScratch: true,
    env: { RATE_LIMITS: 'login.ip=1000/1h,login.account=1000/1h,pack.purchase=1000/1h' },
  });
  const { servers } = shared;

  const post = callJson;

  it(`books exactly one of two slots with one hour of credit, ${ROUNDS} rounds over`, async () => {
    const errors: string[] = [];
    const created = await runAdmin(
      [
        'pack',
        'create',
        '--name',
        'Uma hora',
        '--branch',
        String(
          (await shared.db.selectFrom('branches').select('id').orderBy('id').executeTakeFirstOrThrow()).id,
        ),
        '--all-branches',
        '--unit',
        'hours',
        '--credit',
        '1',
        '--price',
        '12',
        '--valid-days',
        '30',
      ],
      {
        db: shared.db,
        clock: systemClock,
        horizonDays: 7,
        io: { out: () => undefined, err: (text) => errors.push(text) },
      },
    );
    expect(created, errors.join('\n')).toBe(0);
    const pack = await shared.db
      .selectFrom('credit_packs')
      .select('id')
      .where('name', '=', 'Uma hora')
      .executeTakeFirstOrThrow();

    const login = await fetch(`${servers[0]!.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: DEMO_CLIENT.email, password: DEMO_CLIENT.password }),
    });
    expect(login.status).toBe(200);
    const { access_token: token } = (await login.json()) as { access_token: string };

    const branches = (await (await fetch(`${servers[1]!.url}/api/bookings/branches`)).json()) as {
      id: number;
      active_with_smart_lock: boolean;
    }[];
    const branch = branches.find((candidate) => candidate.active_with_smart_lock)!;
    const day = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
    const slots = (
      (await (await fetch(`${servers[0]!.url}/api/bookings/slots/${branch.id}/${day}`)).json()) as {
        id: number;
        is_bookeable: boolean;
        start_time: string;
        end_time: string;
      }[]
    ).filter(
      (slot) =>
        slot.is_bookeable &&
        new Date(slot.end_time).getTime() - new Date(slot.start_time).getTime() <= 3_600_000,
    );
    expect(slots.length).toBeGreaterThanOrEqual(ROUNDS * 2);

    for (let round = 0; round < ROUNDS; round += 1) {
      const bought = await post(servers[round % 2]!, `/api/credit-packs/${pack.id}/purchase`, {}, token);
      expect(bought.status, JSON.stringify(bought.body)).toBe(201);
      const secret = (bought.body.checkout_session as { clientSecret: string }).clientSecret;
      const paid = await post(
        servers[(round + 1) % 2]!,
        `/api/checkout/local/${secret.split('_secret_')[0]}/complete`,
        {
          card_number: '4242 4242 4242 4242',
        },
      );
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);

      const pair = slots.slice(round * 2, round * 2 + 2);
      const answers = await Promise.all(
        pair.map((slot, index) =>
          post(
            servers[index]!,
            '/api/bookings/',
            { time_slot_id: [slot.id], expected_total_final_price_eur: 0, use_credit: true },
            token,
          ),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('price_changed');
    }

    const lots = await shared.db.selectFrom('credit_lots').select(['id', 'remaining']).execute();
    expect(lots).toHaveLength(ROUNDS);
    for (const lot of lots) {
      expect(lot.remaining).toBe(0);
      const movements = await shared.db
        .selectFrom('credit_movements')
        .select(['kind', 'amount'])
        .where('lot_id', '=', lot.id)
        .orderBy('id')
        .execute();
      expect(movements).toEqual([
        { kind: 'grant', amount: 60 },
        { kind: 'spend', amount: 60 },
      ]);
    }
    const confirmed = await shared.db
      .selectFrom('bookings')
      .select(['id', 'credit_cents', 'final_price_cents'])
      .where('status', '=', 'confirmed')
      .execute();
    expect(confirmed).toHaveLength(ROUNDS);
    expect(confirmed.every((booking) => booking.credit_cents === booking.final_price_cents)).toBe(true);
  }, 240_000);
});
