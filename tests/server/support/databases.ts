import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { Config } from '../../../server/config.ts';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrate.ts';
import {
  dropDatabase,
  isObjectInUse,
  TEST_POSTGRES_URL,
  testDatabaseUrl,
  withAdminClient,
} from './admin-client.ts';

// Server tests run against the storage targets the product supports: the embedded PGlite (in memory) and a real
// PostgreSQL, where each suite gets a database of its own, dropped afterwards. A suite's database starts as the
// run's template (template-databases.ts: migrated to the latest, pg-boss installed), unless the suite tests
// migrating itself and asks for an empty one.

export { TEST_POSTGRES_URL };

export type DatabaseTarget = 'pglite' | 'postgres';
export const DATABASE_TARGETS: readonly DatabaseTarget[] = ['pglite', 'postgres'];
/**
 * The embedded PGlite alone, for suites whose subject behaves alike on both targets: requests and use cases one
 * after another (no races, outages, timeouts or SQL the targets run differently). PGlite is the stricter target
 * for them: a query awaited on the pool while a transaction holds its one connection hangs there, where
 * PostgreSQL would hand out a second connection. docs/decisions.md lists every suite's targets and why.
 */
export const PGLITE_ONLY: readonly DatabaseTarget[] = ['pglite'];

export type FreshDatabase = { config: Config['database']; cleanup: () => Promise<void> };

export type FreshDatabaseOptions = {
  /** An empty database instead of the run's template, for the suites about migrating. */
  fromScratch?: boolean;
};

/** Copies the template; two runs at once copy theirs one at a time, so a copy that finds it busy tries again. */
async function createDatabase(name: string, template: string | null): Promise<void> {
  const statement =
    template === null ? `create database ${name}` : `create database ${name} template ${template}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await withAdminClient((client) => client.query(statement));
      return;
    } catch (error) {
      if (!isObjectInUse(error) || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 100));
    }
  }
}

/**
 * A new database of the target kind, at the latest migration with the job queue installed (or empty, with
 * `fromScratch`); `cleanup` drops it (PostgreSQL) and is safe to call twice.
 */
export async function freshDatabaseConfig(
  target: DatabaseTarget,
  { fromScratch = false }: FreshDatabaseOptions = {},
): Promise<FreshDatabase> {
  if (target === 'pglite') {
    const config: Config['database'] = fromScratch
      ? { kind: 'pglite', dataDir: null }
      : { kind: 'pglite', dataDir: null, loadDataDir: inject('pgliteTemplate') };
    return { config, cleanup: async () => {} };
  }

  const name = `gym_test_${randomBytes(6).toString('hex')}`;
  await createDatabase(name, fromScratch ? null : inject('postgresTemplate'));
  let dropped = false;
  return {
    config: { kind: 'postgres', url: testDatabaseUrl(name) },
    cleanup: async () => {
      if (dropped) return;
      dropped = true;
      await withAdminClient((client) => dropDatabase(client, name));
    },
  };
}

/**
 * A new directory holding an on-disk PGlite database copied from the run's template (migrated, the job queue
 * installed), for suites about a server's files: a restart, a process killed, `DATA_DIR`. Opening it skips the
 * cluster's creation and every migration, which an empty directory would run (most of a minute on a busy
 * machine). The caller removes it.
 */
export function templateDataDir(prefix: string): string {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  execFileSync('tar', ['-xf', inject('pgliteTemplate'), '-C', directory]);
  return directory;
}

/** A fresh database of the target, opened and migrated; `close` also drops it. */
export async function openFreshDatabase(
  target: DatabaseTarget,
  options: FreshDatabaseOptions = {},
): Promise<{ db: Db; close: () => Promise<void> }> {
  const fresh = await freshDatabaseConfig(target, options);
  const opened = await openDatabase(fresh.config);
  try {
    await migrateToLatest(opened.db);
  } catch (error) {
    await opened.close();
    await fresh.cleanup();
    throw error;
  }
  return {
    db: opened.db,
    close: async () => {
      await opened.close();
      await fresh.cleanup();
    },
  };
}

/**
 * Declares the suite once per target (both, unless `targets` says), each with a migrated database of its own
 * shared by its tests: `describeEachDatabase('slot listing', (getDb) => { it(...) })`.
 */
export function describeEachDatabase(
  name: string,
  defineTests: (getDb: () => Db, target: DatabaseTarget) => void,
  {
    targets = DATABASE_TARGETS,
    ...options
  }: FreshDatabaseOptions & { targets?: readonly DatabaseTarget[] } = {},
): void {
  describe.each(targets)(`${name} (%s)`, (target) => {
    let database: { db: Db; close: () => Promise<void> } | undefined;
    beforeAll(async () => {
      database = await openFreshDatabase(target, options);
    });
    afterAll(async () => {
      await database?.close();
    });
    defineTests(() => {
      if (!database) throw new Error('the test database is not open yet');
      return database.db;
    }, target);
  });
}

/** Empties every table of the product (not the migration bookkeeping), identities restarted. */
export async function emptyAllTables(db: Db): Promise<void> {
  const { rows } = await sql<{ tablename: string }>`
    select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely_%'`.execute(
    db,
  );
  if (rows.length === 0) return;
  const tables = rows.map((row) => `"${row.tablename}"`).join(', ');
  await sql.raw(`truncate table ${tables} restart identity cascade`).execute(db);
}

/** `describeEachDatabase` on the embedded target alone (PGLITE_ONLY says when). */
export function describeOnPglite(
  name: string,
  defineTests: (getDb: () => Db, target: DatabaseTarget) => void,
): void {
  describeEachDatabase(name, defineTests, { targets: PGLITE_ONLY });
}
