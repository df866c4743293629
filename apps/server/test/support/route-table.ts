import type { FastifyInstance } from 'fastify';

/**
 * Every route, read from the app's own route table (not from a list kept by hand), so a route
 * added later is checked without anyone remembering to add it to a test.
 */
export function routeTable(app: FastifyInstance): { method: string; url: string }[] {
  const out: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    const url = (depth > 0 ? (stack[depth - 1] ?? '') : '') + (m[2] ?? '');
    stack[depth] = url;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) out.push({ method, url });
  }
  return out;
}

/** The app's admin routes (every /api route with `admin` in its path), HEAD left out. */
export function adminRouteTable(app: FastifyInstance): { method: string; url: string }[] {
  return routeTable(app).filter((r) => r.url.startsWith('/api/') && r.url.includes('admin') && r.method !== 'HEAD');
}
