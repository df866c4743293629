import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../src/db/client.ts';
import { inTransaction } from '../../src/db/tx.ts';
import { checkLedger } from '../../src/ledger/check.ts';
import { post, userBalances, userTransfer } from '../../src/ledger/ledger.ts';
import { insertUserWithAccounts, newInvitationCode } from '../../src/modules/users/users.service.ts';
import { PRODUCTION_ENV, TEST_SECRET } from '../helpers.ts';
import { freePort } from '../net.ts';
import { buildServer, postJson, scratchPostgres, ServerProcess } from '../support/processes.ts';

/**
 * Graceful shutdown of the production build on PostgreSQL: SIGTERM arrives while a money request is
 * in flight (held on a row lock the test owns). The listener stops accepting at once, the request
 * still completes with 200, the process exits 0, and the ledger is exact.
 */
let scratch: Awaited<ReturnType<typeof scratchPostgres>>;
let database: Database;
let server: ServerProcess | undefined;
beforeAll(async () => {
  buildServer();
  scratch = await scratchPostgres();
  database = openPostgres(scratch.url, 2);
  await database.migrate();
});
afterAll(async () => {
  await server?.kill9();
  await database?.close();
  await scratch?.destroy();
});

describe('graceful shutdown', () => {
  it('finishes the in-flight investment, exits 0, and the ledger check is green', { timeout: 120_000 }, async () => {
    const password = 'shutdown-password-1';
    const user = await inTransaction(database.db, (tx) =>
      insertUserWithAccounts(tx, {
        email: `shutdown.${randomUUID().slice(0, 8)}@example.com`,
        firstName: 'Shut',
        lastName: 'Down',
        phoneCountryCode: '+1',
        phoneNumber: '5551234567',
        password,
        withdrawalPassword: 'withdraw-1',
        referrerId: null,
        invitationCode: newInvitationCode(),
      }),
    );
    await inTransaction(database.db, (tx) =>
      post(
        tx,
        userTransfer('test_funding', randomUUID(), user.id, {
          from: 'platform_deposits',
          to: 'balance',
          amount: 100_000_000n,
        }),
      ),
    );

    server = new ServerProcess(
      await freePort(),
      {
        ...PRODUCTION_ENV,
        DATABASE_URL: scratch.url,
        JWT_SECRET: TEST_SECRET,
        DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
        LOG_LEVEL: 'info',
        SHUTDOWN_TIMEOUT_MS: '30000',
      },
      { entry: 'dist' },
    );
    await server.start();
    const login = await postJson(server.baseUrl, '/api/login', { email: user.email, password });
    expect(login.status, JSON.stringify(login.data)).toBe(200);

    // Hold the user's ledger rows: the investment's transaction will wait for them.
    const holder = new pg.Client({ connectionString: scratch.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM ledger_accounts WHERE user_id = $1 FOR UPDATE', [user.id]);
      const invest = postJson(
        server.baseUrl,
        '/api/user/invest',
        { amount: '50' },
        { authorization: `Bearer ${login.data.token}`, 'idempotency-key': randomUUID() },
      );
      // In flight: the server's statement waits on the lock.
      for (let waiting = 0; waiting === 0;) {
        await new Promise((r) => setTimeout(r, 50));
        const r = await holder.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        waiting = r.rows[0].n;
      }

      server.signal('SIGTERM');
      // It stops accepting connections while the request is still running.
      for (let accepting = true; accepting;) {
        accepting = await fetch(`${server.baseUrl}/healthz`).then(
          () => true,
          () => false,
        );
        if (accepting) await new Promise((r) => setTimeout(r, 50));
      }
      expect(server.alive).toBe(true);

      await holder.query('COMMIT');
      const answer = await invest;
      expect(answer.status, JSON.stringify(answer.data)).toBe(200);
    } finally {
      await holder.end();
    }
    expect(await server.exited()).toEqual({ code: 0, signal: null });
    const log = server.log();
    expect(log).toContain('SIGTERM: shutting down');
    expect(log).toContain('shut down cleanly');
    // Production logs are JSON lines.
    const lines = log.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.some((l) => /^POST \/api\/user\/invest 200 /.test(JSON.parse(l).msg))).toBe(true);

    expect(await checkLedger(database.db)).toEqual([]);
    const balances = await userBalances(database.db, user.id);
    expect(balances.balance).toBe(50_000_000n);
    expect(balances.invested).toBe(50_000_000n);
  });
});
