import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { openPostgres } from '../../src/db/client.ts';
import { SettableClock } from '../../src/lib/clock.ts';
import { makeUser, TEST_SECRET, testConfig, type TestApp, type TestUser } from '../helpers.ts';
import { startSmtp } from '../smtp.ts';
import { scratchPostgres } from '../support/processes.ts';

export interface TwoInstances {
  scratch: Awaited<ReturnType<typeof scratchPostgres>>;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  /** An operator's connection to the database. */
  sql: pg.Client;
  a: TestApp;
  b: TestApp;
  admin: TestUser;
  close(): Promise<void>;
}

/** Two app instances A and B on one real PostgreSQL database (migrated), an administrator, an operator's client. */
export async function twoInstances(): Promise<TwoInstances> {
  const scratch = await scratchPostgres();
  const smtp = await startSmtp();
  const migrator = openPostgres(scratch.url, 1);
  await migrator.migrate();
  await migrator.close();
  const sql = new pg.Client({ connectionString: scratch.url });
  await sql.connect();
  const instance = async (): Promise<TestApp> => {
    const config = testConfig(smtp.url);
    const database = openPostgres(scratch.url, 4);
    const clock = new SettableClock();
    const { app, ctx } = await buildApp({ config, database, secret: TEST_SECRET, clock });
    await app.ready();
    const close = async () => {
      await app.close();
      await database.close();
    };
    return { app, ctx, clock, database, smtp, close };
  };
  const a = await instance();
  const b = await instance();
  const admin = await makeUser(a, { isAdmin: true });
  return {
    scratch,
    smtp,
    sql,
    a,
    b,
    admin,
    async close() {
      for (const t of [b, a]) await t.close().catch(() => undefined);
      await sql.end().catch(() => undefined);
      await smtp.close();
      await scratch.destroy();
    },
  };
}
