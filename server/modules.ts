import type { FastifyBaseLogger } from 'fastify';
import {
  createAuthService,
  createPasswordHasher,
  createRateLimiter,
  createSessionTokens,
  loadAuthKeys,
} from './accounts/index.ts';
import { createInvoicingProvider } from './adapters/invoicing/index.ts';
import { createLockProvider } from './adapters/locks/index.ts';
import { createPaymentProvider } from './adapters/payments/index.ts';
import {
  createAccessCodeNotifier,
  createGuestCodeNotifier,
  createBookingService,
  createCheckoutService,
  createCouponService,
  createWalletService,
  organizerFromMailFrom,
} from './booking/index.ts';
import { createBranchService, createSlotDayCache } from './catalog/index.ts';
import type { Config } from './config.ts';
import {
  createCatalogueService,
  createConsoleService,
  createDoorControl,
  createReportService,
  forgetMemberNotes,
} from './console/index.ts';
import type { OpenedDatabase } from './db/database.ts';
import { createDoorService, createOperatorAlerts } from './doors/index.ts';
import { createAfterAnswer } from './jobs/after-answer.ts';
import { createHousekeeping } from './jobs/housekeeping.ts';
import { openJobQueue, type JobQueue } from './jobs/queue.ts';
import { systemClock, type Clock } from './kernel/clock.ts';
import { createDeliveryAdapters, createOutboxWorker } from './notifications/index.ts';
import { createDocumentLinks, createInvoicingService } from './invoicing/index.ts';
import { createOperatorService, createOperatorTokens } from './operators/index.ts';
import { createBackgroundLane } from './kernel/background-lane.ts';

// The one composition root: every service, handler dependency and job of the server, built in module order
// (catalog, doors, booking, accounts' services that need booking's, operators, console). The HTTP server
// (app.ts) and the back-office CLI (admin/main.ts) both start from here, so they run the same use cases on the
// same dependencies. An earlier module hears of a later one only through what is passed to it here (the doors'
// job queue, the account deletion's cancellation of bookings).

export type ModuleOptions = {
  log: FastifyBaseLogger;
  /**
   * Jobs run only when a test says so (`jobs.runDue()`): the default under an injected clock. The CLI never
   * starts workers either, it only enqueues.
   */
  manualJobs?: boolean;
};

export type Modules = Awaited<ReturnType<typeof createModules>>;

