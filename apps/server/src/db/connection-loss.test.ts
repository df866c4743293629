import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { freshDatabase } from '../../test/helpers.ts';
import { rawRows } from './raw.ts';
import { inTransaction } from './tx.ts';
import { until } from '../../test/support/until.ts';

/**
 * A server losing PostgreSQL (restart, failover, an administrator's pg_terminate_backend) while a
 * transaction holds a connection between two statements (Withdraw All waits there for the withdrawal
 * password's check) must answer that request with an error and keep serving: the crash test once saw the
 * whole process exit on it. PostgreSQL only (PGlite has no connections to lose).
 */
const url = process.env.DATABASE_URL;

describe.skipIf(!url)('a connection lost in the middle of a transaction', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await freshDatabase();
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.close();
  });

  it('fails that transaction only; the process and the pool carry on', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const attempt = inTransaction(database.db, async (tx) => {
        const [me] = await rawRows<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`);
        // Terminated while idle in the transaction: the client gets the server's FATAL with no query running.
        await admin.query('SELECT pg_terminate_backend($1)', [me?.pid]);
        await until(
          async () =>
            (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [me?.pid])).rowCount === 0
              ? true
              : null,
          10_000,
          'the backend gone',
        );
        await rawRows(tx, sql`SELECT 1 AS one`);
      });
      await expect(attempt).rejects.toThrow();
      expect(uncaught).toEqual([]);
      // The pool dropped the dead client and serves the next request.
      const [row] = await rawRows<{ one: number }>(database.db, sql`SELECT 1 AS one`);
      expect(row?.one).toBe(1);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
