import pg from 'pg';

// The PostgreSQL server where test databases are created and dropped, for the suites (databases.ts) and the
// run's global setup (template-databases.ts) alike.

/** The server (any database on it) where per-suite test databases are created. */
export const TEST_POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the test server. */
export function testDatabaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** SQL state of an object in use: a database dropped, or copied as a template, while someone is connected. */
export const OBJECT_IN_USE = '55006';

export function isObjectInUse(error: unknown): boolean {
  return (error as { code?: string }).code === OBJECT_IN_USE;
}

// A closed pool's sessions end a moment after `end()` resolves. Forcing the drop at once would kill them
// mid-goodbye and surface as an uncaught error, so wait for them first; force only what a failed test left.
export async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      await client.query(`drop database if exists ${name}`);
      return;
    } catch (error) {
      if (!isObjectInUse(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await client.query(`drop database if exists ${name} with (force)`);
}
