import http from 'node:http';
import type { Server, Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { MSG } from '@harvest/shared/messages';

/**
 * Answers a connection-level failure (the request did not arrive in time, headers too large,
 * bytes that are not HTTP) in the API's one error shape, then closes the connection. Node
 * raises these before a request exists, so the Fastify error handler never sees them.
 */
export function clientErrorHandler(this: { log: FastifyBaseLogger }, err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, { error: MSG.requestTimeout, code: 'request_timeout' }]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, { error: MSG.headersTooLarge, code: 'headers_too_large' }]
        : [400, { error: MSG.badRequest, code: 'validation' }];
  this.log.debug({ code: err.code }, 'client error');
  if (socket.writable) {
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nCache-Control: no-store\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}

/**
 * At most `max` open connections per client address: one address cannot hold the server's
 * sockets (slow bodies, idle keep-alives). Counted on the socket address, before any request;
 * behind a proxy every client shares the proxy's address, so the cap is off by default there.
 */
export function limitConnectionsPerAddress(server: Server, max: number, log: FastifyBaseLogger): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const n = (open.get(address) ?? 0) + 1;
    if (n > max) {
      log.warn({ address }, 'too many connections from one address: refused');
      socket.destroy();
      return;
    }
    open.set(address, n);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
