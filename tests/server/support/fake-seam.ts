import { randomBytes, randomUUID } from 'node:crypto';
import { createFake, type Fake } from '@seamapi/fake-seam-connect';
import { Webhook } from 'svix';

// Seam's own fake of its API, started as a real HTTP server for a suite: the app talks to it over HTTP with the
// official SDK. Tests read its state through its database endpoint (`GET /_fake/database`) and change it
// through the fake's database methods (its `PUT` replaces the whole store, methods included, so it cannot
// patch one code); outages go through its outage simulation endpoint.

type FakeState = {
  access_codes: FakeAccessCode[];
  events: Record<string, unknown>[];
  [key: string]: unknown;
};

export type FakeAccessCode = {
  access_code_id: string;
  device_id: string;
  name: string;
  code: string;
  status: string;
  starts_at?: string;
  ends_at?: string;
  errors: { error_code: string; message: string }[];
  is_backup?: boolean;
};

export type FakeSeam = {
  url: string;
  apiKey: string;
  workspaceId: string;
  devices: [string, string];
  webhookSecret: string;
  reset(): Promise<void>;
  state(): Promise<FakeState>;
  /** Our codes (not the backup pool's) on a device, oldest first. */
  codesOn(deviceId: string): Promise<FakeAccessCode[]>;
  updateCode(accessCodeId: string, patch: Partial<FakeAccessCode>): Promise<void>;
  addEvent(event: Record<string, unknown>): Promise<void>;
  /** Takes a device offline or brings it back, as its lock would. */
  setOnline(deviceId: string, online: boolean): Promise<void>;
  /** The unlock action attempts the fake has run, oldest first. */
  unlockAttempts(): Promise<{ action_type: string; status: string }[]>;
  outage(routes: string[]): Promise<void>;
  /** A webhook delivery signed the Svix way with `secret` (default: the suite's). */
  signed(
    event: Record<string, unknown>,
    secret?: string,
  ): { headers: Record<string, string>; payload: string };
  close(): Promise<void>;
};

export async function startFakeSeam(): Promise<FakeSeam> {
  const fake: Fake = await createFake();
  const seed = await fake.seed();
  await fake.startServer();
  const url = fake.serverUrl!;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const state = async (): Promise<FakeState> =>
    (await fetch(`${url}/_fake/database`)).json() as Promise<FakeState>;
  const seeded = JSON.stringify(await state());
  return {
    url,
    apiKey: seed.seam_apikey1_token,
    workspaceId: seed.seed_workspace_1,
    devices: [seed.august_device_1, seed.august_device_2],
    webhookSecret,
    reset: () => fake.loadJSON(JSON.parse(seeded) as Parameters<Fake['loadJSON']>[0]),
    state,
    async codesOn(deviceId) {
      return (await state()).access_codes.filter((code) => code.device_id === deviceId && !code.is_backup);
    },
    async updateCode(accessCodeId, patch) {
      fake.database.updateAccessCode({ access_code_id: accessCodeId, ...patch } as Parameters<
        Fake['database']['updateAccessCode']
      >[0]);
    },
    async addEvent(event) {
      fake.database.addEvent({ workspace_id: seed.seed_workspace_1, ...event } as Parameters<
        Fake['database']['addEvent']
      >[0]);
    },
    async setOnline(deviceId, online) {
      fake.database.updateDevice({ device_id: deviceId, properties: { online } } as Parameters<
        Fake['database']['updateDevice']
      >[0]);
    },
    async unlockAttempts() {
      const attempts = ((await state()).action_attempts ?? []) as { action_type: string; status: string }[];
      return attempts.filter((attempt) => attempt.action_type === 'UNLOCK_DOOR');
    },
    async outage(routes) {
      const response = await fetch(`${url}/_fake/simulate_workspace_outage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workspace_id: seed.seed_workspace_1, routes }),
      });
      if (!response.ok) throw new Error(`fake outage answered ${response.status}`);
    },
    signed(event, secret = webhookSecret) {
      const payload = JSON.stringify({
        workspace_id: seed.seed_workspace_1,
        created_at: new Date().toISOString(),
        ...event,
      });
      const id = `msg_${randomUUID()}`;
      const timestamp = new Date();
      const signature = new Webhook(secret).sign(id, timestamp, payload);
      return {
        payload,
        headers: {
          'content-type': 'application/json',
          'svix-id': id,
          'svix-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'svix-signature': signature,
        },
      };
    },
    close: () => fake.stopServer(),
  };
}
