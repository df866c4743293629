import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { lockDataDir, secureDataDir } from '../lib/data-dir.ts';
import { MIGRATIONS_DIR } from '../lib/paths.ts';
import type { Database, Db } from './client.ts';
import * as schema from './schema.ts';

/**
 * The embedded database (PGlite, PostgreSQL in WebAssembly), in its own module so that a server on
 * PostgreSQL never loads it (client.ts openDatabase imports it on demand).
 */

/** Extensions the migrations use; PGlite loads them at open. */
export const PGLITE_EXTENSIONS = { pg_trgm };

export function wrapPglite(client: PGlite): Database {
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR }),
    // One connection in the process; queries queue inside PGlite, not in a pool.
    poolStats: () => ({ total: 1, idle: 1, waiting: 0, max: 1 }),
    close: () => client.close(),
  };
}

/**
 * PGlite's own start parameters plus a small buffer pool: the embedded database serves one
 * process, and Postgres's default 128 MB of shared buffers would double its memory (docs/BENCHMARKS.md).
 */
const PGLITE_START = [
  '--single',
  '-F',
  '-O',
  '-j',
  '-c',
  'search_path=public',
  '-c',
  'exit_on_error=false',
  '-c',
  'log_checkpoints=false',
  '-c',
  'max_worker_processes=0',
  '-c',
  'max_parallel_workers=0',
  '-c',
  'max_parallel_workers_per_gather=0',
  '-c',
  'io_method=sync',
  '-c',
  'max_parallel_maintenance_workers=0',
  '-c',
  'shared_buffers=16MB',
];

/**
 * A new embedded cluster is created (PGlite's initdb) in a short-lived child process: initdb grows the
 * process's heap by several hundred MB that then stays resident, so the server opens the finished
 * cluster instead (docs/BENCHMARKS.md, idle RSS). Where the module cannot be located for a child
 * (a test runner's loader), initdb runs in this process as before.
 */
async function initPgliteCluster(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION')) || typeof import.meta.resolve !== 'function') return;
  let pgliteUrl: string;
  try {
    pgliteUrl = import.meta.resolve('@electric-sql/pglite');
  } catch {
    return;
  }
  const code = `const { PGlite } = await import(${JSON.stringify(pgliteUrl)});
    const db = await PGlite.create(${JSON.stringify(dir)}); await db.close();`;
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', code], (err, _out, stderr) =>
      err ? reject(new Error(`Could not create the embedded database in ${dir}: ${stderr || err.message}`)) : resolve(),
    ),
  );
}

/**
 * The embedded server runs PGlite's WebAssembly with V8's baseline compiler only (Liftoff, no
 * optimizing tier-up): the optimizing compiler's code and working memory stay resident, about 40 MB
 * of an idle server (docs/decisions/0043; queries on PGlite take about 1.7x as long). A server
 * started with its own choice (`node --no-liftoff-only ...`, or any liftoff / wasm-tier flag in
 * NODE_OPTIONS) keeps it. Set before the module is compiled; only wasm compilation reads it.
 */
function preferLeanWasm(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (!/liftoff|wasm-tier|wasm-dynamic-tiering/.test(given)) v8.setFlagsFromString('--liftoff-only');
}

/** The embedded database in DATA_DIR/pglite, locked to this process until it is closed (lib/data-dir.ts). */
export async function openPglite(dataDir: string): Promise<Database & { client: PGlite }> {
  // Owner-only (issue 11): the umask covers the files PGlite creates while it runs; the files of
  // a new cluster are written by PGlite's initdb with their own modes, so they are tightened after.
  secureDataDir(dataDir);
  const release = lockDataDir(dataDir);
  try {
    await initPgliteCluster(path.join(dataDir, 'pglite'));
    preferLeanWasm();
    const client = await PGlite.create(path.join(dataDir, 'pglite'), {
      extensions: PGLITE_EXTENSIONS,
      startParams: PGLITE_START,
    });
    secureDataDir(dataDir);
    const database = wrapPglite(client);
    return {
      ...database,
      client,
      async close() {
        await database.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
