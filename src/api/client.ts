import createClient from 'openapi-fetch';
import type { paths } from '../../openapi/schema.gen.ts';

/** The typed API client: paths, parameters and bodies are checked against the contract at compile time. */
export function createApiClient(locale: string) {
  return createClient<paths>({ baseUrl: '/api', headers: { Accept: 'application/json', locale } });
}
