import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../src/bootstrap.ts';
import { openPostgres, type Database } from '../../src/db/client.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { inTransaction } from '../../src/db/tx.ts';
import { post, userTransfer } from '../../src/ledger/ledger.ts';
import { insertUserWithAccounts, newInvitationCode } from '../../src/modules/users/users.service.ts';
import { isPostgres, TEST_SECRET } from '../helpers.ts';
import { freePort } from '../net.ts';
import { postJson, runCli, scratchPostgres, ServerProcess } from '../support/processes.ts';
import { buildServer } from '../support/build.ts';

/**
 * Backup and the restore drill (docs/OPERATIONS.md), on the database this suite runs on: the
 * embedded PGlite (data-dir dump) or PostgreSQL with DATABASE_URL (pg_dump custom format). Money in
 * a database, `backup`, `restore` into an empty one, the production server started on it: every
 * balance is there, sign-in works, the ledger check is green. A second restore over it is refused
 * without --force; an embedded DATA_DIR in use by a running server is refused.
 */
/** When the people these tests create signed up: a fixed day, no app clock here. */
const SIGNED_UP = new Date('2026-01-01T00:00:00Z');
const work = mkdtempSync(path.join(os.tmpdir(), 'hf-backup-'));
const file = path.join(work, 'harvest.backup');
const ADMIN = { email: `ops.admin.${randomUUID().slice(0, 6)}@example.com`, password: 'backup-admin-password-7' };
const PASSWORD = 'investor-password-1';
const BACKUP_KEY = randomBytes(32).toString('hex');

interface Target {
  env: Record<string, string>;
  open(): Promise<Database>;
  destroy(): Promise<void>;
}

async function target(name: string): Promise<Target> {
  if (isPostgres) {
    // The application's own role (restore refuses a superuser connection: backup-trust.test.ts).
    const scratch = await scratchPostgres({ owner: true });
    return {
      env: { DATABASE_URL: scratch.url, BACKUP_KEY },
      open: async () => openPostgres(scratch.url, 2),
      destroy: scratch.destroy,
    };
  }
  const dataDir = path.join(work, name);
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: '', BACKUP_KEY },
    open: () => openPglite(dataDir),
    destroy: async () => undefined,
  };
}

let source: Target;
let restored: Target;
let server: ServerProcess | undefined;
const investors: { email: string; micro: bigint; rewards: bigint }[] = [];

beforeAll(async () => {
  buildServer();
  source = await target('source');
  restored = await target('restored');
  const db = await source.open();
  try {
    await db.migrate();
    await createAdmin(db.db, { ...ADMIN, createdAt: SIGNED_UP });
    for (const [i, micro] of [12_345_678n, 1_000_000n, 250_000_001n].entries()) {
      const email = `investor${i}.${randomUUID().slice(0, 6)}@example.com`;
      const u = await inTransaction(db.db, (tx) =>
        insertUserWithAccounts(tx, {
          email,
          firstName: 'Back',
          lastName: 'Up',
          phoneCountryCode: '+1',
          phoneNumber: '5551234567',
          password: PASSWORD,
          withdrawalPassword: 'withdraw-1',
          referrerId: null,
          invitationCode: newInvitationCode(),
          createdAt: SIGNED_UP,
        }),
      );
      const rewards = BigInt(i) * 333_333n;
      await inTransaction(db.db, async (tx) => {
        await post(
          tx,
          userTransfer('test_funding', randomUUID(), u.id, { from: 'platform_deposits', to: 'balance', amount: micro }),
        );
        if (rewards > 0n)
          await post(
            tx,
            userTransfer('test_funding', randomUUID(), u.id, {
              from: 'platform_reward_expense',
              to: 'rewards',
              amount: rewards,
            }),
          );
      });
      investors.push({ email, micro, rewards });
    }
  } finally {
    await db.close();
  }
}, 120_000);

afterAll(async () => {
  await server?.kill9();
  await source?.destroy();
  await restored?.destroy();
  rmSync(work, { recursive: true, force: true });
});

describe(`backup and restore (${isPostgres ? 'PostgreSQL: pg_dump custom format' : 'embedded PGlite: data-dir dump'})`, () => {
  it(
    'backs up, restores into an empty database, refuses to restore over it without --force',
    { timeout: 120_000 },
    () => {
      const b = runCli('backup', [file], source.env);
      expect(b.status, b.output).toBe(0);
      expect(b.output).toContain('Backup written');
      expect(statSync(file).mode & 0o077).toBe(0);
      expect(statSync(`${file}.sig`).mode & 0o077).toBe(0);
      if (isPostgres) expect(statSync(file).size).toBeGreaterThan(1000);

      const r = runCli('restore', [file], restored.env);
      expect(r.status, r.output).toBe(0);
      const again = runCli('restore', [file], restored.env);
      expect(again.status).toBe(1);
      expect(again.output).toMatch(/not empty|already holds/);
      expect(again.output).toContain('--force');
      expect(runCli('restore', [], restored.env).status).toBe(2);
    },
  );

  it(
    'the server started on the restored database finds every balance, signs in, and the ledger check is green',
    { timeout: 180_000 },
    async () => {
      server = new ServerProcess(
        await freePort(),
        { ...restored.env, NODE_ENV: 'development', JWT_SECRET: TEST_SECRET, RATE_LIMITS: 'off', LOG_LEVEL: 'warn' },
        { entry: 'dist' },
      );
      await server.start();
      if (!isPostgres) {
        // The embedded database is one process's: a backup cannot run against a DATA_DIR a server uses.
        const busy = runCli('backup', [path.join(work, 'busy.backup')], restored.env);
        expect(busy.status).toBe(1);
        expect(busy.output).toMatch(/in use by process \d+/);
        expect(existsSync(path.join(work, 'busy.backup'))).toBe(false);
      }
      const admin = await postJson(server.baseUrl, '/api/login', ADMIN);
      expect(admin.status, JSON.stringify(admin.data)).toBe(200);
      for (const inv of investors) {
        const login = await postJson(server.baseUrl, '/api/login', { email: inv.email, password: PASSWORD });
        expect(login.status, JSON.stringify(login.data)).toBe(200);
        const res = await fetch(`${server.baseUrl}/api/user/dashboard`, {
          headers: { authorization: `Bearer ${login.data.token}` },
        });
        const { accountSummary } = await res.json();
        expect(accountSummary.balance).toBe(Number(inv.micro) / 1e6);
        expect(accountSummary.availableToWithdraw).toBeCloseTo(Number(inv.micro + inv.rewards) / 1e6, 6);
      }
      await server.stop();
      const check = runCli('ledger-check', [], restored.env);
      expect(check.status, check.output).toBe(0);
      expect(check.output).toContain('no violations');
    },
  );

  it('--force replaces a database that holds data', { timeout: 120_000 }, () => {
    const forced = runCli('restore', [file, '--force'], restored.env);
    expect(forced.status, forced.output).toBe(0);
    const check = runCli('ledger-check', [], restored.env);
    expect(check.status, check.output).toBe(0);
  });
});
