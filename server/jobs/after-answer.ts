import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for: the caller is answered first, so the answer time cannot tell what
 * the work found (whether an account exists, for instance). A failure is logged; the caller, already answered,
 * can only ask again. A stopping process finishes the work in progress before its database closes.
 */
export type AfterAnswer = {
  /**
   * `answered` resolves once the answer has left (the response's `finish`): on PGlite a query runs on the event
   * loop's own thread, so work started before the answer's bytes were written delayed them by its length
   * (1 ms, 16-28 % of a forgot-password answer, for an existing account only). Without it, the next turn of the
   * event loop.
   */
  run: (name: string, work: () => Promise<unknown>, answered?: Promise<void>) => void;
  /** Resolves once no work is in progress (tests wait for it before reading the outbox). */
  idle(): Promise<void>;
  stop: () => Promise<void>;
};

export function createAfterAnswer(log: FastifyBaseLogger): AfterAnswer {
  const pending = new Set<Promise<void>>();
  const idle = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };
  return {
    run(name, work, answered) {
      // Started on the turn of the event loop after the answer has been handed to the socket.
      const done: Promise<void> = (answered ?? Promise.resolve())
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(work)
        .then(
          () => undefined,
          (error: unknown) => log.error({ err: error, work: name }, 'work after the answer failed'),
        )
        .finally(() => pending.delete(done));
      pending.add(done);
    },
    idle,
    stop: idle,
  };
}
