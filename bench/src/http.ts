/**
 * The bench's HTTP client: keep-alive connections shared by every simulated user, as a reverse proxy's upstream
 * pool would hold them (at most SOCKETS open to the server; the server caps one address at 100).
 */
import http from 'node:http';

export const SOCKETS = 32;
/** A request not answered this long after it was sent (waiting for a free connection included) is an error. */
const TIMEOUT_MS = 10_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS });

export interface Answer {
  /** 0 when no answer came (connection error, timeout). */
  status: number;
  body: string;
  /** The Retry-After header, when the answer has one. */
  retryAfter?: string;
}

export function call(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  o: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  retried = false,
): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
    const done = (a: Answer) => {
      clearTimeout(timer);
      resolve(a);
    };
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...o.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        const retryAfter = res.headers['retry-after'];
        res.on('end', () => done({ status: res.statusCode ?? 0, body, ...(retryAfter ? { retryAfter } : {}) }));
        res.on('error', () => done({ status: 0, body }));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed (its keep-alive timeout) just as it was reused: sent again
      // once on a new one, as browsers do. (Every request the bench sends may be: reads, or writes with a key.)
      if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) {
        clearTimeout(timer);
        resolve(call(base, method, path, o, true));
      } else done({ status: 0, body: err.message });
    });
    req.end(payload);
  });
}

/** A call that must succeed: its JSON answer, or an error naming the request. */
export async function json<T>(...args: Parameters<typeof call>): Promise<T> {
  const a = await call(...args);
  if (a.status < 200 || a.status > 299) throw new Error(`${args[1]} ${args[2]} -> ${a.status} ${a.body.slice(0, 300)}`);
  return JSON.parse(a.body) as T;
}

/** Runs `work` over `items` with at most `width` at a time. */
export async function eachLimited<T>(items: T[], width: number, work: (item: T, i: number) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}
