import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';

export type { Database } from './schema.ts';
export type Db = Kysely<Database>;

export type OpenedDatabase = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The pool under `db`. The job queue shares it on PGlite, whose one connection cannot be opened twice. */
  pool: pg.Pool;
  close(): Promise<void>;
};

const PG_TYPE = { int8: 20, numeric: 1700, date: 1082 } as const;

function parseSafeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`bigint ${text} is beyond a safe JavaScript integer`);
  }
  return value;
}

// Both targets speak through the same `pg` driver, so one set of parsers makes their rows identical:
// bigint (ids, counts) and numeric (coupon discounts) as numbers, timestamptz as Date (pg's default),
// and a calendar `date` as its 'YYYY-MM-DD' text, because a Date would pin it to the process's time zone.
const rowTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (format === undefined || format === 'text') {
      if (oid === PG_TYPE.int8) return parseSafeInteger;
      if (oid === PG_TYPE.numeric) return Number;
      if (oid === PG_TYPE.date) return (text: string) => text;
    }
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
};

export type OpenDatabaseOptions = {
  onIdleConnectionError?: (error: Error) => void;
};

function reportIdleConnectionError(error: Error): void {
  console.error('database: an idle connection failed and was discarded:', error.message);
}

/**
 * Opens the configured store behind one Kysely instance and one SQL dialect (PostgreSQL's).
 * `pglite` with `dataDir: null` lives in memory (tests); with a directory it persists there.
 */
export async function openDatabase(
  database: Config['database'],
  { onIdleConnectionError = reportIdleConnectionError }: OpenDatabaseOptions = {},
): Promise<OpenedDatabase> {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: database.url,
      types: rowTypes,
      max: 10,
      idleTimeoutMillis: 30_000,
    });
    // A connection dropped while idle (a database restart, a failover) is replaced on the next query;
    // unheard, the pool's 'error' event would end the process.
    pool.on('error', onIdleConnectionError);
    // A connection that dies while checked out (mid-transaction) emits 'error' on its client, where the pool
    // does not listen, and an unheard 'error' ends the process. The query in flight fails with the same error
    // and its request reports it (503), and the pool drops the broken client, so nothing more is needed here.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = createKysely(pool);
    return { db, kind: 'postgres', pool, close: () => db.destroy() };
  }

  if (database.dataDir !== null) await mkdir(database.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(database.dataDir === null ? {} : { dataDir: database.dataDir }),
    extensions: { btree_gist },
  });
  // PGlite is one backend: a pool of exactly one client queues every query and transaction behind the
  // one in progress, so a transaction never sees another's statements interleaved.
  // Code that awaits `db` while holding a transaction would wait for itself; the timeout turns that
  // bug into an error instead of a hang.
  const pool = new pg.Pool({
    ...createPgConfig(pglite),
    types: rowTypes,
    max: 1,
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: 60_000,
  });
  const db = createKysely(pool);
  return {
    db,
    kind: 'pglite',
    pool,
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

function createKysely(pool: pg.Pool): Db {
  return new Kysely<Database>({
    dialect: new PostgresDialect({
      pool,
      // The same session settings on both targets: SQL date arithmetic never depends on the host's zone.
      onCreateConnection: async (connection) => {
        await connection.executeQuery(CompiledQuery.raw("set time zone 'UTC'"));
      },
    }),
  });
}
