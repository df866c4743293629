import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Metrics } from '../lib/metrics.ts';
import { isPolledRead } from './overload.ts';

/**
 * One log line per request when it ends (method, path without the query string, route pattern,
 * status, time) instead of Fastify's two, and the request-duration histogram, which counts every request.
 * Query strings can carry codes and are left out. At info: the API's requests that change something (every
 * money request among them) and its errors; a read answered 2xx or 3xx (the polls: most of the traffic, and
 * a line each cost more than the poll's SQL), a poll shed under overload, static assets and probes log at debug.
 */
export function registerObservability(app: FastifyInstance, metrics: Metrics): void {
  // The histogram's series by method, route label and status, looked up once each (prom-client hashes
  // a label object on every observe).
  const series = new Map<string, ReturnType<Metrics['httpDuration']['labels']>>();
  app.addHook('onResponse', (request, reply, done) => {
    const url = request.url;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    // Unmatched paths share one label (a scanner's URLs must not become new time series), and so do the
    // web build's files (one route each, renamed by every build).
    const api = path.startsWith('/api/') || path === '/healthz' || path === '/readyz';
    const label = !route ? 'unmatched' : api ? route : 'static';
    const key = `${request.method} ${label} ${status}`;
    let child = series.get(key);
    if (!child) {
      child = metrics.httpDuration.labels({ method: request.method, route: label, status_code: String(status) });
      series.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    const level = !(path.startsWith('/api/') || path === '/api')
      ? 'debug'
      : (status < 400 && (request.method === 'GET' || request.method === 'HEAD')) ||
          (status === 503 && isPolledRead(request))
        ? 'debug'
        : status >= 500
          ? 'error'
          : 'info';
    if (enabled(request.log, level)) {
      const ms = Math.round(reply.elapsedTime * 10) / 10;
      request.log[level](
        { method: request.method, path, route, status, ms },
        `${request.method} ${path} ${status} ${ms} ms`,
      );
    }
    done();
  });
}

/** pino's level check (a test may hand in another logger: it logs everything then). */
function enabled(log: FastifyBaseLogger, level: string): boolean {
  const check = (log as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled;
  return check ? check.call(log, level) : true;
}
