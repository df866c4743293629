import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp, type RunningApp } from './server.ts';

/**
 * Creating an embedded PGlite cluster (initdb in WebAssembly) is most of a server's start
 * time. Once per test worker a cluster is created and migrated into a template directory;
 * each app then gets a copy, which is the same fresh, empty, migrated database and opens in a
 * fraction of the time. Pass the result as DATA_DIR to startApp and remove it after stop().
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let template: string | null = null;

function buildTemplate(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-e2e-template-'));
  const script = `
    const { openDatabase } = await import(${JSON.stringify(path.join(ROOT, 'apps/server/src/db/client.ts'))});
    const db = await openDatabase({ dataDir: ${JSON.stringify(dir)} });
    await db.migrate();
    await db.close();
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0 || !existsSync(path.join(dir, 'pglite')))
    throw new Error(`template database: ${r.error?.message ?? ''}${r.stderr}`);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A new directory holding a fresh migrated database (a copy of this worker's template). */
export function freshDataDir(): { dir: string; remove: () => void } {
  template ??= buildTemplate();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-e2e-db-'));
  cpSync(template, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** startApp on a copy of the template database; stop() also removes the copy. */
export async function startFastApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const data = freshDataDir();
  try {
    const app = await startApp({ ...env, DATA_DIR: data.dir });
    return {
      ...app,
      async stop() {
        await app.stop();
        data.remove();
      },
    };
  } catch (err) {
    data.remove();
    throw err;
  }
}
