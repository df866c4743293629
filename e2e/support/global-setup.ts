import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp } from './server.ts';

/**
 * One template database for the whole run: the production server starts once on an empty data directory (initdb,
 * migrations, SQL functions, the demo administrator) and stops. Every app a test starts opens a copy of it
 * (fresh-data-dir.ts), so no test pays for that first start.
 */
export default async function globalSetup(): Promise<() => void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-e2e-template-'));
  const app = await startApp({ DATA_DIR: dir });
  await app.stop();
  process.env.HF_E2E_TEMPLATE = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
