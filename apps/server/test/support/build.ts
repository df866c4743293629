import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The production build the ops tests run (`npm run build:server`, only when a source changed). */
export function buildServer(): void {
  const r = spawnSync(process.execPath, ['apps/server/scripts/build.mjs', '--if-stale', '--quiet'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`server build failed:\n${r.stdout}${r.stderr}`);
}
