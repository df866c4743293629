import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../src/db/client.ts';
import { inTransaction } from '../../src/db/tx.ts';
import { checkLedger } from '../../src/ledger/check.ts';
import { post, userBalances, userTransfer } from '../../src/ledger/ledger.ts';
import { insertUserWithAccounts, newInvitationCode } from '../../src/modules/users/users.service.ts';
import { PRODUCTION_ENV } from '../helpers.ts';
import { freePort } from '../net.ts';
import { postJson, scratchPostgres, ServerProcess } from '../support/processes.ts';
import { buildServer } from '../support/build.ts';

/**
 * Graceful shutdown of the production build on PostgreSQL: SIGTERM arrives while a money request is
 * in flight (a Withdraw All, which any day of the week may send, held on a row lock the test owns).
 * The listener stops accepting at once, the request still completes with 200, the process exits 0,
 * and the ledger is exact. A request that cannot
 * finish within SHUTDOWN_TIMEOUT_MS does not keep the process: it exits 1 and the money did not move.
 */
/** When the people these tests create signed up: a fixed day, no app clock here. */
const SIGNED_UP = new Date('2026-01-01T00:00:00Z');
const PASSWORD = 'shutdown-password-1';
let scratch: Awaited<ReturnType<typeof scratchPostgres>>;
let database: Database;
const servers: ServerProcess[] = [];
beforeAll(async () => {
  buildServer();
  scratch = await scratchPostgres();
  database = openPostgres(scratch.url, 2);
  await database.migrate();
});
afterAll(async () => {
  for (const s of servers) await s.kill9();
  await database?.close();
  await scratch?.destroy();
});

async function fundedUser() {
  const user = await inTransaction(database.db, (tx) =>
    insertUserWithAccounts(tx, {
      email: `shutdown.${randomUUID().slice(0, 8)}@example.com`,
      firstName: 'Shut',
      lastName: 'Down',
      phoneCountryCode: '+1',
      phoneNumber: '5551234567',
      password: PASSWORD,
      withdrawalPassword: 'withdraw-1',
      referrerId: null,
      invitationCode: newInvitationCode(),
      createdAt: SIGNED_UP,
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
  return user;
}

async function startServer(shutdownTimeoutMs: number) {
  const server = new ServerProcess(
    await freePort(),
    {
      ...PRODUCTION_ENV,
      DATABASE_URL: scratch.url,
      DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
    },
    { entry: 'dist' },
  );
  servers.push(server);
  await server.start();
  return server;
}

const WALLET = '0x2222222222222222222222222222222222222222';

/**
 * Signs the user in, takes a lock on their ledger rows from another connection, sends Withdraw All
 * (which then waits on the lock) and answers once the server's statement is seen waiting.
 */
async function withdrawHeldOnLock(server: ServerProcess, user: { id: string; email: string }) {
  const login = await postJson(server.baseUrl, '/api/login', { email: user.email, password: PASSWORD });
  expect(login.status, JSON.stringify(login.data)).toBe(200);
  const holder = new pg.Client({ connectionString: scratch.url });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT id FROM ledger_accounts WHERE user_id = $1 FOR UPDATE', [user.id]);
  const answer = postJson(
    server.baseUrl,
    '/api/withdrawal/request-all',
    { walletAddress: WALLET, withdrawalPassword: 'withdraw-1' },
    { authorization: `Bearer ${login.data.token}`, 'idempotency-key': randomUUID() },
  ).catch((err: unknown) => ({ status: 0, data: String(err) }));
  let early: unknown;
  void answer.then((a) => (early = a));
  for (let waiting = 0; waiting === 0;) {
    await new Promise((r) => setTimeout(r, 50));
    // An answer before the lock is released means the request never waited: say what it was.
    if (early) throw new Error(`answered without waiting on the lock: ${JSON.stringify(early)}`);
    const r = await holder.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    waiting = r.rows[0].n;
  }
  return { answer, release: () => holder.query('COMMIT').then(() => holder.end()) };
}

describe('graceful shutdown', () => {
  it('finishes the in-flight Withdraw All, exits 0, and the ledger check is green', { timeout: 180_000 }, async () => {
    const user = await fundedUser();
    const server = await startServer(30_000);
    const { answer, release } = await withdrawHeldOnLock(server, user);

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

    await release();
    const requested = await answer;
    expect(requested.status, JSON.stringify(requested.data)).toBe(200);
    expect(await server.exited()).toEqual({ code: 0, signal: null });
    const log = server.log();
    expect(log).toContain('SIGTERM: shutting down');
    expect(log).toContain('shut down cleanly');
    // Production logs are JSON lines.
    const lines = log.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.some((l) => /^POST \/api\/withdrawal\/request-all 200 /.test(JSON.parse(l).msg))).toBe(true);

    expect(await checkLedger(database.db)).toEqual([]);
    const balances = await userBalances(database.db, user.id);
    expect(balances.balance).toBe(0n);
    expect(balances.pending_withdrawal).toBe(100_000_000n);
  });

  it(
    'is bounded: a request still held after SHUTDOWN_TIMEOUT_MS is cut, the process exits 1, nothing moved',
    { timeout: 180_000 },
    async () => {
      const user = await fundedUser();
      const server = await startServer(1_000);
      const { answer, release } = await withdrawHeldOnLock(server, user);
      server.signal('SIGTERM');
      expect(await server.exited()).toEqual({ code: 1, signal: null });
      expect(server.log()).toContain('killed by timeout (1000ms)');
      expect((await answer).status).not.toBe(200);
      await release();
      expect(await checkLedger(database.db)).toEqual([]);
      const balances = await userBalances(database.db, user.id);
      expect(balances.balance).toBe(100_000_000n);
      expect(balances.pending_withdrawal).toBe(0n);
    },
  );
});
