import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase } from '../../test/helpers.ts';
import type { Database } from './client.ts';
import { rawRows } from './raw.ts';

/** A row has the same JS types on PGlite (npm test) and on PostgreSQL (the same file on DATABASE_URL): row-types.ts. */
let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

it('int8, counts and sums cast to bigint are bigint; numeric is exact text; JSON is parsed; times are Dates', async () => {
  const [row] = await rawRows<Record<string, unknown>>(
    database.db,
    sql`SELECT max(x) AS big, count(*) AS n, sum(x) AS total, sum(x)::bigint AS micro, 7::int AS small,
               ARRAY[max(x), NULL] AS bigs, '{"a":[1]}'::jsonb AS doc, '{"b":2}'::json AS j,
               '2031-02-03T04:05:06.789+02:00'::timestamptz AS at, '2031-02-03 04:05:06.789'::timestamp AS local,
               NULL::timestamptz AS never, '2031-02-03'::date AS day
          FROM (VALUES (9007199254740993::int8), (1::int8)) v(x)`,
  );
  expect(row).toEqual({
    big: 9007199254740993n,
    n: 2n,
    total: '9007199254740994',
    micro: 9007199254740994n,
    small: 7,
    bigs: [9007199254740993n, null],
    doc: { a: [1] },
    j: { b: 2 },
    at: new Date('2031-02-03T02:05:06.789Z'),
    local: new Date('2031-02-03T04:05:06.789Z'),
    never: null,
    day: '2031-02-03',
  });
});

it('a sum out of int8 range fails instead of rounding', async () => {
  await expect(
    rawRows(database.db, sql`SELECT sum(x)::bigint AS s FROM (VALUES (9223372036854775807::int8), (1::int8)) v(x)`),
  ).rejects.toMatchObject({ cause: { message: 'bigint out of range' } });
});
