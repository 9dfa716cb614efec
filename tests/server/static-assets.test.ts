import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';

// The built client's assets go out compressed when the browser accepts it (the build writes .br and .gz
// copies next to each file), and as they are otherwise.

const script = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;

describe('the built client’s assets', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'gym-dist-'));
  let app: FastifyInstance;

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), script);
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'), gzipSync(script));
    mkdirSync(path.join(dist, 'images', 'branches'), { recursive: true });
    writeFileSync(
      path.join(dist, 'images', 'branches', 'door.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    app = await buildApp({
      ...loadConfig({
        NODE_ENV: 'test',
        SEED_DEMO_DATA: 'false',
        SLOT_HORIZON_DAYS: '1',
        CLIENT_DIST_DIR: dist,
        LOG_LEVEL: 'silent',
      }),
      database: { kind: 'pglite', dataDir: null },
    });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('are sent as Brotli to a browser that accepts it, cached for a year', async () => {
    const response = await app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('are sent as gzip to a browser that accepts only gzip', async () => {
    const response = await app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(script);
  });

  it('are sent uncompressed to a client that accepts no encoding', async () => {
    const response = await app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(script);
  });

  // Issue 30: an entrance photo in the door-code e-mail is loaded by a webmail from its own origin.
  it('lets pictures be shown on other origins (e-mails), and nothing else', async () => {
    const picture = await app.inject({ url: '/images/branches/door.svg' });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['cross-origin-resource-policy']).toBe('cross-origin');
    for (const url of ['/assets/app-abc123.js', '/api/health', '/pt']) {
      expect((await app.inject({ url })).headers['cross-origin-resource-policy'], url).toBe('same-origin');
    }
  });
});
