import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Config } from '../../../server/config.ts';
import { openDatabase, type Db } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrate.ts';

// Server tests run against both storage targets the product supports: the embedded PGlite (in memory)
// and a real PostgreSQL, where each suite gets a database of its own, dropped afterwards.

export type DatabaseTarget = 'pglite' | 'postgres';
export const DATABASE_TARGETS: readonly DatabaseTarget[] = ['pglite', 'postgres'];

/** The server (any database on it) where per-suite test databases are created. */
export const TEST_POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type FreshDatabase = { config: Config['database']; cleanup: () => Promise<void> };

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const OBJECT_IN_USE = '55006';

// A closed pool's sessions end a moment after `end()` resolves. Forcing the drop at once would kill them
// mid-goodbye and surface as an uncaught error, so wait for them first; force only what a failed test left.
async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      await client.query(`drop database if exists ${name}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await client.query(`drop database if exists ${name} with (force)`);
}

/** A new, empty database of the target kind; `cleanup` drops it (PostgreSQL) and is safe to call twice. */
export async function freshDatabaseConfig(target: DatabaseTarget): Promise<FreshDatabase> {
  if (target === 'pglite') return { config: { kind: 'pglite', dataDir: null }, cleanup: async () => {} };

  const name = `gym_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    config: { kind: 'postgres', url: url.toString() },
    cleanup: async () => {
      if (dropped) return;
      dropped = true;
      await withAdminClient((client) => dropDatabase(client, name));
    },
  };
}

/** A fresh database of the target, opened and migrated; `close` also drops it. */
export async function openFreshDatabase(
  target: DatabaseTarget,
): Promise<{ db: Db; close: () => Promise<void> }> {
  const fresh = await freshDatabaseConfig(target);
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
 * Declares the suite once per target, each with a migrated database of its own shared by its tests:
 * `describeEachDatabase('slot listing', (getDb) => { it(...) })`.
 */
export function describeEachDatabase(
  name: string,
  defineTests: (getDb: () => Db, target: DatabaseTarget) => void,
): void {
  describe.each(DATABASE_TARGETS)(`${name} (%s)`, (target) => {
    let database: { db: Db; close: () => Promise<void> } | undefined;
    beforeAll(async () => {
      database = await openFreshDatabase(target);
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
