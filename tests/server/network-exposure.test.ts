import type { ErrorBody } from './support/accounts.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { startAccountApp, type AccountApp } from './support/accounts.ts';

// What the network can do to the server: a client behind the load balancer choosing its own address with
// X-Forwarded-For, and anyone reaching the development tools of a development server.

function attempt(app: AccountApp['app'], forwardedFor: string, remoteAddress = '10.0.0.2') {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
    payload: new URLSearchParams({ username: 'nobody@example.com', password: 'wrong password' }).toString(),
  });
}

describe('TRUST_PROXY', () => {
  it('refuses `true` at start with a message saying what to set instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/number of proxies.*TRUST_PROXY=1/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
  });

  it('takes a hop count, or addresses and CIDR ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'fd00::/8' }).trustProxy).toEqual(['fd00::/8']);
  });

  for (const setting of ['1', '10.0.0.0/8']) {
    describe(`behind one load balancer (TRUST_PROXY=${setting})`, () => {
      let server: AccountApp;
      beforeAll(async () => {
        server = await startAccountApp('pglite', {
          TRUST_PROXY: setting,
          RATE_LIMITS: 'login.ip=3/15m,login.account=1000/1h',
        });
      });
      afterAll(async () => server?.close());

      it('counts a client by the address the balancer saw, whatever it puts first in X-Forwarded-For', async () => {
        const statuses: number[] = [];
        for (let index = 0; index < 5; index += 1) {
          // The balancer appends the address it saw (203.0.113.9); the client forges the entries before it.
          const response = await attempt(server.app, `198.51.100.${index}, 203.0.113.9`);
          statuses.push(response.statusCode);
        }
        expect(statuses).toEqual([401, 401, 401, 429, 429]);
        // Someone else behind the same balancer is not limited by the first client's failures.
        expect((await attempt(server.app, '203.0.113.10')).statusCode).toBe(401);
      });
    });
  }
});

describe('the development server', () => {
  it('listens on 127.0.0.1 unless HOST says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).host).toBe('0.0.0.0');
  });

  describe('development routes', () => {
    let server: AccountApp;
    let direct: AccountApp;
    beforeAll(async () => {
      server = await startAccountApp('pglite', { TRUST_PROXY: '1' });
      direct = await startAccountApp('pglite');
    });
    afterAll(async () => {
      await server?.close();
      await direct?.close();
    });

    it('answer loopback clients only', async () => {
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const response = await direct.app.inject({ url: '/api/dev/outbox', remoteAddress });
        expect(response.statusCode, remoteAddress).toBe(200);
      }
      for (const remoteAddress of ['192.168.1.20', '10.0.0.5', '203.0.113.9', '::ffff:192.168.1.20']) {
        const outbox = await direct.app.inject({ url: '/api/dev/outbox', remoteAddress });
        expect(outbox.statusCode, remoteAddress).toBe(404);
        expect(outbox.json<ErrorBody>().code).toBe('not_found');
        const expire = await direct.app.inject({
          method: 'POST',
          url: '/api/dev/checkout/cs_local_x/expire',
          remoteAddress,
        });
        expect(expire.statusCode, remoteAddress).toBe(404);
        const payLate = await direct.app.inject({
          method: 'POST',
          url: '/api/dev/checkout/cs_local_x/pay-late',
          remoteAddress,
        });
        expect(payLate.statusCode, remoteAddress).toBe(404);
        // The virtual doors' keypad lists the codes a door holds: no one off this machine reaches it.
        const keypad = await direct.app.inject({ url: '/api/dev/doors/1', remoteAddress });
        expect([keypad.statusCode, keypad.json<ErrorBody>().code], remoteAddress).toEqual([404, 'not_found']);
        const enter = await direct.app.inject({
          method: 'POST',
          url: '/api/dev/doors/1/enter',
          payload: { code: '123456' },
          remoteAddress,
        });
        expect([enter.statusCode, enter.json<ErrorBody>().code], remoteAddress).toEqual([404, 'not_found']);
      }
      // From this machine the keypad's route is there (this database has no branch 1).
      const keypad = await direct.app.inject({ url: '/api/dev/doors/1', remoteAddress: '127.0.0.1' });
      expect(keypad.json<ErrorBody>().code).toBe('branch_not_found');
    });

    it('are not opened by a forged X-Forwarded-For, nor through a proxy on the same host', async () => {
      const forged = await server.app.inject({
        url: '/api/dev/outbox',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(forged.statusCode).toBe(404);
      const proxied = await server.app.inject({
        url: '/api/dev/outbox',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(proxied.statusCode).toBe(404);
    });
  });
});
