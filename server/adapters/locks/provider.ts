// The smart locks behind one interface: Seam for real doors, the local provider's virtual doors offline.
// A code is created on each door for a window, confirmed by the door (`set`) or refused (`failed`), and deleted
// when its bookings are cancelled. Implementations never log the code's digits.

export type DoorCodeRequest = {
  deviceId: string;
  /** Shown in the lock vendor's app: identifies our code without the digits. */
  name: string;
  code: string;
  startsAt: Date;
  endsAt: Date;
};

/** What the door reports about one code: `setting` while it is being programmed. */
export type DoorCodeStatus = {
  providerCodeId: string;
  state: 'setting' | 'set' | 'failed' | 'removed';
  /** The provider's error code and message when `failed`. */
  error: string | null;
};

export type DoorEvent = {
  eventId: string;
  type: string;
  deviceId: string | null;
  providerCodeId: string | null;
  occurredAt: Date;
  /** Device events: the battery level (0..1) when the event carries it. */
  batteryLevel?: number | null;
};

export type DoorDevice = {
  deviceId: string;
  name: string;
  online: boolean;
  batteryLevel: number | null;
};

/**
 * A provider call that did not work. `retryable`: the provider was slow, down or overloaded (try again later);
 * otherwise it refused the request and repeating it will not help (the code is `failed` with this message).
 */
export class LockProviderError extends Error {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.name = 'LockProviderError';
    this.retryable = retryable;
  }
}

/** The door is offline: it cannot be asked to open (nor told anything) until it is back. */
export class DoorOfflineError extends LockProviderError {
  constructor(deviceId: string) {
    super(`door ${deviceId} is offline`, false);
    this.name = 'DoorOfflineError';
  }
}

export type LockProvider = {
  readonly name: 'seam' | 'local';
  /** The doors of a branch: its mapped Seam devices, or its virtual door. */
  doorsOf(branch: { id: number; lockDeviceIds: readonly string[] }): string[];
  createCode(request: DoorCodeRequest): Promise<DoorCodeStatus>;
  /** Moves the window of a code already on the door. */
  updateCode(providerCodeId: string, request: DoorCodeRequest): Promise<DoorCodeStatus>;
  /** Reads a code back from the door; `removed` when the door no longer has it. */
  readCode(providerCodeId: string): Promise<DoorCodeStatus>;
  /** A code of ours already on the door with these digits (a create whose answer was lost), if any. */
  findCode(deviceId: string, code: string): Promise<DoorCodeStatus | null>;
  /** Deletes a code; a code the door no longer has counts as deleted. */
  deleteCode(providerCodeId: string): Promise<void>;
  /** A code from the door's backup pool for the same window, or null when the door has no pool. */
  pullBackupCode(providerCodeId: string): Promise<{ code: string; providerCodeId: string } | null>;
  /** Door and device events after `since`, oldest first (the catch-up behind the webhook). */
  listEvents(since: Date): Promise<DoorEvent[]>;
  listDevices(deviceIds: readonly string[]): Promise<DoorDevice[]>;
  /**
   * Opens the door now (an operator's remote opening), answering once the door did; throws DoorOfflineError
   * when the door is offline and LockProviderError when the provider or the door failed.
   */
  unlock(deviceId: string): Promise<void>;
};

/** The device events the operator is alerted about. */
export const DEVICE_ALERT_EVENTS = [
  'device.disconnected',
  'device.connected',
  'device.low_battery',
  'device.tampered',
] as const;
