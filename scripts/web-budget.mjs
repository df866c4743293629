#!/usr/bin/env node
/**
 * `npm run web:budget`: builds the web app (vite build --manifest) and measures the first-load
 * JavaScript, gzip-compressed (zlib default level, what the server and most CDNs send), of /login
 * and /dashboard: the entry script of dist/index.html with its static imports, plus the route's
 * lazy chunk with its static imports (for /dashboard also the default investor tab, which the page
 * loads at once). Prints KB against the budget (120 KB, plus the 5 KB the languages may take: decision
 * 0075); exit code 1 when over.
 * --no-build measures the existing dist.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 125;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
/** WEB_DIST builds and measures elsewhere (e.g. while the browser journeys serve apps/web/dist). */
const dist = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : path.join(web, 'dist');

if (!process.argv.includes('--no-build')) {
  execFileSync('npx', ['vite', 'build', '--manifest', '--outDir', dist, '--emptyOutDir'], {
    cwd: web,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('no entry in the Vite manifest');
const entryFile = manifest[entryKey].file;
if (!html.includes(entryFile)) throw new Error(`index.html does not load ${entryFile}`);

/** The chunk and every chunk it imports statically (what the browser fetches before running it). */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imp of manifest[key]?.imports ?? []) closure(imp, seen);
  return seen;
}
const size = (file) => {
  const buf = readFileSync(path.join(dist, file));
  return { raw: buf.length, gz: gzipSync(buf).length };
};
const keyOf = (suffix) => {
  const k = Object.keys(manifest).find((x) => x.endsWith(suffix));
  if (!k) throw new Error(`no chunk for ${suffix}`);
  return k;
};

const pages = {
  '/login': [keyOf('src/app/routes/login.tsx')],
  '/dashboard': [
    keyOf('src/app/routes/dashboard/dashboard.tsx'),
    keyOf('src/app/routes/dashboard/tabs/investor-dashboard.tsx'),
  ],
};
let over = false;
console.log(`\nFirst-load JavaScript (gzip), budget ${BUDGET_KB} KB\n`);
for (const [page, keys] of Object.entries(pages)) {
  const all = new Set();
  for (const k of [entryKey, ...keys]) closure(k, all);
  const files = [...all].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  let raw = 0;
  let gz = 0;
  const parts = [];
  for (const f of files) {
    const s = size(f);
    raw += s.raw;
    gz += s.gz;
    parts.push(`${f} ${(s.gz / 1024).toFixed(1)}`);
  }
  const kb = gz / 1024;
  if (kb > BUDGET_KB) over = true;
  console.log(
    `${page.padEnd(11)} ${kb.toFixed(1).padStart(6)} KB gzip (${(raw / 1024).toFixed(0)} KB raw, ${files.length} files) ${kb <= BUDGET_KB ? 'within budget' : 'OVER BUDGET'}`,
  );
  console.log(`            ${parts.join(', ')}`);
}
console.log('');
process.exitCode = over ? 1 : 0;
