import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackgroundLane, REST_PER_STEP } from '../../server/kernel/background-lane.ts';
import { PGLITE_ONLY } from './support/databases.ts';
import { startAccountApp, type AccountApp } from './support/accounts.ts';
import { loggedInOperator } from './support/operators.ts';

// The console's reports over a period and the ledger export give way to members (issue 33, "No request holds the
// event loop"; server/kernel/background-lane.ts): their steps run one at a time, and while other requests come,
// each rests REST_PER_STEP times as long as the step before it took, at least REPORT_REST_MS; on a quiet process they
// follow one another at once.

/** A promise and what settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the background lane', () => {
  it('runs its steps one at a time, in the order asked, and goes on after a step that failed', async () => {
    const lane = createBackgroundLane({ restMs: 0 });
    const events: string[] = [];
    const first = gate();
    const a = lane.step(async () => {
      events.push('a begins');
      await first.opened;
      events.push('a ends');
      throw new Error('a failed');
    });
    const b = lane.step(async () => {
      events.push('b runs');
      return 'b';
    });
    await sleep(50);
    expect(events).toEqual(['a begins']);
    first.open();
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b');
    expect(events).toEqual(['a begins', 'a ends', 'b runs']);
  });

  it('lets steps follow one another at once while no other request comes', async () => {
    const lane = createBackgroundLane({ restMs: 10_000 });
    const began = performance.now();
    for (let step = 0; step < 5; step += 1) await lane.step(async () => step);
    expect(performance.now() - began).toBeLessThan(5_000);
  });

  // Each `ended` below is read as the last thing a step does, so the lane's own end of that step is later still.
  it('rests at least restMs between steps while a request is in flight, and not once it has ended', async () => {
    const lane = createBackgroundLane({ restMs: 1_000 });
    let ended = 0;
    await lane.step(async () => (ended = performance.now()));
    const end = lane.foregroundBegins();
    for (let step = 0; step < 2; step += 1) {
      await lane.step(async () => {
        // Each step begins at least restMs after the one before it ended.
        expect(performance.now() - ended).toBeGreaterThanOrEqual(1_000);
        ended = performance.now();
      });
    }
    end();
    // The request ended before the last step began: the next step needs no rest.
    await lane.step(async () => 'rest over');
    const quiet = performance.now();
    await lane.step(async () => 'quiet');
    expect(performance.now() - quiet).toBeLessThan(1_000);
  });

  it('rests after a request that came and went between two steps', async () => {
    const lane = createBackgroundLane({ restMs: 300 });
    let ended = 0;
    await lane.step(async () => (ended = performance.now()));
    lane.foregroundBegins()();
    await lane.step(async () => {
      expect(performance.now() - ended).toBeGreaterThanOrEqual(300);
    });
  });

  it('rests REST_PER_STEP times as long as a long step took while requests come', async () => {
    const lane = createBackgroundLane({ restMs: 10 });
    const end = lane.foregroundBegins();
    let [began, ended] = [0, 0];
    await lane.step(async () => {
      began = performance.now();
      await sleep(40);
      ended = performance.now();
    });
    // What the lane counts as the step's time is at least what it took inside (a timer may fire a little early).
    expect(ended - began).toBeGreaterThan(30);
    // Below the second a rest may last at most.
    expect(REST_PER_STEP * (ended - began)).toBeLessThan(1_000);
    await lane.step(async () => {
      expect(performance.now() - ended).toBeGreaterThanOrEqual(REST_PER_STEP * (ended - began));
    });
    end();
  });

  it('rests no longer than a second after a step whose REST_PER_STEP times would be longer', async () => {
    const lane = createBackgroundLane({ restMs: 10 });
    const end = lane.foregroundBegins();
    let ended = 0;
    await lane.step(async () => {
      await sleep(1_000);
      ended = performance.now();
    });
    await lane.step(async () => {
      const rest = performance.now() - ended;
      // REST_PER_STEP times the step would be many seconds.
      expect(rest).toBeGreaterThanOrEqual(1_000);
      expect(rest).toBeLessThan(2_500);
    });
    end();
  });

  it('counts a request once however often its end is told', async () => {
    const lane = createBackgroundLane({ restMs: 300 });
    const first = lane.foregroundBegins();
    first();
    first();
    const second = lane.foregroundBegins();
    let ended = 0;
    // Clears the news of both requests: from here only those in flight count.
    await lane.step(async () => (ended = performance.now()));
    await lane.step(async () => {
      // The second request is still in flight: had the first counted twice, none would be.
      expect(performance.now() - ended).toBeGreaterThanOrEqual(300);
    });
    second();
  });
});

describe.each(PGLITE_ONLY)('money reports beside a member request on %s', (target) => {
  const REST_MS = 3_000;
  let server: AccountApp;
  let origin: string;
  let token: string;

  beforeAll(async () => {
    server = await startAccountApp(target, { REPORT_REST_MS: String(REST_MS) });
    token = (await loggedInOperator(server.app, server.clock, 'owner-lane@gym.example', 'owner')).token;
    origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => server?.close());

  async function report(): Promise<{ status: number; endedAt: number }> {
    const response = await fetch(`${origin}/api/admin/reports/money?from=2026-03-01&to=2026-03-31`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    return { status: response.status, endedAt: performance.now() };
  }

  it('rests between reports while a member request is in flight, and no longer once it has gone', async () => {
    // A member's request whose body is still coming: in flight until its connection closes.
    const member = net.connect(Number(new URL(origin).port), '127.0.0.1');
    await new Promise((resolve) => member.once('connect', resolve));
    member.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: gym.example\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"email":',
    );
    await sleep(100);

    const first = await report();
    const second = await report();
    expect([first.status, second.status]).toEqual([200, 200]);
    // The second report's step began at least REPORT_REST_MS after the first's ended, which was a little before
    // the first answer reached the caller (the margin); without a rest the two would be a few ms apart.
    expect(second.endedAt - first.endedAt).toBeGreaterThanOrEqual(REST_MS - 250);

    // The member leaves without finishing the request: it no longer counts.
    member.destroy();
    await sleep(100);
    const began = performance.now();
    const third = await report();
    const fourth = await report();
    expect([third.status, fourth.status]).toEqual([200, 200]);
    expect(fourth.endedAt - began).toBeLessThan(REST_MS);
  }, 30_000);
});
