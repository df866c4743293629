import { createHash } from 'node:crypto';
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

// The parts of drizzle's database object that run a query under a statement name (public on the object,
// not in its types).
interface Runner {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      arrayMode: boolean,
    ): { execute(values?: Record<string, unknown>): Promise<unknown> };
  };
}

/**
 * Rows of a raw SQL query sent as a named (prepared) statement: on PostgreSQL each pooled connection
 * parses it once and PostgreSQL's plan cache keeps its plan, where `rawRows` has every request parsed and
 * planned again (for the hot back-office reads planning cost more than running: docs/decisions/0052).
 * The name is a hash of the text, so one name never stands for two texts; the values stay parameters.
 * Only for statements whose text comes from a small fixed set and whose plan does not hinge on the
 * values (PostgreSQL may switch to one generic plan after five executions). PGlite runs it as `rawRows` does.
 */
export async function preparedRows<T>(db: Db, query: SQL): Promise<T[]> {
  const { dialect, session } = db as unknown as Runner;
  const q = dialect.sqlToQuery(query);
  return rowsOf<T>(await session.prepareQuery(q, undefined, statementName(q.sql), false).execute());
}

const names = new Map<string, string>();
/** `hf_` + a hash of the text (remembered: the same few texts come request after request). */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `hf_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    if (names.size >= 1000) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * A raw statement whose values are `sql.placeholder(name)`s, built and named once per database handle: a
 * request only fills the values in (no SQL assembled, no hash computed per request). Same rules as
 * `preparedRows` for what may be prepared.
 */
export function preparedStatement<T>(build: () => SQL) {
  const prepared = oncePerDb((db) => {
    const { dialect, session } = db as unknown as Runner;
    const q = dialect.sqlToQuery(build());
    return session.prepareQuery(q, undefined, statementName(q.sql), false);
  });
  return async (db: Db, values: Record<string, unknown>): Promise<T[]> => rowsOf<T>(await prepared(db).execute(values));
}

/**
 * `make(db)` made once per database handle and kept while the handle lives: a prepared query (drizzle's
 * `.prepare(name)` or `preparedStatement`), so a request runs it without assembling its SQL again.
 */
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
