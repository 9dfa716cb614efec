import createClient, { type Middleware } from 'openapi-fetch';
import type { ApiClient } from '../../machines/api.ts';
import type { paths } from '../../openapi/schema.gen.ts';
import type { Analytics } from './analytics.ts';
import type { LoaderStore } from './loader.ts';
import { createSharedFetch } from './shared-fetch.ts';

export type { ApiClient };

export type ApiClientOptions = {
  baseUrl: string;
  getLocale: () => string;
  getToken: () => string | null;
  loader: LoaderStore;
  analytics: Analytics;
  fetch?: typeof fetch;
};

/** The common headers (docs/decisions.md, 'Contract and API'): Accept, the interface locale, and the bearer token when there is one. */
function headersMiddleware(getLocale: () => string, getToken: () => string | null): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Accept', 'application/json');
      request.headers.set('locale', getLocale());
      const token = getToken();
      // A caller may pass its own Authorization (validating a token before it is stored).
      if (token && !request.headers.has('Authorization'))
        request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

function analyticsMiddleware(analytics: Analytics): Middleware {
  return {
    onResponse({ response, schemaPath }) {
      analytics.request(schemaPath, response.ok, response.status);
      return response;
    },
    onError({ schemaPath, error }) {
      analytics.request(schemaPath, false, 0);
      return error instanceof Error ? error : new Error(String(error));
    },
  };
}

/** The typed API client: paths, parameters and bodies are checked against the contract at compile time. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const sharedFetch = createSharedFetch(
    options.fetch ?? globalThis.fetch.bind(globalThis),
    options.loader,
    options.baseUrl,
  );
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: sharedFetch });
  client.use(headersMiddleware(options.getLocale, options.getToken), analyticsMiddleware(options.analytics));
  return client;
}
