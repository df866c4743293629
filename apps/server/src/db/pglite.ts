import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { lockDataDir, secureDataDir } from '../lib/data-dir.ts';
import { MIGRATIONS_DIR } from '../lib/paths.ts';
import type { Database, Db } from './client.ts';
import { applyFunctions } from './functions.ts';
import { INT8, parseInt8 } from './row-types.ts';
import * as schema from './schema.ts';

/**
 * The embedded database (PGlite, PostgreSQL in WebAssembly), in its own module so that a server on
 * PostgreSQL never loads it (client.ts openDatabase imports it on demand).
 */

/** Extensions the migrations use; PGlite loads them at open. */
const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * How every PGlite in the code and the tests opens: the migrations' extensions, and int8 as a JS bigint, as
 * node-postgres is configured (client.ts), so a row has the same types on both drivers (row-types.ts).
 * PGlite builds int8[]'s parser from int8's.
 */
export const PGLITE_OPTIONS = {
  extensions: PGLITE_EXTENSIONS,
  parsers: { [INT8]: parseInt8 },
} satisfies PGliteOptions;

export function wrapPglite(client: PGlite): Database {
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
      await applyFunctions({
        script: async (text) => void (await client.exec(text)),
        value: async (text) => (await client.query<{ value: string }>(text)).rows[0]?.value,
      });
    },
    // One connection in the process; queries queue inside PGlite, not in a pool.
    poolStats: () => ({ total: 1, idle: 1, waiting: 0, max: 1 }),
    close: () => client.close(),
  };
}

/** The embedded database in DATA_DIR/pglite, locked to this process until it is closed (lib/data-dir.ts). */
export async function openPglite(dataDir: string): Promise<Database & { client: PGlite }> {
  // Owner-only: the umask covers the files PGlite creates while it runs; the files of
  // a new cluster are written by PGlite's initdb with their own modes, so they are tightened after.
  secureDataDir(dataDir);
  const release = lockDataDir(dataDir);
  try {
    const client = await PGlite.create(path.join(dataDir, 'pglite'), PGLITE_OPTIONS);
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
