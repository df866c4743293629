// Production build of the server and its command-line tools: one ESM bundle per entry point in
// dist/ (src/server.ts -> dist/server.js, src/cli/*.ts -> dist/cli/*.js), so `npm start` and the CLIs
// run compiled JavaScript on plain Node. npm packages stay external (node_modules is deployed with
// the app); the workspace package @harvest/shared ships TypeScript sources and is bundled in.
//   --if-stale  build only when a source is newer than the last build (the CLIs' npm scripts use it,
//               so `npm run backup` from cron does not rewrite dist/ under a running server)
//   --quiet     no summary line
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(serverDir, 'dist');
const cli = readdirSync(path.join(serverDir, 'src/cli'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => `src/cli/${f}`);

const stamp = path.join(outdir, '.built');
const args = new Set(process.argv.slice(2));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

if (args.has('--if-stale') && existsSync(stamp)) {
  const sources = Math.max(
    newestSource(path.join(serverDir, 'src')),
    newestSource(path.join(serverDir, '../../packages/shared/src')),
  );
  if (sources <= statSync(stamp).mtimeMs) process.exit(0);
}

rmSync(outdir, { recursive: true, force: true });
const started = Date.now();
await build({
  absWorkingDir: serverDir,
  entryPoints: ['src/server.ts', ...cli],
  outbase: 'src',
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages-but-workspace',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@harvest/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
writeFileSync(stamp, new Date().toISOString());
if (!args.has('--quiet'))
  console.log(
    `server built into ${path.relative(process.cwd(), outdir) || '.'}/ (${1 + cli.length} entry points, ${Date.now() - started} ms)`,
  );
