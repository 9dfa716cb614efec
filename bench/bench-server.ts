// Bench-only reference server (never part of the product): a bare Fastify JSON route and a `SELECT 1` route
// over the same pool the product uses, so `npm run bench` can say how much of the slot listing's cost is the
// framework and the database round trip, and how much is the product's own work.
import Fastify from 'fastify';
import { sql } from 'kysely';
import { openDatabase } from '../server/db/database.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const database = await openDatabase({ kind: 'postgres', url });
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true }));
app.get('/select1', async () => {
  const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
  return { one: rows[0]?.one };
});
app.addHook('onClose', async () => database.close());
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ port: Number(process.env.PORT ?? 3403), host: '127.0.0.1' });
