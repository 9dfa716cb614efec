// What the benchmarks share: server processes started and stopped, load phases (autocannon), JSON calls.
import { spawn, type ChildProcess } from 'node:child_process';
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
