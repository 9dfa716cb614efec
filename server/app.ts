import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { authHandlers, bearerAuth, retryAfterHook } from './accounts/index.ts';
import { bookingHandlers, checkoutPublicHandlers, keepWebhookRawBody } from './booking/index.ts';
import { branchHandlers, listBranches, refundPolicyText } from './catalog/index.ts';
import type { Config } from './config.ts';
import { consoleHandlers } from './console/index.ts';
import { invoicingHandlers } from './invoicing/index.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { DEMO_OWNER } from './demo/demo-data.ts';
import { seedDemoData } from './demo/seed.ts';
import { lockHandlers, type DoorService } from './doors/index.ts';
import { registerApi } from './http/api.ts';
import { registerClient } from './http/client.ts';
import { drainOnClose } from './http/drain.ts';
import { errorHandler } from './http/error-handler.ts';
import { healthHandlers } from './http/health.ts';
import { siteHandlers } from './http/site.ts';
import { loggerOptions } from './http/logging.ts';
import { securityHeadersHook } from './http/security-headers.ts';
import { buildSerializerOnFirstUse } from './http/compiled-schemas.ts';
import { describeValidationProblems, fieldProblems, validatorCompiler } from './http/validation.ts';
import type { AfterAnswer } from './jobs/after-answer.ts';
import type { JobQueue } from './jobs/queue.ts';
import { systemClock, type Clock } from './kernel/clock.ts';
import { AppError } from './kernel/errors.ts';
import { resolveLocale } from './kernel/i18n.ts';
import { createModules, type Modules } from './modules.ts';
import { notificationHandlers, type OutboxWorker } from './notifications/index.ts';
import { operatorAuth, operatorHandlers, totpUri } from './operators/index.ts';

/** The routes whose work runs in the background lane: the reports over a period and the ledger export. */
const BACKGROUND_ROUTES = '/api/admin/reports/';

export type AppOptions = {
  clock?: Clock;
  /** Where the JSON log lines go instead of stdout, at `LOG_LEVEL` even under test (tests read them). */
  logStream?: { write(line: string): void };
};

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** Delivers the notifications outbox; tests call `runOnce()` on it. */
    outboxWorker: OutboxWorker;
    /** The durable job queue (pg-boss); under an injected test clock, tests call `runDue()` on it. */
    jobs: JobQueue;
    /** Work requests leave for after their answer; tests wait for `idle()` before reading its results. */
    afterAnswer: AfterAnswer;
    /** The doors: code lifecycle, door events, the virtual doors' keypad. */
    doors: DoorService;
    /** Starts the periodic work (outbox delivery, housekeeping); main.ts calls it once listening. */
    startBackgroundWork(): void;
    /** The composition root's services (server/modules.ts), which the CLI runs on too; tests hand them to it. */
    modules: Modules;
  }
}

/**
 * Fastify validates a body only against the schema of its own media type, so a body of a type the contract
 * does not declare for the operation (or none at all) would reach the handler unchecked. Refuse both.
 */
async function requireDeclaredBody(request: FastifyRequest): Promise<void> {
  const content = (request.routeOptions.schema?.body as { content?: Record<string, unknown> } | undefined)
    ?.content;
  if (!content) return;
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (!mediaType || request.body === undefined) {
    const missing = [
      { keyword: 'required', instancePath: '', schemaPath: '', params: { missingProperty: 'body' } },
    ];
    const problems = describeValidationProblems(missing, undefined, resolveLocale(request.headers.locale));
    throw new AppError('validation_failed', { problems }, { fields: fieldProblems(missing, undefined) });
  }
  if (!Object.hasOwn(content, mediaType)) throw new AppError('unsupported_media_type');
}

/**
 * Fastify 5 fails closed on a bare hop count (it trusts nothing), so the count becomes the function Express's
 * proxy-addr would build: the socket's peer and the next `hops - 1` forwarded entries are proxies, the entry
 * after them is the client. Unlike a list of addresses it cannot check the peer, so it is only sound where
 * nothing but the proxies can reach the server (docs/operations.md).
 */
function trustProxyOption(trustProxy: Config['trustProxy']) {
  if (typeof trustProxy !== 'number') return trustProxy;
  return (_address: string, hop: number) => hop < trustProxy;
}

