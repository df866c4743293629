import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase } from '../../test/helpers.ts';
import type { Database } from './client.ts';
import { rawRows } from './raw.ts';

/** A row has the same JS types on PGlite (npm test) and on PostgreSQL (the same file on DATABASE_URL). */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

it('int8 and counts are bigint, numeric sums are exact strings, JSON is parsed, raw times are text', async () => {
  const [row] = await rawRows<{ big: bigint; n: bigint; total: string; doc: { a: number[] }; at: string }>(
    database.db,
    sql`SELECT 9007199254740993::int8 AS big, count(*) AS n, sum(x) AS total, '{"a":[1]}'::jsonb AS doc,
               '2031-02-03T04:05:06.789Z'::timestamptz AS at
          FROM (VALUES (9007199254740993::int8), (1::int8)) v(x)`,
  );
  expect(row).toEqual({
    big: 9007199254740993n,
    n: 2n,
    total: '9007199254740994',
    doc: { a: [1] },
    at: expect.any(String),
  });
  expect(new Date(row?.at ?? '').toISOString()).toBe('2031-02-03T04:05:06.789Z');
});
