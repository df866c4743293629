import { sql, type SQL } from 'drizzle-orm';
import { MSG } from '@harvest/shared/messages';
import { badRequest } from '../lib/errors.ts';
import type { Db } from './client.ts';
import { rawRows } from './raw.ts';

/**
 * Keyset paging for the back-office lists (docs/decisions/0036-keyset-paging.md). A list is
 * ordered newest first by a key of several parts, every part descending and the last unique.
 * - `after` a cursor: the rows with a smaller key (the next page), by the index, as fast as page 1;
 * - `before` a cursor: the rows with a greater key, read ascending and turned round (the previous page);
 * - a page number alone: from whichever end of the list is nearer, so the last page is as fast as
 *   the first; the offset walks only the narrow key index (a middle page of a large list costs most).
 * The page's keys are found first (the `page_keys` CTE); the caller's query joins the full rows to them.
 */

export type KeyPart = 'timestamptz' | 'uuid' | 'int' | 'bigint';

export interface Keyset {
  /** FROM items of the listed table (one row per list row), with its alias. */
  from: SQL;
  where: SQL;
  /** The key parts, most significant first (each descending in the list). */
  key: { expr: SQL; type: KeyPart }[];
  /**
   * Rows of the page in list order: a SELECT that joins `page_keys` (columns k0..kn, the key; `k`, the
   * key as text, to select as `k`; `ord`, to order by) to the full rows.
   */
  rows: SQL;
}

export interface PageRequest {
  page: number;
  pageSize: number;
  after?: string;
  before?: string;
}

const TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?$/;

/** A calendar date and time PostgreSQL accepts as it is (2024-02-30 or 25:00 would fail the query's cast). */
function isTimestamptz(text: string): boolean {
  const m = TIMESTAMPTZ.exec(text);
  if (!m) return false;
  const [y, mo, d, h, mi, s, , oh, om = '0'] = m.slice(1).map((x) => Number(x ?? 0));
  const date = new Date(Date.UTC(y ?? 0, (mo ?? 0) - 1, d ?? 0));
  return (
    (y ?? 0) >= 1 &&
    date.getUTCMonth() === (mo ?? 0) - 1 &&
    date.getUTCDate() === d &&
    (h ?? 99) < 24 &&
    (mi ?? 99) < 60 &&
    (s ?? 99) < 60 &&
    (oh ?? 99) <= 15 &&
    Number(om) < 60
  );
}

/** An integer text within the SQL type's range (a larger one would fail the query's cast). */
const inRange = (bits: bigint) => (text: string) =>
  /^-?\d{1,19}$/.test(text) && BigInt(text) >= -(2n ** (bits - 1n)) && BigInt(text) < 2n ** (bits - 1n);

/**
 * What each key part of a cursor may hold: exactly the values its SQL type accepts, so that a cursor the
 * server did not make is a 400 (MSG.invalidCursor), never a failed query (a 500 with the SQL in the log).
 */
const PART: Record<KeyPart, (text: string) => boolean> = {
  timestamptz: isTimestamptz,
  uuid: (text) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text),
  int: inRange(32n),
  bigint: inRange(64n),
};

export function encodeCursor(parts: string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

function decodeCursor(cursor: string, key: Keyset['key']): string[] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(MSG.invalidCursor);
  }
  if (
    !Array.isArray(parts) ||
    parts.length !== key.length ||
    !parts.every((p, i) => typeof p === 'string' && PART[key[i]?.type ?? 'int'](p))
  )
    throw badRequest(MSG.invalidCursor);
  return parts as string[];
}

const tuple = (items: SQL[]) => sql`(${sql.join(items, sql`, `)})`;

export interface KeysetResult<R> {
  rows: R[];
  nextCursor: string | null;
  prevCursor: string | null;
}

/**
 * One page of a keyset list. `total` (from a counter) decides which end a page number is read
 * from. The caller's `rows` query selects `page_keys.k` (the key as text, for the cursors).
 */
export async function keysetPage<R extends { k: string[] }>(
  db: Db,
  list: Keyset,
  req: PageRequest,
  total: number,
): Promise<KeysetResult<R>> {
  const n = list.key.length;
  const cols = (f: (i: number) => SQL) =>
    sql.join(
      Array.from({ length: n }, (_, i) => f(i)),
      sql`, `,
    );
  const k = (i: number) => sql.identifier(`k${i}`);
  const exprs = list.key.map((x) => x.expr);
  const size = req.pageSize;
  let cond = sql`TRUE`;
  let ascending = false;
  let offset = 0;
  let limit = size;
  // An empty cursor is no cursor (a form may send `after=`).
  const after = req.after || undefined;
  const before = after === undefined ? req.before || undefined : undefined;
  const cursor = after ?? before;
  if (cursor !== undefined) {
    const parts = decodeCursor(cursor, list.key);
    const values = tuple(parts.map((p, i) => sql`${p}::${sql.raw(list.key[i]?.type ?? 'text')}`));
    ascending = after === undefined;
    cond = ascending ? sql`${tuple(exprs)} > ${values}` : sql`${tuple(exprs)} < ${values}`;
    limit = size + 1; // one more tells whether there is a page beyond
  } else {
    const fromTop = (req.page - 1) * size;
    if (total - fromTop > 0 && total - req.page * size < fromTop) {
      // Nearer the end: read ascending from the last row (the last page holds what is left).
      ascending = true;
      offset = Math.max(0, total - req.page * size);
      limit = Math.min(size, total - fromTop);
    } else offset = fromTop;
  }
  const dir = sql.raw(ascending ? 'ASC' : 'DESC');
  const rows = await rawRows<R>(
    db,
    sql`WITH page_keys AS (
          SELECT ${cols((i) => sql`s.${k(i)}`)}, ARRAY[${cols((i) => sql`s.${k(i)}::text`)}] AS k,
                 row_number() OVER (ORDER BY ${cols((i) => sql`s.${k(i)} DESC`)}) AS ord
          FROM (SELECT ${cols((i) => sql`${exprs[i]} AS ${k(i)}`)} FROM ${list.from}
                WHERE (${list.where}) AND ${cond} ORDER BY ${cols((i) => sql`${exprs[i]} ${dir}`)}
                OFFSET ${offset} LIMIT ${limit}) s)
        ${list.rows}`,
  );
  let page = rows;
  let beyond = false;
  if (cursor !== undefined && rows.length > size) {
    beyond = true;
    // The extra row is the one farthest from the cursor: the last going forward, the first going back.
    page = ascending ? rows.slice(1) : rows.slice(0, size);
  }
  const hasNext = cursor === undefined ? req.page * size < total : ascending || beyond;
  const hasPrev = cursor === undefined ? req.page > 1 : !ascending || beyond;
  const first = page[0];
  const last = page[page.length - 1];
  return {
    rows: page,
    nextCursor: last && hasNext ? encodeCursor(last.k) : null,
    prevCursor: first && hasPrev ? encodeCursor(first.k) : null,
  };
}

/** The paging part of a list's query string. */
export const pageOf = (q: PageRequest): PageRequest => ({
  page: q.page,
  pageSize: q.pageSize,
  after: q.after,
  before: q.before,
});
