import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.ts';
import { httpFrom, listenOnLoopback } from '../http.ts';
import { until } from '../support/until.ts';

/**
 * A body sent one byte every few seconds must not hold a connection for minutes, so
 * a request must arrive within REQUEST_TIMEOUT_MS (30 s by default, 1.5 s here) or it gets 408
 * and the connection is closed; one client address may hold only MAX_CONNECTIONS_PER_IP
 * connections. Real sockets on loopback, trickling bytes.
 */
const TIMEOUT_MS = 1500;

interface Trickle {
  /** Everything the server sent, and when the connection closed (ms after the start), or null. */
  received: string;
  closedAfterMs: number | null;
}

/** Opens a raw connection, writes `head`, then one byte of `drip` every `everyMs` until closed or `maxMs`. */
function trickle(
  to: { host: string; port: number },
  head: string,
  drip: string,
  everyMs: number,
  maxMs: number,
): Promise<Trickle> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ host: to.host, port: to.port, localAddress: '127.0.0.1' });
    let received = '';
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(guard);
      socket.destroy();
      resolve({ received, closedAfterMs: closed ? Date.now() - started : null });
    };
    const guard = setTimeout(() => done(false), maxMs);
    socket.on('data', (d) => (received += d.toString('utf8')));
    socket.on('close', () => done(true));
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.writable) return;
        socket.write(drip[i % drip.length] ?? ' ');
        i++;
      }, everyMs);
    });
  });
}

describe('slow requests and connection floods', () => {
  let t: TestApp;
  let to: { host: string; port: number };
  beforeAll(async () => {
    t = await createTestApp({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS), MAX_CONNECTIONS_PER_IP: '5' });
    to = await listenOnLoopback(t.app);
  });
  afterAll(() => t.close());

  it('a body trickled one byte at a time gets 408 in the API error shape and the connection is closed', async () => {
    const head =
      'POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{';
    const r = await trickle(to, head, '"email":"a@b.co","password":"xxxxxxxx",', 150, 8_000);
    expect(r.closedAfterMs, `still open after 8 s; got: ${r.received}`).not.toBeNull();
    expect(r.closedAfterMs).toBeLessThan(TIMEOUT_MS + 2_000);
    expect(r.received).toMatch(/^HTTP\/1\.1 408 /);
    const body = r.received.slice(r.received.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual({
      error: 'The request took too long to arrive. Please try again.',
      code: 'request_timeout',
    });
  });

  it('headers trickled one byte at a time get 408 too', async () => {
    const r = await trickle(to, 'GET /api/user/me HTTP/1.1\r\nHost: localhost\r\n', 'X-Slow: abcdefghij', 150, 8_000);
    expect(r.closedAfterMs, `still open after 8 s; got: ${r.received}`).not.toBeNull();
    expect(r.closedAfterMs).toBeLessThan(TIMEOUT_MS + 2_000);
    expect(r.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('an ordinary request is not affected', async () => {
    const res = await httpFrom(to, '127.0.0.1', 'POST', '/api/login', { body: { email: 'a@b.co', password: 'x' } });
    expect(res.status).toBe(401);
  });

  it('one address may hold at most MAX_CONNECTIONS_PER_IP connections; others are served', async () => {
    const sockets = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<{ socket: net.Socket; closed: boolean }>((resolve) => {
            const socket = net.connect({ host: to.host, port: to.port, localAddress: '127.0.0.2' });
            const state = { socket, closed: false };
            socket.on('close', () => (state.closed = true));
            socket.on('error', () => undefined);
            socket.on('connect', () => resolve(state));
          }),
      ),
    );
    await until(
      () => (sockets.filter((s) => s.closed).length >= 3 ? true : null),
      10_000,
      'the 3 extra sockets closed',
    );
    expect(sockets.filter((s) => s.closed)).toHaveLength(3);
    // Another address is served while 127.0.0.2 holds its five.
    const other = await httpFrom(to, '127.0.0.3', 'GET', '/api/user/me');
    expect(other.status).toBe(401);
    for (const s of sockets) s.socket.destroy();
    // Once the server has seen them close, the address may connect again.
    // (Until then a new connection from it is closed at once: a hang-up.)
    await until(
      async () =>
        (await httpFrom(to, '127.0.0.2', 'GET', '/api/user/me').catch(() => null))?.status === 401 ? true : null,
      10_000,
      '127.0.0.2 served again',
    );
  });
});