export async function createModules(
  config: Config,
  database: OpenedDatabase,
  clock: Clock,
  { log, manualJobs = clock !== systemClock }: ModuleOptions,
) {
  const db = database.db;
  const branches = createBranchService({
    db,
    clock,
    horizonDays: config.slotHorizonDays,
    allowPlainHttp: !config.isProduction,
    slotDays:
      database.slotDayChanges && config.slotListing.keepMs > 0
        ? createSlotDayCache({ changes: database.slotDayChanges, maxAgeMs: config.slotListing.keepMs })
        : null,
  });

  const lockProvider = createLockProvider(config, db);
  let jobQueue: JobQueue | null = null;
  const doors = createDoorService({
    db,
    clock,
    provider: lockProvider,
    alerts: createOperatorAlerts({
      operatorEmail: config.operator.email,
      locale: config.operator.locale,
      log: log.child({ component: 'doors' }),
    }),
    log: log.child({ component: 'doors' }),
    sync: () => jobQueue?.lockSync ?? null,
  });
  const accessCodeNotifier = createAccessCodeNotifier({
    db,
    clock,
    publicUrl: config.publicUrl,
    companyName: config.companyName,
    doors,
    supportPhone: config.supportPhone,
  });
  const guestCodeNotifier = createGuestCodeNotifier({
    db,
    clock,
    publicUrl: config.publicUrl,
    companyName: config.companyName,
    supportPhone: config.supportPhone,
  });
  const keys = await loadAuthKeys(db, config);
  // The signed links to documents' PDFs (docs/decisions.md, "Documents and the accountant's export").
  const documentLinks = createDocumentLinks({
    publicUrl: config.publicUrl,
    keyedHash: (purpose, value) => keys.keyedHash(purpose, value),
  });
  // Each ledger row's tax document, recorded in the row's transaction through booking's port and issued by the
  // queue's `invoiceIssue` job (docs/decisions.md, "Invoices and credit notes").
  const invoicing = createInvoicingService({
    db,
    clock,
    provider: createInvoicingProvider(config),
    company: config.company,
    companyName: config.companyName,
    simplifiedInvoices: config.invoicing.simplifiedInvoices,
    operatorEmail: config.operator.email,
    operatorLocale: config.operator.locale,
    log: log.child({ component: 'invoicing' }),
    links: documentLinks,
    schedule: () => jobQueue?.documents ?? null,
  });
  const housekeeping = createHousekeeping({
    db,
    clock,
    rateLimits: config.auth.rateLimits,
    log: log.child({ component: 'housekeeping' }),
  });
  const jobs = await openJobQueue({
    database,
    config,
    clock,
    manual: manualJobs,
    log: log.child({ component: 'jobs' }),
    handlers: {
      accessCode: ({ bookingId }) => accessCodeNotifier.send(bookingId),
      guestCode: ({ guestId, lockCodeId }) => guestCodeNotifier.send(guestId, lockCodeId),
      lockSync: ({ lockCodeId }) => doors.syncCode(lockCodeId),
      lockCheck: ({ bookingId }) => doors.prepareForMessage(bookingId),
      doorSweep: () => doors.sweep(),
      // Slots freed by the holds it ends take the price their grid gives them now (docs/decisions.md, 'Prices
      // that apply when saved'), as do slots freed since the last run; dated grids whose day came take over.
      holdExpiry: async () => {
        const expired = await checkout.expireOverdueSessions();
        await branches.keepPricesCurrent();
        return expired;
      },
      slotHorizon: () => branches.ensureSlotHorizon(),
      housekeeping: () => housekeeping.runOnce(),
      creditExpiry: () => wallet.sweepExpiries(),
      invoiceIssue: ({ documentId }) => invoicing.issue(documentId),
      invoiceSweep: () => invoicing.sweep(),
    },
  });
  jobQueue = jobs;
  const afterAnswer = createAfterAnswer(log.child({ component: 'after-answer' }));

  // Transactions run again after a deadlock say so here (server/kernel/transactions.ts).
  const transactionLog = log.child({ component: 'transactions' });
  const payments = createPaymentProvider(config, { db, clock });
  const fulfilment = {
    log: transactionLog,
    accessCodes: jobs.accessCodes,
    guestCodes: jobs.guestCodes,
    db,
    clock,
    payments,
    lockProvider,
    lockSync: jobs.lockSync,
    documents: invoicing.recorder,
    publicUrl: config.publicUrl,
    companyName: config.companyName,
    company: config.company,
    organizer: organizerFromMailFrom(config.mail.from, config.companyName),
    contact: { email: config.company.email, phone: config.supportPhone },
  };
  const checkout = createCheckoutService(fulfilment);
  const bookings = createBookingService({
    ...fulfilment,
    checkoutExpiryMinutes: config.checkoutExpiryMinutes,
    multibancoMinDaysAhead: config.multibancoMinDaysAhead,
  });
  const wallet = createWalletService({
    ...fulfilment,
    checkoutExpiryMinutes: config.checkoutExpiryMinutes,
    multibancoMinDaysAhead: config.multibancoMinDaysAhead,
  });
  const coupons = createCouponService({
    db,
    clock,
    earlyBirdCouponCode: config.earlyBirdCouponCode,
  });

  const limiter = createRateLimiter({
    db,
    clock,
    limits: config.auth.rateLimits,
    hashSubject: (subject) => keys.keyedHash('rate-limit', subject),
  });
  const hasher = await createPasswordHasher(config.auth.passwordHashing);
  const operators = createOperatorService({
    db,
    clock,
    hasher,
    tokens: createOperatorTokens(keys.operatorSessionToken, clock),
    limiter,
    publicUrl: config.publicUrl,
    defaultLocale: config.operator.locale,
  });
  const auth = createAuthService({
    db,
    clock,
    config,
    hasher,
    tokens: createSessionTokens(keys.sessionToken, clock, config.auth.sessionHours),
    keys,
    limiter,
    afterAnswer: afterAnswer.run,
    findOfferedCoupon: (userId, trx) => coupons.findOfferedCoupon(userId, trx),
    log: transactionLog,
    // Upcoming bookings are cancelled and refunded in the deletion's own transaction (all or nothing).
    beforeErasure: [
      async (trx, user, _at, erasedBy) => {
        await bookings.cancelUpcomingBookingsOfUser(user.id, {
          trx,
          erasedBy: erasedBy?.actor ?? null,
          reason: erasedBy?.reason ?? null,
        });
      },
      // Operators' notes on the member are personal data about them: erased with the account.
      (trx, user) => forgetMemberNotes(trx, user.id),
    ],
  });
  const consoleService = createConsoleService({
    ...fulfilment,
    // Told of a staff refund waiting for approval when no owner is left to tell.
    operatorEmail: config.operator.email,
    operatorLocale: config.operator.locale,
    bookings,
    resend: accessCodeNotifier,
    auth,
  });
  const catalogue = createCatalogueService({
    db,
    clock,
    horizonDays: config.slotHorizonDays,
    allowPlainHttp: !config.isProduction,
  });
  // The console's reports and the ledger export give way to other requests (server/kernel/background-lane.ts).
  const backgroundLane = createBackgroundLane({ restMs: config.reports.restMs });
  const reports = createReportService({
    db,
    clock,
    lane: backgroundLane,
    lockProvider,
    console: consoleService,
    links: documentLinks,
    payments,
  });
  const doorControl = createDoorControl({ db, clock, lockProvider, log: log.child({ component: 'doors' }) });
  const delivery = createDeliveryAdapters(config, log.child({ component: 'notifications' }));
  const outboxWorker = createOutboxWorker({
    db,
    clock,
    ...delivery,
    log: log.child({ component: 'outbox' }),
    options: { concurrency: config.outbox.concurrency },
  });

  return {
    db,
    clock,
    config,
    branches,
    lockProvider,
    payments,
    doors,
    accessCodeNotifier,
    invoicing,
    documentLinks,
    jobs,
    afterAnswer,
    checkout,
    bookings,
    wallet,
    coupons,
    limiter,
    operators,
    auth,
    console: consoleService,
    catalogue,
    reports,
    backgroundLane,
    doorControl,
    delivery,
    outboxWorker,
    /** Starts the queue's workers and the outbox delivery; the server calls it once listening, the CLI never. */
    startBackgroundWork: () => {
      jobs
        .startWorkers()
        .catch((error: unknown) => log.error({ err: error }, 'the job queue workers could not start'));
      outboxWorker.start();
    },
    /**
     * Stops background work before the database closes, so no round is cut off mid-transaction: the queue
     * first (its jobs write to the outbox and the database), then work left for after answers, then delivery.
     */
    stop: async () => {
      await jobs.stop();
      await afterAnswer.stop();
      await outboxWorker.stop();
      await delivery.mailer.close();
    },
  };
}
