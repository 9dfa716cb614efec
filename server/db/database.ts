import { mkdir, readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { CompiledQuery, Kysely, PostgresDialect, sql, type SelectQueryBuilder } from 'kysely';
import pg from 'pg';
import type { Config, DatabaseTimeouts } from '../config.ts';
import { listenOnEveryConnection, type ChangeFeed } from './change-feed.ts';
import type { Database } from './schema.ts';

export type { Database } from './schema.ts';
export type Db = Kysely<Database>;

export type OpenedDatabase = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The pool under `db`. The job queue shares it on PGlite, whose one connection cannot be opened twice. */
  pool: pg.Pool;
  /**
   * The database's notices of what changes a day's slot listing (server/db/change-feed.ts); PostgreSQL only.
   * PGlite has none: it serves one process and a small business, whose listings are read from it each time.
   */
  slotDayChanges: ChangeFeed | null;
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
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: never) => unknown {
    if (format === undefined || format === 'text') {
      if (oid === PG_TYPE.int8) return parseSafeInteger;
      if (oid === PG_TYPE.numeric) return Number;
      if (oid === PG_TYPE.date) return (text: string) => text;
    }
    return (
      format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text')
    ) as (value: never) => unknown;
  },
};

export type OpenDatabaseOptions = {
  onIdleConnectionError?: (error: Error) => void;
  /** PostgreSQL only; the configuration's defaults when not given. */
  timeouts?: DatabaseTimeouts;
};

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5000,
  statementMs: 5000,
  idleInTransactionMs: 10_000,
};

// Statements PostgreSQL keeps parsed and planned on each connection (a named prepared statement), by their SQL
// text. Only for the hottest reads, whose planning costs the database more than running them (the slot listing:
// planning its joins and subqueries took most of PostgreSQL's time per request in `npm run bench`). A statement
// whose tables change is planned again by PostgreSQL itself; the pooler, if any, must keep sessions (PgBouncer in
// session mode, docs/operations.md).
const preparedStatementNames = new Map<string, string>();

/**
 * Names `text` so every PostgreSQL connection prepares it once and then only binds and runs it; returns the text
 * for `CompiledQuery.raw`. Call once per statement, at module load. PGlite runs it unnamed, as any other.
 */
export function preparedStatement(name: string, text: string): string {
  if (preparedStatementNames.has(text) || [...preparedStatementNames.values()].includes(name)) {
    throw new Error(`prepared statement ${name} is declared twice`);
  }
  preparedStatementNames.set(text, name);
  return text;
}

/** How much longer than `statement_timeout` the driver waits for any answer before it gives the connection up. */
const READ_TIMEOUT_MARGIN_MS = 2000;

/**
 * Kysely's view of the pool, with one difference: a connection whose query got no answer in time (a silent
 * network, a black-holed route) is broken for good, since its protocol state is lost. It refuses further
 * queries at once (so a rollback does not wait as long again) and is destroyed on release instead of going
 * back to the pool, where it would stall the next request too.
 */