/** Opens storage, brings its schema up to date, and wires every route. The caller decides when to listen. */
export async function buildApp(
  config: Config,
  { clock = systemClock, logStream }: AppOptions = {},
): Promise<FastifyInstance> {
  const database = await openDatabase(config.database, { timeouts: config.databaseTimeouts });
  const app = Fastify({
    logger: logStream
      ? { ...(loggerOptions(config) as object), level: config.logLevel, stream: logStream }
      : loggerOptions(config),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 64 * 1024,
    genReqId: () => randomUUID(),
    // Answers' serializers compiled on first use, once per process (server/http/compiled-schemas.ts).
    schemaController: { compilersFactory: { buildSerializer: buildSerializerOnFirstUse } },
    forceCloseConnections: 'idle',
    // A stopping process drains (server/http/drain.ts): a request on an open connection is answered, not 503.
    return503OnClosing: false,
    // Room for the contract's longest path parameter (a 512-character reset token), so its own limit answers.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 600 },
    // The router's own refusals (an overlong or undecodable path) get the catalogue's {detail, code} too.
    frameworkErrors: (error, request, reply) => {
      const appError = new AppError(error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'url_too_long' : 'bad_url');
      void (reply as FastifyReply)
        .status(appError.status)
        .send(appError.body(resolveLocale(request.headers.locale)));
    },
  });
  app.decorate('db', database.db);
  drainOnClose(app);
  // Background work stops before the database closes, so no round is cut off mid-transaction.
  const stopBeforeClosing: (() => Promise<void>)[] = [];
  app.addHook('onClose', async () => {
    for (const stop of stopBeforeClosing) await stop();
    await database.close();
  });

  try {
    await migrateToLatest(database.db, { vatRate: config.company.vatRate });
    if (config.seedDemoData && (await seedDemoData(database.db, clock))) {
      app.log.info('seeded the demo data set into an empty database');
    }
    if (config.seedDemoData) {
      // Development only (never seeded in production): how to open the console with the demo owner.
      app.log.info(
        `operator console: ${config.publicUrl}/en/admin as ${DEMO_OWNER.email} / ${DEMO_OWNER.password}, TOTP ${totpUri(DEMO_OWNER.totpSecret, DEMO_OWNER.email)}`,
      );
    }
    const modules = await createModules(config, database, clock, { log: app.log });
    // First to stop: the queue's jobs write to the outbox and the database.
    stopBeforeClosing.push(modules.stop);
    const { branches, doors, jobs, afterAnswer, outboxWorker, delivery, auth, operators } = modules;
    await branches.ensureSlotHorizon();
    if (config.isProduction && delivery.mailer.name === 'log') {
      app.log.warn('SMTP_URL is not set: e-mails are kept in the outbox and not delivered');
    }
    app.decorate('doors', doors);
    app.decorate('jobs', jobs);
    app.decorate('afterAnswer', afterAnswer);
    app.decorate('outboxWorker', outboxWorker);
    app.decorate('startBackgroundWork', modules.startBackgroundWork);
    app.decorate('modules', modules);
    app.decorateRequest('user', null);
    app.decorateRequest('operatorCaller', null);

    app.addHook('preParsing', keepWebhookRawBody);
    if (config.isProduction && config.payments.provider === 'local') {
      app.log.warn(
        'STRIPE_SECRET_KEY is not set: payments use the local test checkout, where a test card pays',
      );
    }

    app.setValidatorCompiler(validatorCompiler);
    app.setErrorHandler(errorHandler);
    app.addHook('onError', retryAfterHook);
    app.addHook('preValidation', requireDeclaredBody);
    // Stripe's sources only on the HTML pages, and only with Stripe (server/http/client.ts).
    app.addHook('onRequest', securityHeadersHook(config));
    // Every request but the reports over a period and the exports is one the background lane gives way to
    // (server/kernel/background-lane.ts).
    app.addHook('onRequest', (request, reply, done) => {
      if (!request.url.startsWith(BACKGROUND_ROUTES)) {
        reply.raw.once('close', modules.backgroundLane.foregroundBegins());
      }
      done();
    });
    // Every answer worth it (HTML, JSON, SVG; 1 KiB and more) is compressed by what the client accepts, Brotli
    // first; the built assets come precompressed from disk instead (server/http/client.ts). Vary: Accept-Encoding.
    await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });

    await registerApi(app, {
      config,
      handlers: {
        ...branchHandlers(branches),
        ...healthHandlers(database.db),
        ...siteHandlers(config.company),
        ...authHandlers(auth),
        ...notificationHandlers(database.db, config, {
          virtualDoors: async () =>
            (await listBranches(database.db)).map((branch) => ({ id: branch.id, name: branch.name })),
        }),
        ...checkoutPublicHandlers(modules.checkout, { devRoutes: config.devRoutes }),
        ...bookingHandlers({
          bookings: modules.bookings,
          coupons: modules.coupons,
          checkout: modules.checkout,
          wallet: modules.wallet,
          resend: modules.accessCodeNotifier,
          limiter: modules.limiter,
          devRoutes: { devRoutes: config.devRoutes },
        }),
        ...lockHandlers({ doors, config }),
        ...operatorHandlers(operators),
        ...consoleHandlers({
          console: modules.console,
          catalogue: modules.catalogue,
          reports: modules.reports,
          invoicing: modules.invoicing,
          doorControl: modules.doorControl,
        }),
        ...invoicingHandlers({ invoicing: modules.invoicing, links: modules.documentLinks }),
      },
      security: { bearerAuth: bearerAuth(auth), operatorAuth: operatorAuth(operators) },
    });
    await registerClient(app, config, {
      bookingBranch: async (branchId) => {
        const branch = await branches.findBranch(branchId);
        return branch?.active_with_smart_lock ? { name: branch.name, image: branch.image } : null;
      },
      refundPolicy: async (locale) => {
        const ratios = await branches.getRefundRatios();
        return { ratios, text: refundPolicyText(locale, ratios) };
      },
    });
    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
