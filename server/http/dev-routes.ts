import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../kernel/errors.ts';

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
}

/**
 * The development routes (/api/dev) hand out verification codes and reset links: they exist outside production
 * only, and answer only a client on this machine. Both the connection and the client address it speaks for
 * must be loopback, so neither a forged X-Forwarded-For nor a proxy on the same host opens them. Anyone else
 * gets the same 404 as production.
 */
export function assertDevelopmentCaller(request: FastifyRequest, config: Pick<Config, 'devRoutes'>): void {
  if (!config.devRoutes || !isLoopback(request.socket.remoteAddress) || !isLoopback(request.ip)) {
    throw new AppError('not_found');
  }
}
