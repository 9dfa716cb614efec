import type pg from 'pg';

// PostgreSQL's notices of changes (LISTEN/NOTIFY), heard on every connection of the process's pool, for a cache
// that must forget what changed (server/catalog/slot-day-cache.ts). Every connection listens, not one set apart:
// a connection hears its own transaction's notices before the transaction's COMMIT answers (PostgreSQL sends them
// ahead of its ready-for-query message), so a change this process makes is forgotten before the request that
// made it answers; another process's change is heard as soon as it commits, on whichever connection of ours is
// idle or next ends a statement.
//
// A notice may be missed only when the connection that would have heard it goes away (the pool closing an idle
// one, a database restart, a cut network). Every connection leaving the pool therefore counts as a loss: whoever
// relies on the feed forgets everything it kept. A cache may keep something only while at least one connection
// listens; it checks `listening()` before it reads the database and after.

export type ChangeFeed = {
  /** True while at least one connection of the pool has been told to LISTEN and has not left the pool. */
  listening(): boolean;
  /** `onNotice(payload)` for every notice on the channel; `onLoss` whenever notices may have been missed. */
  subscribe(subscriber: { onNotice(payload: string): void; onLoss(): void }): void;
};

export type ListeningPool = {
  feed: ChangeFeed;
  /** Makes a new connection listen; awaited before the connection runs anything else. */
  listen: (client: pg.PoolClient) => Promise<void>;
};

/** Every connection of `pool` listens to `channel` once `listen` was awaited for it, before its first query. */
export function listenOnEveryConnection(pool: pg.Pool, channel: 'slot_days'): ListeningPool {
  const listeners = new Set<pg.PoolClient>();
  const removed = new WeakSet<pg.PoolClient>();
  const subscribers: { onNotice(payload: string): void; onLoss(): void }[] = [];

  pool.on('remove', (client) => {
    removed.add(client);
    listeners.delete(client);
    // Whether it had finished LISTEN or not, notices it was the one to hear may be lost with it.
    for (const subscriber of subscribers) subscriber.onLoss();
  });

  return {
    feed: {
      listening: () => listeners.size > 0,
      subscribe(subscriber) {
        subscribers.push(subscriber);
      },
    },
    async listen(client) {
      client.on('notification', (message) => {
        if (message.channel !== channel) return;
        for (const subscriber of subscribers) subscriber.onNotice(message.payload ?? '');
      });
      await client.query(`LISTEN ${channel}`);
      // Already gone (its 'remove' came first): it hears nothing more, so it does not count.
      if (!removed.has(client)) listeners.add(client);
    },
  };
}
