import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { FastifyBaseLogger } from 'fastify';
import type { TestProject } from 'vitest/node';
import { loadConfig, type Config } from '../../../server/config.ts';
import { openDatabase } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrate.ts';
import { openJobQueue, type JobHandlers } from '../../../server/jobs/queue.ts';
import { systemClock } from '../../../server/kernel/clock.ts';
import { dropDatabase, testDatabaseUrl, withAdminClient } from './admin-client.ts';

// Vitest global setup: migrates once per run what every server suite starts from, instead of each suite
// migrating a database of its own. On PostgreSQL a template database (each suite's is `CREATE DATABASE ...
// TEMPLATE` it), on PGlite a data-directory tarball (each in-memory database is loaded from it). Both hold the
// schema at its latest migration and pg-boss's schema and queues as a server's start installs them; no rows of
// the product. The suites that test migrating itself ask for an empty database (`fromScratch`).

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL template database of this run. */
    postgresTemplate: string;
    /** The PGlite data-directory tarball of this run. */
    pgliteTemplate: string;
  }
}

const SETUP_TIMEOUTS = { connectMs: 60_000, statementMs: 60_000, idleInTransactionMs: 60_000 };
const silent = { error() {}, warn() {}, info() {}, debug() {} } as unknown as FastifyBaseLogger;
const noWork = async () => {};
const handlers: JobHandlers = {
  lockSync: noWork,
  lockCheck: noWork,
  accessCode: noWork,
  guestCode: noWork,
  doorSweep: noWork,
  holdExpiry: noWork,
  creditExpiry: noWork,
  slotHorizon: noWork,
  housekeeping: noWork,
  invoiceIssue: noWork,
  invoiceSweep: noWork,
};

/** Migrates `database` to the latest and installs the job queue the way a server's start does. */
async function installSchema(database: Config['database']): Promise<void> {
  // Bounds for a loaded machine: this runs once, before any suite, and a timeout would fail the whole run.
  const opened = await openDatabase(database, { timeouts: SETUP_TIMEOUTS });
  try {
    await migrateToLatest(opened.db);
    const config = {
      ...loadConfig({ NODE_ENV: 'test', SEED_DEMO_DATA: 'false' }),
      database,
      databaseTimeouts: SETUP_TIMEOUTS,
    };
    const queue = await openJobQueue({
      database: opened,
      config,
      clock: systemClock,
      manual: true,
      log: silent,
      handlers,
    });
    await queue.stop();
  } finally {
    await opened.close();
  }
}

async function createPostgresTemplate(): Promise<{ name: string; drop: () => Promise<void> }> {
  // A name of this run's own: two runs at once (two checkouts on one machine) never share a template.
  const name = `gym_template_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const drop = () =>
    withAdminClient(async (client) => {
      await client.query(`alter database ${name} with is_template false`);
      await dropDatabase(client, name);
    });
  try {
    await installSchema({ kind: 'postgres', url: testDatabaseUrl(name) });
    // A template nobody connects to: a copy is refused while anyone is connected to its source.
    await withAdminClient((client) =>
      client.query(`alter database ${name} with is_template true allow_connections false`),
    );
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, drop };
}

async function createPgliteTemplate(): Promise<{ file: string; remove: () => Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'gym-pglite-template-'));
  const remove = () => rm(directory, { recursive: true, force: true });
  try {
    const dataDir = path.join(directory, 'data');
    await installSchema({ kind: 'pglite', dataDir });
    const pglite = await PGlite.create({ dataDir, extensions: { btree_gist, pg_trgm } });
    const tarball = await pglite.dumpDataDir('none');
    await pglite.close();
    const file = path.join(directory, 'data.tar');
    await writeFile(file, Buffer.from(await tarball.arrayBuffer()));
    await rm(dataDir, { recursive: true, force: true });
    return { file, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // One after the other: PGlite runs in this thread and would hold up the PostgreSQL client's answers.
  const postgres = await createPostgresTemplate();
  let pglite: Awaited<ReturnType<typeof createPgliteTemplate>>;
  try {
    pglite = await createPgliteTemplate();
  } catch (error) {
    await postgres.drop();
    throw error;
  }
  project.provide('postgresTemplate', postgres.name);
  project.provide('pgliteTemplate', pglite.file);
  return async () => {
    await Promise.all([postgres.drop(), pglite.remove()]);
  };
}
