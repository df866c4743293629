import http from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  data: any;
}

/** Listens on 127.0.0.1 (port chosen by the system) and answers the base URL. */
export async function listenOnLoopback(app: FastifyInstance): Promise<{ host: string; port: number }> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('not listening on TCP');
  return { host: '127.0.0.1', port: addr.port };
}

/**
 * One real HTTP request from the loopback address `from` (127.0.0.1, 127.0.0.2, ...): the
 * server sees it as that client address, as it would see two machines.
 */
export function httpFrom(
  to: { host: string; port: number },
  from: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: to.host,
        port: to.port,
        localAddress: from,
        method,
        path,
        agent: false,
        headers: {
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(payload !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
            : {}),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let data: unknown = text;
          try {
            data = text ? JSON.parse(text) : undefined;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, data });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** How many answers had each status, e.g. { 401: 10, 429: 15 }. */
export function statusCounts(answers: { status: number }[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}
