import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

// SQL of the rate limiter: one atomic upsert per hit, so every process behind a load balancer counts together.

/**
 * Counts one hit in the bucket's window starting at `windowStart` and answers the hits in that window.
 * A row left from an earlier window starts again at 1; a row already in a later window (another process's
 * clock runs slightly ahead) keeps counting in its own window.
 */
export async function hitBucket(db: Db, bucket: string, windowStart: Date): Promise<number> {
  const { rows } = await sql<{ hits: number }>`
    insert into rate_limit_counters as counter (bucket, window_start, hits)
    values (${bucket}, ${windowStart}, 1)
    on conflict (bucket) do update set
      hits = case when counter.window_start < excluded.window_start then 1 else counter.hits + 1 end,
      window_start = greatest(counter.window_start, excluded.window_start)
    returning hits`.execute(db);
  return rows[0]?.hits ?? 1;
}

/** Hits counted in the bucket's window starting at `windowStart` (0 for an older window or none). */
export async function readBucket(db: Db, bucket: string, windowStart: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_counters')
    .select('hits')
    .where('bucket', '=', bucket)
    .where('window_start', '>=', windowStart)
    .executeTakeFirst();
  return row?.hits ?? 0;
}

export async function deleteBucketsBefore(db: Db, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('rate_limit_counters')
    .where('window_start', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
