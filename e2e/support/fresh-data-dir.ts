import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type RunningApp } from './server.ts';

/**
 * Creating an embedded PGlite cluster (initdb in WebAssembly) and its first start are most of a server's start
 * time: global-setup.ts does them once per run into a template directory; each app then gets a copy, which is the
 * same fresh database and opens in a fraction of the time. Pass the result as DATA_DIR to startApp and remove it
 * after stop().
 */
export function freshDataDir(): { dir: string; remove: () => void } {
  const template = process.env.HF_E2E_TEMPLATE;
  if (!template) throw new Error('no template database: run the tests through playwright (global-setup.ts)');
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
