type Mixpanel = {
  init(token: string, options: Record<string, unknown>): void;
  track(event: string, properties: Record<string, unknown>): void;
  identify(distinctId: string): void;
  reset(): void;
};

export type Analytics = {
  /** One event per API request, named after the request's path template (never the raw path: it may carry secrets). */
  request(path: string, success: boolean, status: number): void;
  identify(distinctId: string): void;
  reset(): void;
};

const disabled: Analytics = { request() {}, identify() {}, reset() {} };

/**
 * Product analytics through Mixpanel, only when a project token is configured. The library loads
 * lazily, after first paint, so it never weighs on the landing page; calls made before it arrives
 * are queued.
 */
export function createAnalytics(
  token: string | null,
  load: () => Promise<Mixpanel> = loadMixpanel,
): Analytics {
  if (!token) return disabled;
  const queue: ((mixpanel: Mixpanel) => void)[] = [];
  let ready: Mixpanel | null = null;
  load()
    .then((mixpanel) => {
      mixpanel.init(token, { persistence: 'localStorage', ip: false, track_pageview: false });
      ready = mixpanel;
      queue.splice(0).forEach((call) => call(mixpanel));
    })
    .catch((error: unknown) => console.error('analytics could not load', error));
  const run = (call: (mixpanel: Mixpanel) => void) => (ready ? call(ready) : queue.push(call));
  return {
    request: (path, success, status) => run((mixpanel) => mixpanel.track(path, { success, status })),
    identify: (distinctId) => run((mixpanel) => mixpanel.identify(distinctId)),
    reset: () => run((mixpanel) => mixpanel.reset()),
  };
}

async function loadMixpanel(): Promise<Mixpanel> {
  const module = await import('mixpanel-browser');
  return module.default;
}
