import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { resolveLocale } from '../i18n.ts';

/**
 * Serves the built single-page app from the same process as the API: hashed assets are cached for a
 * year, the HTML never, and any path that is not a file gets the app's index.html (client-side routes).
 */
export async function registerClient(app: FastifyInstance, config: Config): Promise<void> {
  const indexFile = path.join(config.clientDistDir, 'index.html');
  const clientBuilt = existsSync(indexFile);
  if (clientBuilt) {
    await app.register(fastifyStatic, {
      root: config.clientDistDir,
      prefix: '/',
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        const cacheControl = filePath.endsWith('.html')
          ? 'no-cache'
          : filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=3600';
        reply.header('cache-control', cacheControl);
      },
    });
  } else {
    app.log.warn({ indexFile }, 'the client is not built; run `npm run build` to serve it');
  }

  app.setNotFoundHandler((request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !path.extname(urlPath);
    if (!wantsPage || !clientBuilt) {
      const error = new AppError('not_found');
      return reply.status(404).send(error.body(resolveLocale(request.headers.locale)));
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  });
}
