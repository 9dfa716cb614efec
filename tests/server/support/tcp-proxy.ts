import net from 'node:net';

// A real TCP proxy between the server and PostgreSQL (or an SMTP server), so a test can make it go away the ways
// it does in production: `cut()` refuses new connections and resets the open ones (a crash, a failover);
// `blackHole()` accepts connections and keeps them open but passes nothing either way (a dropped route, a
// firewall that drops packets); `restore()` passes traffic again.

export type TcpProxy = {
  port: number;
  /** The given postgres:// URL with its host and port replaced by this proxy's. */
  urlFor(databaseUrl: string): string;
  cut(): void;
  blackHole(): void;
  restore(): void;
  /** How many connections the proxy has taken so far (cut ones included). */
  accepted(): number;
  close(): Promise<void>;
};

type Mode = 'pass' | 'cut' | 'black-hole';

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: Mode = 'pass';
  type Pair = { client: net.Socket; upstream: net.Socket | null; dead: boolean };
  const pairs = new Set<Pair>();
  let accepted = 0;

  const server = net.createServer((client) => {
    accepted += 1;
    client.on('error', () => {});
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, upstream: null, dead: mode === 'black-hole' };
    pairs.add(pair);
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    // A black-holed connection is accepted and then never hears a byte.
    if (pair.dead) return;
    const upstream = net.connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk) => {
      if (!pair.dead) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!pair.dead) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut() {
      mode = 'cut';
      for (const pair of pairs) {
        pair.client.resetAndDestroy();
        pair.upstream?.destroy();
      }
      pairs.clear();
    },
    blackHole() {
      mode = 'black-hole';
      for (const pair of pairs) pair.dead = true;
    },
    restore() {
      // Connections black-holed before stay silent for good (bytes were lost, as in a real outage): the
      // server has to notice and drop them itself. New connections pass.
      mode = 'pass';
    },
    accepted: () => accepted,
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
