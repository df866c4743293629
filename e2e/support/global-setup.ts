import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migratedDataDir } from '../../apps/server/test/pglite-template.ts';
import { startApp } from './server.ts';

/**
 * One template database for the whole run: the server suite's migrated PGlite cluster (made once and kept, see
 * pglite-template.ts), where the production server starts once (its start-up checks, the demo administrator) and
 * stops. Every app a test starts opens a copy of it (fresh-data-dir.ts), so no test pays for initdb, the migrations
 * or that first start. A first start on an empty directory is the system suite's (first-start.test.ts).
 */
export default async function globalSetup(): Promise<() => void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-e2e-template-'));
  await migratedDataDir(dir);
  const app = await startApp({ DATA_DIR: dir });
  await app.stop();
  process.env.HF_E2E_TEMPLATE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