function discardingSilentConnections(pool: pg.Pool, prepare: (client: pg.PoolClient) => Promise<void>) {
  type Wrapped = { query(text: string, values?: unknown[]): Promise<unknown>; release(): void };
  // One wrapper per connection: Kysely keeps its own state per client object it is handed.
  const wrappers = new WeakMap<pg.PoolClient, Wrapped>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = wrappers.get(client);
      if (!wrapped) {
        // A new connection: set up (it listens to the database's notices) before it runs anything else.
        try {
          await prepare(client);
        } catch (error) {
          client.release(error as Error);
          throw error;
        }
        let broken: Error | null = null;
        wrapped = {
          async query(text, values) {
            if (broken) throw broken;
            try {
              const name = preparedStatementNames.get(text);
              return await (name === undefined
                ? client.query(text, values)
                : client.query({ name, text, values: values ?? [] }));
            } catch (error) {
              if ((error as Error).message === 'Query read timeout') broken = error as Error;
              throw error;
            }
          },
          release() {
            client.release(broken ?? undefined);
          },
        };
        wrappers.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

function reportIdleConnectionError(error: Error): void {
  console.error('database: an idle connection failed and was discarded:', error.message);
}

/**
 * Opens the configured store behind one Kysely instance and one SQL dialect (PostgreSQL's).
 * `pglite` with `dataDir: null` lives in memory (tests); with a directory it persists there.
 */
export async function openDatabase(
  database: Config['database'],
  {
    onIdleConnectionError = reportIdleConnectionError,
    timeouts = DEFAULT_DATABASE_TIMEOUTS,
  }: OpenDatabaseOptions = {},
): Promise<OpenedDatabase> {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: database.url,
      types: rowTypes,
      max: 10,
      idleTimeoutMillis: 30_000,
      // Waiting for a connection (opening one, or a free one from a full pool) is bounded...
      connectionTimeoutMillis: timeouts.connectMs,
      // ...so is a statement on the server, a transaction left idle (it would hold its locks)...
      statement_timeout: timeouts.statementMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      // ...and waiting for any answer at all, which the server cannot enforce when the network is silent.
      query_timeout: timeouts.statementMs + READ_TIMEOUT_MARGIN_MS,
      // A dead peer is noticed by the kernel too, not only when a query times out.
      keepAlive: true,
      // Set at connection start-up rather than by a first query, which could fail after the pool handed the
      // connection out and leave it checked out for good.
      options: '-c TimeZone=UTC',
    });
    // A connection dropped while idle (a database restart, a failover) is replaced on the next query;
    // unheard, the pool's 'error' event would end the process.
    pool.on('error', onIdleConnectionError);
    // A connection that dies while checked out (mid-transaction) emits 'error' on its client, where the pool
    // does not listen, and an unheard 'error' ends the process. The query in flight fails with the same error
    // and its request reports it (503), and the pool drops the broken client, so nothing more is needed here.
    pool.on('connect', (client) => client.on('error', () => {}));
    const slotDays = listenOnEveryConnection(pool, 'slot_days');
    const db = createKysely(discardingSilentConnections(pool, slotDays.listen) as unknown as pg.Pool, {
      setTimeZone: false,
    });
    return { db, kind: 'postgres', pool, slotDayChanges: slotDays.feed, close: () => db.destroy() };
  }

  if (database.dataDir !== null) await mkdir(database.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(database.dataDir === null ? {} : { dataDir: database.dataDir }),
    ...(database.loadDataDir === undefined
      ? {}
      : { loadDataDir: new Blob([await readFile(database.loadDataDir)]) }),
    extensions: { btree_gist, pg_trgm },
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
    slotDayChanges: null,
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

// The same session settings on both targets: SQL date arithmetic never depends on the host's zone.
function createKysely(pool: pg.Pool, { setTimeZone = true } = {}): Db {
  return new Kysely<Database>({
    dialect: new PostgresDialect({
      pool,
      ...(setTimeZone
        ? {
            onCreateConnection: async (connection) => {
              await connection.executeQuery(CompiledQuery.raw("set time zone 'UTC'"));
            },
          }
        : {}),
    }),
  });
}

/**
 * One page of a listing and how many rows match in all, read side by side: `rows` is the listing in its order,
 * `matching` the same filter without columns, counted.
 */
export async function pageWithTotal<Row, DB, TB extends keyof DB, O>(
  rows: { offset(offset: number): { limit(limit: number): { execute(): Promise<Row[]> } } },
  matching: SelectQueryBuilder<DB, TB, O>,
  page: { offset: number; limit: number },
): Promise<{ rows: Row[]; total: number }> {
  const [found, count] = await Promise.all([
    rows.offset(page.offset).limit(page.limit).execute(),
    matching
      .select(sql<number>`count(*)`.as('total'))
      .$castTo<{ total: number }>()
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: found, total: Number(count.total) };
}
