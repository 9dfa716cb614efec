import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { branchHandlers } from './branches/handlers.ts';
import { createBranchService } from './branches/service.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDemoData } from './db/seed.ts';
import { AppError } from './errors.ts';
import { healthHandlers } from './health/handlers.ts';
import { registerApi } from './http/api.ts';
import { registerClient } from './http/client.ts';
import { errorHandler } from './http/error-handler.ts';
import { loggerOptions } from './http/logging.ts';
import { validatorCompiler } from './http/validation.ts';
import { notificationHandlers } from './notifications/handlers.ts';

export type AppOptions = { clock?: Clock };

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** Opens storage, brings its schema up to date, and wires every route. The caller decides when to listen. */
export async function buildApp(
  config: Config,
  { clock = systemClock }: AppOptions = {},
): Promise<FastifyInstance> {
  const database = await openDatabase(config.database);
  const app = Fastify({
    logger: loggerOptions(config),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    genReqId: () => randomUUID(),
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false },
  });
  app.decorate('db', database.db);
  app.addHook('onClose', async () => database.close());

  try {
    await migrateToLatest(database.db);
    if (config.seedDemoData && (await seedDemoData(database.db, clock))) {
      app.log.info('seeded the demo data set into an empty database');
    }
    const branches = createBranchService({ db: database.db, clock, horizonDays: config.slotHorizonDays });
    await branches.ensureSlotHorizon();

    app.setValidatorCompiler(validatorCompiler);
    app.setErrorHandler(errorHandler);
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Mantine writes component styles at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameSrc: ["'self'", 'https://www.openstreetmap.org'],
          frameAncestors: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
        },
      },
      // The embedded map and the payment page are cross-origin frames.
      crossOriginEmbedderPolicy: false,
    });

    await registerApi(app, {
      config,
      handlers: {
        ...branchHandlers(branches),
        ...healthHandlers(database.db),
        ...notificationHandlers(database.db, config),
      },
      security: {
        // Sessions arrive with the accounts issue; until then no bearer token can be valid.
        bearerAuth: async () => {
          throw new AppError('unauthorized');
        },
      },
    });
    await registerClient(app, config);
    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
