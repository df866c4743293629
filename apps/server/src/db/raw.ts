import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

function rowsOf<T>(res: unknown): T[] {
  if (res && typeof res === 'object' && 'rows' in res && Array.isArray(res.rows)) return res.rows;
  throw new Error('Unexpected database driver result');
}

/** Rows of a raw SQL query, the same shape on PGlite and node-postgres. */
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
