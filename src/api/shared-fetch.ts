import type { LoaderStore } from './loader.ts';

/** These reads are 'shared' (docs/decisions.md, 'Contract and API'): identical concurrent calls are merged into one request. */
const SHARED_PATHS: readonly string[] = ['/bookings/branches', '/checkout/refund-ratios'];

function requestKey(request: Request): string {
  return [
    request.method,
    request.url,
    request.headers.get('authorization') ?? '',
    request.headers.get('locale') ?? '',
    request.headers.get('accept') ?? '',
  ].join(' ');
}

function isShared(request: Request, apiBaseUrl: string): boolean {
  if (request.method !== 'GET') return false;
  const path = new URL(request.url).pathname;
  const basePath = new URL(apiBaseUrl, request.url).pathname.replace(/\/+$/, '');
  return SHARED_PATHS.some((shared) => path === `${basePath}${shared}`);
}

/**
 * Wraps `fetch` so that the global loader counts every network request, and so that identical
 * concurrent 'shared' requests share one response (each caller gets its own clone of it).
 */
export function createSharedFetch(
  baseFetch: typeof fetch,
  loader: LoaderStore,
  apiBaseUrl: string,
): (request: Request) => Promise<Response> {
  const inFlight = new Map<string, Promise<Response>>();

  const send = async (request: Request): Promise<Response> => {
    loader.begin();
    try {
      return await baseFetch(request);
    } finally {
      loader.end();
    }
  };

  return (request) => {
    if (!isShared(request, apiBaseUrl)) return send(request);
    const key = requestKey(request);
    let shared = inFlight.get(key);
    if (!shared) {
      shared = send(request).finally(() => inFlight.delete(key));
      inFlight.set(key, shared);
    }
    return shared.then((response) => response.clone());
  };
}
