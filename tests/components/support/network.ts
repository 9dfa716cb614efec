import type { ApiError } from '../../../machines/api.ts';
import { errorCatalogue } from '../../../server/kernel/errors.ts';
import { assertContractAnswer, operationOf } from '../../contract/responses.ts';

// The network of a component test, answered at the `fetch` level: every request the app makes is matched to
// its contract operation; some are answered at once (`auto`), the others wait until the test answers them,
// so the busy state in between is seen. Every answer is checked against the contract first.

export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
export type Call = { operationId: string; request: Request; body: unknown };
type Held = Call & { respond: (response: Response) => void };

/** `auto` answers an operation at once; an answer of `undefined` holds that call for the test. */
export function createNetwork(auto: Partial<Record<string, (call: Call) => Answer | undefined>> = {}) {
  const held: Held[] = [];
  const calls: Call[] = [];
  const respond = (call: Call, answer: Answer) => {
    assertContractAnswer(call.operationId, answer.status, answer.body);
    return answer.body === undefined
      ? new Response(null, { status: answer.status, headers: answer.headers ?? {} })
      : new Response(JSON.stringify(answer.body), {
          status: answer.status,
          headers: { 'Content-Type': 'application/json', ...answer.headers },
        });
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = request.method === 'GET' ? '' : await request.clone().text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = Object.fromEntries(new URLSearchParams(text));
    }
    const call: Call = {
      operationId: operationOf(request.method, new URL(request.url).pathname),
      request,
      body,
    };
    calls.push(call);
    const answer = auto[call.operationId]?.(call);
    if (answer) return respond(call, answer);
    return new Promise<Response>((resolve) => held.push({ ...call, respond: resolve }));
  };
  return {
    fetch,
    calls,
    /** The calls still waiting for an answer. */
    held: () => held.map(({ operationId }) => operationId),
    /**
     * Answers the newest waiting call of one of `operationIds` (waiting a moment for the app to make it): an older
     * one belongs to an actor the flow has stopped (a view left while it waited), whose answer no one awaits.
     */
    async answer(operationIds: string[], answer: Answer | ((call: Call) => Answer)): Promise<Call> {
      const deadline = Date.now() + 2_000;
      for (;;) {
        const index = held.findLastIndex((call) => operationIds.includes(call.operationId));
        if (index >= 0) {
          const [call] = held.splice(index, 1);
          call!.respond(respond(call!, typeof answer === 'function' ? answer(call!) : answer));
          return call!;
        }
        if (Date.now() > deadline)
          throw new Error(
            `the app never called ${operationIds.join(' or ')} (waiting: ${this.held().join(', ')})`,
          );
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}

export type Network = ReturnType<typeof createNetwork>;

/**
 * The answer a server gives for a machine's ApiError: the status of its code in the server's error catalogue
 * (server/kernel/errors.ts), the contract's Error body with the error's words (and what it owes, on a refused login;
 * the refused fields; a move's difference as the server computes it).
 */
export function errorAnswer(error: ApiError): Answer {
  const code = error.code ?? 'internal_error';
  return {
    status: errorCatalogue[code].status,
    body: {
      code,
      detail: error.detail ?? 'Erro.',
      ...(error.pending.length > 0 ? { pending: error.pending } : {}),
      ...(error.fields.length > 0 ? { fields: error.fields } : {}),
      ...(error.priceDifferenceEur !== null ? { price_difference_eur: error.priceDifferenceEur } : {}),
    },
  };
}
