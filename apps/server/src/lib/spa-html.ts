import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The single-page app's HTML for a path: dist/index.html with the run-time settings the screens show
 * (SUPPORT_EMAIL for the blocked screen) and, for a page the build knows (/login, /signup, /dashboard),
 * modulepreload links for that page's own chunks (dist/.vite/route-preloads.json, written by the web
 * build), so the browser fetches them beside the entry script instead of after it has run. Computed
 * once per page at start. Undefined when there is no web build.
 */
export function spaHtml(webDist: string, supportEmail: string): ((pathname: string) => string) | undefined {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const base = readFileSync(indexFile, 'utf8').replace(
    /(<meta name="hf-support-email" content=")[^"]*(")/,
    `$1${escapeHtml(supportEmail)}$2`,
  );
  const preloadsFile = path.join(webDist, '.vite/route-preloads.json');
  const routes: Record<string, unknown> = existsSync(preloadsFile)
    ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as Record<string, unknown>)
    : {};
  const pages = new Map<string, string>();
  for (const [route, files] of Object.entries(routes)) {
    if (!Array.isArray(files)) continue;
    const links = files
      .filter((f): f is string => typeof f === 'string' && /^\/assets\/[\w.-]+\.js$/.test(f))
      .map((f) => `<link rel="modulepreload" crossorigin href="${f}">`)
      .join('');
    pages.set(route, links ? base.replace('</head>', `${links}</head>`) : base);
  }
  return (pathname) => pages.get(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname) ?? base;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
