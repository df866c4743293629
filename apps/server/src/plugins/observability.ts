import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../lib/metrics.ts';

/**
 * One log line per request when it ends (method, path without the query string, route pattern,
 * status, time) instead of Fastify's two, and the request-duration histogram. Query strings can carry
 * codes and are left out. Only API requests log at info: static assets and probes log at debug, so a
 * page load is one line per API call, not one per file.
 */
export function registerObservability(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    // Unmatched paths share one label (a scanner's URLs must not become new time series), and so do the
    // web build's files (one route each, renamed by every build).
    const api = path.startsWith('/api/') || path === '/healthz' || path === '/readyz';
    const label = !route ? 'unmatched' : api ? route : 'static';
    metrics.httpDuration.observe({ method: request.method, route: label, status_code: String(status) }, seconds);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const level = path.startsWith('/api/') || path === '/api' ? (status >= 500 ? 'error' : 'info') : 'debug';
    request.log[level](
      { method: request.method, path, route, status, ms },
      `${request.method} ${path} ${status} ${ms} ms`,
    );
  });
}
