import {
  isSeamActionAttemptError,
  isSeamHttpApiError,
  SeamHttp,
  type AccessCode,
  type Device,
  type SeamEvent,
} from '@seamapi/http';
import { SeamWebhook } from '@seamapi/webhook';
import {
  DoorOfflineError,
  LockProviderError,
  type DoorCodeRequest,
  type DoorCodeStatus,
  type DoorEvent,
  type LockProvider,
} from './provider.ts';

// Seam (Nuki, Yale, August, Schlage, igloohome, TTLock... behind one API) through its official HTTP client,
// `@seamapi/http` (the `seam` package bundles it with a CLI and a coding agent the server has no use for).
// Time-bound access codes per device; Seam programs them asynchronously and reports `set` or an error on the code
// (and by webhook). Our queue owns retries, so the client's own are off and every call has a deadline.

/** How long an operator waits for a remote opening before being told it did not confirm. */
const UNLOCK_TIMEOUT_MS = 10_000;

const FAILED_TO_SET = /failed_to_set|failed_to_program|no_space|duplicate_code|code_not_allowed/;

function statusOf(code: AccessCode): DoorCodeStatus {
  const failure = (code.errors ?? []).find((error) => FAILED_TO_SET.test(error.error_code));
  if (failure) {
    return {
      providerCodeId: code.access_code_id,
      state: 'failed',
      error: `${failure.error_code}: ${failure.message}`,
    };
  }
  return {
    providerCodeId: code.access_code_id,
    state: code.status === 'set' ? 'set' : 'setting',
    error: null,
  };
}

/** 5xx, 429, timeouts and network failures are worth retrying; other answers are the provider's refusal. */
function providerError(error: unknown): LockProviderError {
  if (isSeamHttpApiError(error)) {
    const retryable = error.statusCode >= 500 || error.statusCode === 429;
    return new LockProviderError(`${error.code}: ${error.message}`, retryable);
  }
  const status = (error as { response?: { status?: number }; status?: number }).response?.status;
  if (typeof status === 'number' && status < 500 && status !== 429 && status !== 408) {
    return new LockProviderError(`seam answered ${status}`, false);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LockProviderError(`seam unreachable: ${message}`.slice(0, 300), true);
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw providerError(error);
  }
}

function isNotFound(error: unknown): boolean {
  return isSeamHttpApiError(error) && (error.statusCode === 404 || error.code === 'access_code_not_found');
}

function eventOf(event: SeamEvent): DoorEvent {
  const fields = event as SeamEvent & {
    device_id?: string;
    access_code_id?: string;
    battery_level?: number;
  };
  return {
    eventId: event.event_id,
    type: event.event_type,
    deviceId: fields.device_id ?? null,
    providerCodeId: fields.access_code_id ?? null,
    occurredAt: new Date(event.occurred_at ?? event.created_at),
    batteryLevel: typeof fields.battery_level === 'number' ? fields.battery_level : null,
  };
}

export function createSeamLockProvider(options: {
  apiKey: string;
  endpoint: string | null;
  timeoutMs?: number;
}): LockProvider {
  const seam = new SeamHttp({
    apiKey: options.apiKey,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    axiosOptions: { timeout: options.timeoutMs ?? 15_000 },
    axiosRetryOptions: { retries: 0 },
    // A delete answers once Seam has taken it; its confirmation comes as an event or a read-back.
    waitForActionAttempt: false,
  });
  // Seam accepts POST on every endpoint. Its SDK sends update as PATCH and delete as DELETE with a query string,
  // which Seam's own fake (the tests' server) does not route; these three calls go through the SDK's
  // authenticated client as POST, read tolerantly (`access_code` or the older `backup_access_code`).
  const post = async <T>(path: string, body: Record<string, unknown>): Promise<T> =>
    (await seam.client.post<T>(path, body)).data;
  const window = (request: DoorCodeRequest) => ({
    name: request.name,
    code: request.code,
    starts_at: request.startsAt.toISOString(),
    ends_at: request.endsAt.toISOString(),
  });
  return {
    name: 'seam',
    doorsOf: (branch) => [...branch.lockDeviceIds],
    async createCode(request) {
      const code = await call(() =>
        seam.accessCodes.create({ device_id: request.deviceId, ...window(request) }),
      );
      return statusOf(code);
    },
    async updateCode(providerCodeId, request) {
      await call(() => post('/access_codes/update', { access_code_id: providerCodeId, ...window(request) }));
      return statusOf(await call(() => seam.accessCodes.get({ access_code_id: providerCodeId })));
    },
    async readCode(providerCodeId) {
      try {
        return statusOf(await seam.accessCodes.get({ access_code_id: providerCodeId }));
      } catch (error) {
        if (isNotFound(error)) return { providerCodeId, state: 'removed', error: null };
        throw providerError(error);
      }
    },
    async findCode(deviceId, code) {
      const codes = await call(() => seam.accessCodes.list({ device_id: deviceId }));
      const found = codes.find((candidate) => candidate.code === code && !candidate.is_backup);
      return found ? statusOf(found) : null;
    },
    async deleteCode(providerCodeId) {
      try {
        await post('/access_codes/delete', { access_code_id: providerCodeId });
      } catch (error) {
        if (isNotFound(error)) return;
        throw providerError(error);
      }
    },
    async pullBackupCode(providerCodeId) {
      try {
        const answer = await post<{ access_code?: AccessCode; backup_access_code?: AccessCode }>(
          '/access_codes/pull_backup_access_code',
          { access_code_id: providerCodeId },
        );
        const backup = answer.access_code ?? answer.backup_access_code;
        return backup?.code ? { code: backup.code, providerCodeId: backup.access_code_id } : null;
      } catch (error) {
        const failure = providerError(error);
        if (failure.retryable) throw failure;
        return null;
      }
    },
    async listEvents(since) {
      const events = await call(() => seam.events.list({ since: since.toISOString() }));
      return events.map(eventOf).sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
    },
    async listDevices(deviceIds) {
      if (deviceIds.length === 0) return [];
      const devices: Device[] = await call(() => seam.devices.list({ device_ids: [...deviceIds] }));
      return devices.map((device) => ({
        deviceId: device.device_id,
        name: device.display_name || device.device_id,
        online: device.properties.online,
        batteryLevel: device.properties.battery_level ?? null,
      }));
    },
    async unlock(deviceId) {
      const device = await call(() => seam.devices.get({ device_id: deviceId }));
      if (!device.properties.online) throw new DoorOfflineError(deviceId);
      try {
        // The action attempt is followed until the door answers: the operator is told whether it opened.
        await seam.locks.unlockDoor(
          { device_id: deviceId },
          { waitForActionAttempt: { timeout: UNLOCK_TIMEOUT_MS, pollingInterval: 250 } },
        );
      } catch (error) {
        if (isSeamActionAttemptError(error)) {
          throw new LockProviderError(`unlock_door: ${error.message}`.slice(0, 300), false);
        }
        throw providerError(error);
      }
    },
  };
}

/**
 * Seam signs its webhooks the Svix way; its own package verifies them against the raw body. Answers the event,
 * or null when the signature is missing or wrong (a forgery must change nothing).
 */
export function verifySeamWebhook(
  secret: string,
  payload: string,
  headers: Record<string, string | string[] | undefined>,
): DoorEvent | null {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') flat[name] = value;
  }
  try {
    return eventOf(new SeamWebhook(secret).verify(payload, flat));
  } catch {
    return null;
  }
}
