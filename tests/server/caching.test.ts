import type { Schemas } from './support/accounts.ts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lisbonSlot } from './bookings-fixtures.ts';
import { newClient, startAccountApp, verifiedAccount, type AccountApp } from './support/accounts.ts';
import { createBranch } from './support/fixtures.ts';

// What may be kept along the way, and how answers travel: public reads compressed and revalidated with an ETag
// (304 without a body), short-lived caching for rarely changing listings, and nothing personal ever cacheable.

const description = (language: string) => `<p>${`${language} `.repeat(400)}</p>`;
const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(200)}</svg>`;
const page = `<!doctype html><html lang="pt"><head><title>app</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(200)}</body></html>`;

describe('caching and compression', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'gym-dist-'));
  let server: AccountApp;
  let branchId: number;

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'images'));
    writeFileSync(path.join(dist, 'index.html'), page);
    writeFileSync(path.join(dist, 'images', 'gym.svg'), svg);
    writeFileSync(path.join(dist, 'images', 'gym.svg.br'), brotliCompressSync(svg));
    writeFileSync(path.join(dist, 'images', 'gym.svg.gz'), gzipSync(svg));
    server = await startAccountApp('pglite', { CLIENT_DIST_DIR: dist });
    branchId = await createBranch(server.app.db, {
      descriptions: {
        pt: description('pt'),
        en: description('en'),
        fr: description('fr'),
        de: description('de'),
        sk: description('sk'),
      },
    });
    await lisbonSlot(server.app.db, branchId, '2026-03-25T10:00');
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends the branches in the asked language only, compressed, cacheable a short time, and 304 when unchanged', async () => {
    const caller = newClient(server.app);
    const all = await caller.get('/api/bookings/branches');
    expect(Object.keys(all.json<Schemas['Branch'][]>()[0]!.descriptions_data)).toEqual([
      'pt',
      'en',
      'fr',
      'de',
      'sk',
    ]);

    const english = await caller.get('/api/bookings/branches?lang=en', undefined, {
      'accept-encoding': 'gzip, br',
    });
    expect(english.statusCode).toBe(200);
    expect(english.headers['content-encoding']).toBe('br');
    expect(english.headers.vary).toMatch(/accept-encoding/i);
    expect(english.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
    const body = JSON.parse(brotliDecompressSync(english.rawPayload).toString()) as {
      descriptions_data: Record<string, string>;
    }[];
    expect(body[0]!.descriptions_data).toEqual({ en: description('en') });
    expect(english.headers.etag).toMatch(/^"[\w-]+"$/);

    const again = await caller.get('/api/bookings/branches?lang=en', undefined, {
      'if-none-match': english.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(english.headers.etag);

    const otherLanguage = await caller.get('/api/bookings/branches?lang=de', undefined, {
      'if-none-match': english.headers.etag as string,
    });
    expect(otherLanguage.statusCode).toBe(200);
    expect(otherLanguage.json<Schemas['Branch'][]>()[0]!.descriptions_data).toEqual({
      de: description('de'),
    });
  });

  it('revalidates a day’s slots on every use, 304 while nothing changed', async () => {
    const caller = newClient(server.app);
    const first = await caller.get(`/api/bookings/slots/${branchId}/2026-03-25`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const again = await caller.get(`/api/bookings/slots/${branchId}/2026-03-25`, undefined, {
      'if-none-match': first.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
    // A refusal is not cached.
    const missing = await caller.get('/api/bookings/slots/999999/2026-03-25');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.etag).toBeUndefined();
  });

  it('never lets a cache keep a personal answer or one that changes state', async () => {
    const caller = newClient(server.app);
    const { token } = await verifiedAccount(caller, server.app);
    for (const url of ['/api/bookings/my-bookings', '/api/auth/me', '/api/auth/token/validate']) {
      const response = await caller.get(url, token, { 'accept-encoding': 'br' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers.etag, url).toBeUndefined();
    }
    const login = await caller.login('nobody@example.com', 'wrong password, long enough');
    expect(login.headers['cache-control']).toBe('no-store');
  });

  it('sends pages compressed, revalidated each time, 304 when unchanged', async () => {
    const caller = newClient(server.app);
    const first = await caller.get('/pt', undefined, { 'accept-encoding': 'gzip' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(first.rawPayload).toString()).toContain('<div id="root">');
    const again = await caller.get('/pt', undefined, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('sends images compressed with validators', async () => {
    const caller = newClient(server.app);
    const first = await caller.get('/images/gym.svg', undefined, { 'accept-encoding': 'br' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    expect(brotliDecompressSync(first.rawPayload).toString()).toBe(svg);
    const again = await caller.get('/images/gym.svg', undefined, {
      'accept-encoding': 'br',
      'if-none-match': first.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
  });
});
