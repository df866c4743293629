import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/** Rows of a raw SQL query, the same shape on PGlite and node-postgres. */
export async function rawRows<T>(db: Db, query: SQL): Promise<T[]> {
  const res: unknown = await db.execute(query);
  if (res && typeof res === 'object' && 'rows' in res && Array.isArray(res.rows)) return res.rows;
  throw new Error('Unexpected database driver result');
}
