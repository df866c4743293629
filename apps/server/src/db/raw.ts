import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';
import { decodeTimes } from './row-types.ts';

interface DriverResult {
  rows: Record<string, unknown>[];
  fields?: { name: string; dataTypeID: number }[];
}

function rowsOf<T>(res: unknown): T[] {
  if (!(res && typeof res === 'object' && 'rows' in res && Array.isArray(res.rows)))
    throw new Error('Unexpected database driver result');
  const { rows, fields } = res as DriverResult;
  decodeTimes(rows, fields);
  return rows as T[];
}

/** Rows of a raw SQL query, their values the same JS types on PGlite and node-postgres (row-types.ts). */
export async function rawRows<T>(db: Db, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/** `make(db)` made once per database handle and kept while the handle lives (e.g. drizzle's `.prepare(name)`). */
export function oncePerDb<T>(make: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let made = byDb.get(db);
    if (made === undefined) {
      made = make(db);
      byDb.set(db, made);
    }
    return made;
  };
}
