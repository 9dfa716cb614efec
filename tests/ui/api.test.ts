import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/api/client.ts';
import { createLoaderStore } from '../../src/api/loader.ts';
import { ApiError, expectData } from '../../machines/api.ts';
import { failureFeedback } from '../../machines/feedback.ts';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setup(respond: (request: Request) => Promise<Response> | Response, token: string | null = null) {
  const requests: Request[] = [];
  const analytics = { request: vi.fn(), identify: vi.fn(), reset: vi.fn() };
  const loader = createLoaderStore();
  const fetchStub = vi.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    requests.push(request);
    return respond(request);
  });
  const api = createApiClient({
    baseUrl: 'http://app.test/api',
    getLocale: () => 'fr',
    getToken: () => token,
    loader,
    analytics,
    fetch: fetchStub,
  });
  return { api, requests, analytics, loader, fetchStub };
}

describe('API client', () => {
  it('sends Accept, the locale and the bearer token on every request', async () => {
    const { api, requests } = setup(() => json({ status: 'ok' }), 'tok');
    await api.GET('/health');
    const headers = requests[0]?.headers;
    expect(headers?.get('accept')).toBe('application/json');
    expect(headers?.get('locale')).toBe('fr');
    expect(headers?.get('authorization')).toBe('Bearer tok');
  });

  it('sends no Authorization header without a token', async () => {
    const { api, requests } = setup(() => json({}));
    await api.GET('/health');
    expect(requests[0]?.headers.has('authorization')).toBe(false);
  });

  it('merges identical concurrent shared calls into one request, each caller getting the data', async () => {
    const { api, fetchStub } = setup(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return json({ '48': 1 });
    });
    const [a, b] = await Promise.all([
      api.GET('/checkout/refund-ratios'),
      api.GET('/checkout/refund-ratios'),
    ]);
    expect(fetchStub).toHaveBeenCalledTimes(1);
    expect(a.data).toEqual({ '48': 1 });
    expect(b.data).toEqual({ '48': 1 });
  });

  it('does not merge calls that are not marked shared', async () => {
    const { api, fetchStub } = setup(() => json({ status: 'ok' }));
    await Promise.all([api.GET('/health'), api.GET('/health')]);
    expect(fetchStub).toHaveBeenCalledTimes(2);
  });

  it('asks again once a shared call has finished', async () => {
    const { api, fetchStub } = setup(() => json([]));
    await api.GET('/bookings/branches');
    await api.GET('/bookings/branches');
    expect(fetchStub).toHaveBeenCalledTimes(2);
  });

  it('shows the global loader while a request is in flight, and hides it after', async () => {
    let release: (response: Response) => void = () => {};
    const { api, loader } = setup(() => new Promise<Response>((resolve) => (release = resolve)));
    expect(loader.isLoading()).toBe(false);
    const pending = api.GET('/health');
    await vi.waitFor(() => expect(loader.isLoading()).toBe(true));
    release(json({}));
    await pending;
    expect(loader.isLoading()).toBe(false);
  });

  it('hides the loader after a network failure too', async () => {
    const { api, loader } = setup(() => Promise.reject(new TypeError('offline')));
    await expect(api.GET('/health')).rejects.toThrow('offline');
    expect(loader.isLoading()).toBe(false);
  });

  it('records one analytics event per request: path template, success and status', async () => {
    const { api, analytics } = setup((request) =>
      request.url.includes('slots') ? json({ detail: 'x' }, 404) : json([]),
    );
    await api.GET('/bookings/slots/{branch_id}/{date}', {
      params: { path: { branch_id: 1, date: '2026-01-01' } },
    });
    expect(analytics.request).toHaveBeenCalledTimes(1);
    expect(analytics.request).toHaveBeenCalledWith('/bookings/slots/{branch_id}/{date}', false, 404);
  });
});

describe('API errors', () => {
  it('carry the code and the detail of a 4xx answer', async () => {
    const { api } = setup(() => json({ detail: 'Filial não encontrada', code: 'branch_not_found' }, 404));
    const error = await expectData(
      api.GET('/bookings/local-time/branch/{branchId}', { params: { path: { branchId: 9 } } }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('branch_not_found');
    expect((error as ApiError).detail).toBe('Filial não encontrada');
    expect(failureFeedback(error, 'generic')).toEqual({ text: 'Filial não encontrada' });
  });

  it('carry the verifications a refused login names as pending', async () => {
    const { api } = setup(() =>
      json({ detail: 'Confirme a sua conta.', code: 'account_not_verified', pending: ['phone'] }, 403),
    );
    const error = await expectData(
      api.POST('/auth/login', {
        body: { username: 'a@b.pt', password: 'x' },
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    ).catch((caught: unknown) => caught);
    expect((error as ApiError).code).toBe('account_not_verified');
    expect((error as ApiError).pending).toEqual(['phone']);
    expect((error as ApiError).detail).toBe('Confirme a sua conta.');
  });

  it('never keep the text of a server fault, so the generic message is shown', async () => {
    const { api } = setup(() => json({ detail: 'stack trace', code: 'internal_error' }, 500));
    const error = await expectData(api.GET('/health')).catch((caught: unknown) => caught);
    expect((error as ApiError).code).toBe('internal_error');
    expect((error as ApiError).detail).toBeNull();
    expect(failureFeedback(error, 'error-during-login')).toEqual({ key: 'generic' });
  });

  it('name a 5xx without a catalogue body (a gateway page) service_unavailable', async () => {
    const { api } = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await expectData(api.GET('/health')).catch((caught: unknown) => caught);
    expect((error as ApiError).code).toBe('service_unavailable');
    expect((error as ApiError).detail).toBeNull();
  });

  it('fall back to the caller text when a failure has no detail', () => {
    expect(failureFeedback(new ApiError('validation_failed'), 'registration-failed')).toEqual({
      key: 'registration-failed',
    });
    expect(failureFeedback(new Error('boom'), 'registration-failed')).toEqual({ key: 'registration-failed' });
  });

  it('turn a network failure into an error without a code', async () => {
    const { api } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await expectData(api.GET('/health')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBeNull();
    expect(failureFeedback(error, 'error-during-login')).toEqual({ key: 'error-during-login' });
  });
});
