import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How a stopping process lets go of its clients without losing a request (a rolling restart, an autoscaler):
 * 1. it stops accepting connections, so a balancer sends new ones elsewhere;
 * 2. requests still arriving on open keep-alive connections are answered for real, with `Connection: close`;
 * 3. it waits for those connections to end, at most until their keep-alive timeout has passed; closing an idle
 *    connection sooner races a client that is just sending on it (the request is cut, ECONNRESET);
 * 4. only then does Fastify close the server and run the `onClose` hooks (jobs, outbox, the database).
 */
export function drainOnClose(app: FastifyInstance, { maxWaitMs = 8000 } = {}): void {
  let draining = false;
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  app.addHook('preClose', async () => {
    draining = true;
    const server = app.server;
    if (!server.listening) return;
    // net's close, not http's: http's also closes idle keep-alive connections at once (step 3's race).
    net.Server.prototype.close.call(server);
    const deadline = Date.now() + Math.min(maxWaitMs, server.keepAliveTimeout + 1000);
    while (Date.now() < deadline) {
      const open = await new Promise<number>((resolve) =>
        server.getConnections((error, count) => resolve(error ? 0 : count)),
      );
      if (open === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}
