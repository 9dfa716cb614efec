// What the benchmarks share: server processes started and stopped, load phases (autocannon), JSON calls.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';

export const root = path.resolve(import.meta.dirname, '..');
/** Each load phase's length (BENCH_SECONDS, 10 by default). */
export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export type Child = { process: ChildProcess; url: string; output: string[] };

async function waitForHealth(child: ChildProcess, url: string, output: string[]): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`process exited early:\n${output.join('')}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`process did not start:\n${output.join('')}`);
}

export async function start(
  script: string,
  port: number,
  env: Record<string, string>,
  health: string,
): Promise<Child> {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(child, `${url}${health}`, output);
  return { process: child, url, output };
}

export async function stop(child: Child | undefined): Promise<void> {
  if (!child || child.process.exitCode !== null) return;
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.process.exitCode === null) child.process.kill('SIGKILL');
}

export type Load = {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  notModified: number;
};

export async function load(
  urls: string[],
  connections: number,
  headers: Record<string, string> = {},
  seconds = DURATION_SECONDS,
): Promise<Load> {
  let next = 0;
  const base = new URL(urls[0]!);
  const result = await autocannon({
    url: base.origin,
    connections,
    duration: seconds,
    headers,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const target = new URL(urls[next % urls.length]!);
          next += 1;
          return { ...request, path: `${target.pathname}${target.search}` };
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx - result['3xx'],
    notModified: result['3xx'],
  };
}

export type PacedLoad = { rps: number; p50: number; p99: number; errors: number };

/**
 * Members at a steady pace, not as fast as answered: `members` clients, each asking for the next of `urls`,
 * reading its whole answer, then pausing `pauseMs` before the next, for `seconds`. Latencies are timed to the
 * microsecond (autocannon's are whole milliseconds, too coarse for a ratio of 3 ms figures; its fixed rate sends
 * each second's requests in a burst).
 */
export async function paced(
  urls: string[],
  members: number,
  pauseMs: number,
  seconds: number,
): Promise<PacedLoad> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: members });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const until = performance.now() + seconds * 1000;
  const ask = (url: string) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.get(url, { agent }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === 200) latencies.push(performance.now() - started);
          else errors += 1;
          resolve();
        });
      });
      request.on('error', () => {
        errors += 1;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: members }, async () => {
      while (performance.now() < until) {
        await ask(urls[next++ % urls.length]!);
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0;
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors };
}

export async function json(url: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, body: body as Record<string, unknown> & unknown[] };
}

/** A GET read to its end: its status, or 0 when the connection failed or was cut. */
export async function download(url: string, token: string): Promise<number> {
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    console.error(`GET ${url}: ${String(error)}`);
    return 0;
  }
}
