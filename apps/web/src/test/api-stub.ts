import { vi } from 'vitest';

/** One request the stubbed API received. */
export interface ApiCall {
  method: string;
  /** The path under /api with its query ("/admin/users?page=1"). */
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

/** What a route answers: a body (status 200), `[status, body]`, a Response, or undefined for 404. */
type Answer = unknown;
export type ApiRoutes = (call: ApiCall) => Answer | Promise<Answer>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** An error answer in the contract's shape. */
export const fail = (status: number, error: string, code: string) => ({ __status: status, error, code });

/**
 * Replaces `fetch` with the app's API as `routes` describes it, and records every call. The stub is
 * removed after each test (test-setup.ts). A route that answers undefined is a 404 in the contract's shape;
 * `'network'` makes the request fail as if the server were unreachable.
 */
export function stubApi(routes: ApiRoutes) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const call: ApiCall = {
      method: init?.method ?? 'GET',
      path: url.replace(/^\/api/, ''),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      headers,
    };
    calls.push(call);
    const answer = await routes(call);
    if (answer === 'network') throw new TypeError('Failed to fetch');
    if (answer instanceof Response) return answer;
    if (answer === undefined) return json({ error: 'Not found', code: 'not_found' }, 404);
    if (Array.isArray(answer) && answer.length === 2 && typeof answer[0] === 'number')
      return json(answer[1], answer[0]);
    if (answer && typeof answer === 'object' && '__status' in answer) {
      const { __status, ...body } = answer as { __status: number };
      return json(body, __status);
    }
    return json(answer);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetch: fetchMock,
    /** Calls whose "METHOD /path" starts with `prefix`. */
    to: (prefix: string) => calls.filter((c) => `${c.method} ${c.path}`.startsWith(prefix)),
  };
}
