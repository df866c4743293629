#!/usr/bin/env node
/**
 * Fails when modules import each other in a cycle (eslint-plugin-import's `no-cycle` reads every
 * dependency in node_modules and took minutes here; this reads only our own sources). Run by
 * `npm run lint`. Type-only imports count too: a type cycle is still two modules that cannot be
 * understood apart (the `jobs.ts` / `*.job.ts` cycle was one).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = [
  'packages/shared/src',
  'apps/server/src',
  'apps/server/test',
  'apps/server/scripts',
  'apps/web/src',
  'e2e',
  'bench/src',
];
const SHARED = path.join(root, 'packages/shared/src');

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'migrations') continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mjs|js)$/.test(name)) out.push(p);
  }
  return out;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolve(from, spec) {
  let base;
  if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else if (spec.startsWith('@harvest/shared/')) base = path.join(SHARED, spec.slice('@harvest/shared/'.length));
  else return null;
  for (const cand of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(cand) && statSync(cand).isFile()) return cand;
  }
  return null;
}

const files = ROOTS.flatMap((r) => walk(path.join(root, r)));
const graph = new Map();
for (const f of files) {
  const src = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  const deps = new Set();
  for (const m of src.matchAll(IMPORT)) {
    // A dynamic import() is a lazy edge (a route chunk): it cannot deadlock module evaluation.
    if (m[2]) continue;
    const target = resolve(f, m[1]);
    if (target) deps.add(target);
  }
  graph.set(f, [...deps]);
}

const state = new Map(); // 1 visiting, 2 done
const stack = [];
const cycles = [];
function visit(f) {
  state.set(f, 1);
  stack.push(f);
  for (const d of graph.get(f) ?? []) {
    if (state.get(d) === 1) cycles.push([...stack.slice(stack.indexOf(d)), d]);
    else if (!state.has(d)) visit(d);
  }
  stack.pop();
  state.set(f, 2);
}
for (const f of graph.keys()) if (!state.has(f)) visit(f);

const rel = (f) => path.relative(root, f);
if (cycles.length) {
  console.error(`import cycles (${cycles.length}):`);
  for (const c of cycles) console.error(`  ${c.map(rel).join(' -> ')}`);
  process.exitCode = 1;
} else {
  console.log(`import-cycles: no cycle in ${graph.size} modules`);
}
