import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

// How answers may be kept along the way (docs/decisions.md, 'Speed: compression and caching'):
// - public reads (branches, refund policy, a day's slots) carry an ETag, so a browser or a shared cache
//   revalidates them with If-None-Match and gets 304 without the body; listings that change rarely may also be
//   reused for a short time without asking;
// - every other API answer (anything personal, anything that changes state) is `no-store` unless its handler
//   says otherwise (server/app.ts sets the default on every /api answer).

/** An answer no cache along the way may keep: anything personal, a token, business data. */
export function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
}

/** A strong validator of a body's bytes. */
export function entityTag(body: string | Buffer): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}

/** True when the request's If-None-Match names `tag` (or is `*`): the client's copy is current. */
export function isFresh(request: FastifyRequest, tag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((candidate) => candidate.trim().replace(/^W\//, ''))
    .some((candidate) => candidate === tag || candidate === '*');
}

/**
 * Sends a public JSON answer with its ETag and `cacheControl`; 304 without a body when the client already has it.
 * The body is serialised here once (the tag needs its bytes), so Fastify sends the text as it is.
 */
export function sendPublicJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  cacheControl: string,
): FastifyReply {
  const text = JSON.stringify(body);
  const tag = entityTag(text);
  reply.header('etag', tag).header('cache-control', cacheControl);
  if (isFresh(request, tag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(text);
}

/** Public listings that change rarely (branches, the refund policy): a minute without asking, then revalidated. */
export const SHORT_PUBLIC_CACHE = 'public, max-age=60, stale-while-revalidate=300';
/** Public answers that must be current each time (a day's slots): always revalidated, cheap when unchanged. */
export const REVALIDATED_PUBLIC_CACHE = 'public, no-cache';
