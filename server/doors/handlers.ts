import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { verifySeamWebhook } from '../adapters/locks/seam.ts';
import { dateFromInstant } from '../kernel/clock.ts';
import type { Config } from '../config.ts';
import { AppError } from '../kernel/errors.ts';
import { assertDevelopmentCaller } from '../http/dev-routes.ts';
import { defineHandlers } from '../http/operations.ts';
import { resolveLocale } from '../kernel/i18n.ts';
import { doorPagePolicy, renderDoorPage } from './door-page.ts';
import type { DoorService } from './doors.ts';

/** Seam's webhook and the virtual doors' keypad (development). */
export function lockHandlers(deps: { doors: DoorService; config: Config }) {
  const { doors, config } = deps;
  // The keypad lists the codes a door holds: a development route, for callers on this machine only.
  const localDoors = (request: FastifyRequest) => {
    assertDevelopmentCaller(request, config);
    if (config.locks.provider !== 'local') throw new AppError('not_found');
  };
  return defineHandlers({
    seamWebhook: async (request) => {
      if (config.locks.provider !== 'seam' || !config.locks.webhookSecret) throw new AppError('not_found');
      const event = verifySeamWebhook(
        config.locks.webhookSecret,
        request.rawBody?.toString('utf8') ?? '',
        request.headers,
      );
      if (!event) throw new AppError('invalid_webhook_signature');
      await doors.applyEvent(event);
      return { received: true as const };
    },

    getDevDoorPage: async (request, reply) => {
      localDoors(request);
      const branch = await doors.branch(request.params.branch_id);
      if (!branch) throw new AppError('branch_not_found');
      const nonce = randomBytes(16).toString('base64');
      return reply
        .header('content-security-policy', doorPagePolicy(nonce))
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          renderDoorPage({
            locale: resolveLocale(request.headers.locale),
            branchId: branch.id,
            branchName: branch.name,
            nonce,
            held: await doors.virtualDoorCodes(branch.id),
          }),
        );
    },

    enterDevDoor: async (request) => {
      localDoors(request);
      const branch = await doors.branch(request.params.branch_id);
      if (!branch) throw new AppError('branch_not_found');
      const at = request.body.at ? new Date(request.body.at) : dateFromInstant(doors.now());
      return { opened: await doors.enterVirtualDoor(branch.id, request.body.code, at) };
    },
  });
}
