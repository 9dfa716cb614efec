import { describe, expect, it } from 'vitest';
import { useServerProcesses } from './support/server-process.ts';

// Two real server processes (`node server/main.ts`) on one PostgreSQL database, booked over HTTP at once:
// the database alone decides who wins, so exactly one request per slot may succeed.

const ROUNDS = 20;
const REQUESTS_PER_ROUND = 50;

describe('two server processes on one PostgreSQL database', () => {
  // The first one migrates and seeds the demo data; the second finds both done.
  const { servers } = useServerProcesses({ fromScratch: true });

  it(`give exactly one booking per slot when ${REQUESTS_PER_ROUND} requests race for it, ${ROUNDS} rounds over`, async () => {
    const login = await fetch(`${servers[0]!.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'demo@example.com', password: 'Demo-gym-2026!' }),
    });
    expect(login.status).toBe(200);
    const { access_token: token } = (await login.json()) as { access_token: string };

    const branches = (await (await fetch(`${servers[1]!.url}/api/bookings/branches`)).json()) as {
      id: number;
      active_with_smart_lock: boolean;
    }[];
    const branch = branches.find((candidate) => candidate.active_with_smart_lock)!;
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const slots = (await (
      await fetch(`${servers[0]!.url}/api/bookings/slots/${branch.id}/${day}`)
    ).json()) as {
      id: number;
      basic_price_eur: number;
      is_bookeable: boolean;
    }[];
    const bookable = slots.filter((slot) => slot.is_bookeable);
    expect(bookable.length).toBeGreaterThanOrEqual(ROUNDS);

    const statuses: number[][] = [];
    for (const slot of bookable.slice(0, ROUNDS)) {
      const round = await Promise.all(
        Array.from({ length: REQUESTS_PER_ROUND }, async (_, index) => {
          const response = await fetch(`${servers[index % 2]!.url}/api/bookings/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({
              time_slot_id: [slot.id],
              max_bookings_per_slot: 1,
              coupon_code: null,
              expected_total_final_price_eur: slot.basic_price_eur,
            }),
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      statuses.push(round);
    }

    for (const round of statuses) {
      expect(round.filter((status) => status === 201)).toHaveLength(1);
      expect(round.filter((status) => status === 409)).toHaveLength(REQUESTS_PER_ROUND - 1);
    }
    const after = (await (
      await fetch(`${servers[1]!.url}/api/bookings/slots/${branch.id}/${day}`)
    ).json()) as {
      id: number;
      is_bookeable: boolean;
    }[];
    const raced = new Set(bookable.slice(0, ROUNDS).map((slot) => slot.id));
    expect(after.filter((slot) => raced.has(slot.id)).every((slot) => !slot.is_bookeable)).toBe(true);
  }, 240_000);
});
