/**
 * Makes test/fixtures/pre-baseline.tar.br: an embedded database (PGlite data dir) created and filled by the code
 * of the last commit that still had the 29 migrations the baseline replaced (docs/decisions/0082). The upgrade
 * test (src/db/baseline-upgrade.test.ts) loads it and runs today's migrate on it.
 *
 *   npx tsx apps/server/scripts/upgrade-fixture.ts [--from <git revision>]
 *
 * With DATABASE_URL it fills that (empty) PostgreSQL database instead and writes no fixture: the same upgrade is
 * then checked by hand on PostgreSQL (pg_dump it, restore the dump into a new database, start today's code on it).
 *
 * It checks that revision out in a temporary git worktree (sharing this checkout's node_modules), copies itself
 * there and runs with --fill inside it: every import below then is that revision's code, so the fixture stays a
 * database made by the old code whatever today's services do. The data goes in through the API (sign-in,
 * deposits and their approval, investments with referral rewards, completed cycles, a balance update,
 * Withdraw All approved, rejected and pending) on a clock set to November 2026.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

/** The last commit of main with migrations 0000_init .. 0028_money_out. */
const PRE_BASELINE = '27350cab35f9316a97c9ed89755d4a2f67096851';
const SCRIPT = fileURLToPath(import.meta.url);
const SERVER = path.resolve(path.dirname(SCRIPT), '..');
const OUT = path.join(SERVER, 'test/fixtures/pre-baseline.tar.br');

/** Every user's password in the fixture (the upgrade test signs in with it). */
const FIXTURE_PASSWORD = 'fixture-pass-1';
const FIXTURE_WITHDRAWAL_PASSWORD = 'fixture-withdraw-1';

const args = process.argv.slice(2);
if (args[0] === '--fill') await fill(args[1] ?? OUT);
else checkoutAndFill(args[0] === '--from' && args[1] ? args[1] : PRE_BASELINE);

function checkoutAndFill(rev: string): void {
  const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: SERVER, encoding: 'utf8' }).trim();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hf-pre-baseline-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, rev], { cwd: root, stdio: 'inherit' });
  try {
    for (const nm of ['node_modules', 'apps/server/node_modules'])
      if (existsSync(path.join(root, nm)) && !existsSync(path.join(dir, nm)))
        symlinkSync(path.join(root, nm), path.join(dir, nm));
    const copy = path.join(dir, 'apps/server/scripts/upgrade-fixture.ts');
    copyFileSync(SCRIPT, copy);
    execFileSync(path.join(root, 'node_modules/.bin/tsx'), [copy, '--fill', OUT], { cwd: dir, stdio: 'inherit' });
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, stdio: 'inherit' });
  }
}

/**
 * A module of the revision being run. Its API is that revision's, not today's: untyped here, so today's
 * typecheck does not judge old code.
 */
function old(specifier: string): Promise<any> {
  return import(new URL(specifier, import.meta.url).href);
}

async function fill(out: string): Promise<void> {
  // The revision's own code (relative to the copy of this file in its worktree).
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLITE_EXTENSIONS, wrapPglite } = await old('../src/db/pglite.ts');
  const { openPostgres } = await old('../src/db/client.ts');
  const { rawRows } = await old('../src/db/raw.ts');
  const { sql } = await import('drizzle-orm');
  const { buildApp } = await old('../src/app.ts');
  const { loadConfig } = await old('../src/config.ts');
  const { SettableClock } = await old('../src/lib/clock.ts');
  const { inTransaction } = await old('../src/db/tx.ts');
  const { createAdmin } = await old('../src/bootstrap.ts');
  const { insertUserWithAccounts, newInvitationCode } = await old('../src/modules/users/users.service.ts');
  const { seedTiers } = await old('../src/modules/tiers/tiers.seed.ts');
  const { checkLedger } = await old('../src/ledger/check.ts');
  const { CYCLE_MS } = await import('@harvest/shared/constants');

  const url = process.env.DATABASE_URL;
  const client = url ? null : await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const database = client ? wrapPglite(client) : openPostgres(url ?? '', 2);
  await database.migrate();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hf-pre-baseline-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    JWT_SECRET: 'pre-baseline-fixture-secret-0123456789abcdef',
    DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
    PLATFORM_TIMEZONE: 'UTC',
    DATA_DIR: dataDir,
  });
  const clock = new SettableClock();
  clock.set(new Date('2026-11-02T09:00:00Z')); // a Monday: investments and cycles need a weekday
  const { app, ctx } = await buildApp({ config, database, secret: config.JWT_SECRET ?? '', clock });
  await app.ready();

  let n = 0;
  const hex = (len: number) => (++n).toString(16).padStart(len, 'a');
  async function api(method: 'GET' | 'POST', url: string, token?: string, body?: unknown) {
    const res = await app.inject({
      method,
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': `fixture-${++n}` }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  }
  const signIn = async (email: string, password: string): Promise<string> =>
    (await api('POST', '/api/login', undefined, { email, password })).token;
  const later = (ms: number) => clock.set(new Date(clock.now().getTime() + ms));

  await seedTiers(ctx.db);
  await createAdmin(ctx.db, { email: 'admin@harvest.example', password: FIXTURE_PASSWORD });
  let admin = await signIn('admin@harvest.example', FIXTURE_PASSWORD);

  // A referral chain three deep, so an investment pays rewards on three levels.
  const names = ['alice', 'bob', 'carol', 'dave'];
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  let referrerId: string | null = null;
  for (const name of names) {
    const user = await inTransaction(ctx.db, (tx: unknown) =>
      insertUserWithAccounts(tx, {
        email: `${name}@example.com`,
        firstName: name[0]!.toUpperCase() + name.slice(1),
        lastName: 'Fixture',
        phoneCountryCode: '+44',
        phoneNumber: '7700900123',
        password: FIXTURE_PASSWORD,
        withdrawalPassword: FIXTURE_WITHDRAWAL_PASSWORD,
        referrerId,
        invitationCode: newInvitationCode(),
      }),
    );
    ids[name] = user.id;
    referrerId = user.id;
    later(60_000);
  }

  // Sessions last 12 hours: everyone signs in again each day.
  const signInAll = async () => {
    admin = await signIn('admin@harvest.example', FIXTURE_PASSWORD);
    for (const name of names) tokens[name] = await signIn(`${name}@example.com`, FIXTURE_PASSWORD);
  };
  await signInAll();
  const deposit = async (name: string, amount: string, approve = true) => {
    const body = { txHash: `0x${hex(64)}`, amount, fromAddress: `0x${hex(40)}` };
    const { deposit } = await api('POST', '/api/user/process-deposit', tokens[name], body);
    if (approve) await api('POST', '/api/admin/process-deposit', admin, { depositId: deposit._id });
  };
  await deposit('alice', '1500');
  await deposit('bob', '700.5');
  await deposit('carol', '120');
  await deposit('dave', '1000');
  await deposit('dave', '42.25', false); // stays pending
  await api('POST', '/api/admin/update-user-balance', admin, { userId: ids.carol, newBalance: '150', note: 'fixture' });

  const invest = async (name: string, amount: number): Promise<string> =>
    (await api('POST', '/api/user/invest', tokens[name], { amount })).investment._id;
  const aliceGold = await invest('alice', 1000);
  const bobSilver = await invest('bob', 500);
  await invest('carol', 100);
  const daveGold = await invest('dave', 1000); // rewards for carol, bob and alice

  // Two completed cycles for alice's and dave's investments (one a day), one for bob's.
  for (const day of [0, 1]) {
    if (day > 0) await signInAll();
    const running = day === 0 ? [aliceGold, bobSilver, daveGold] : [aliceGold, daveGold];
    const owner = (id: string) => (id === aliceGold ? 'alice' : id === bobSilver ? 'bob' : 'dave');
    for (const id of running) await api('POST', '/api/user/start-earning', tokens[owner(id)], { investmentId: id });
    later(CYCLE_MS + 60_000);
    for (const id of running) await api('POST', '/api/user/complete-cycle', tokens[owner(id)], { investmentId: id });
    later(24 * 3600_000 - CYCLE_MS);
  }

  // Withdraw All: alice's approved, bob's rejected, dave's pending.
  await signInAll();
  for (const name of ['alice', 'bob', 'dave'])
    await api('POST', '/api/withdrawal/request-all', tokens[name], {
      walletAddress: `0x${hex(40)}`,
      withdrawalPassword: FIXTURE_WITHDRAWAL_PASSWORD,
    });
  const pending = async (name: string): Promise<string[]> =>
    (
      (await rawRows(ctx.db, sql`SELECT id FROM withdrawals WHERE user_id = ${ids[name]} AND status = 'pending'`)) as {
        id: string;
      }[]
    ).map((r) => r.id);
  for (const id of await pending('alice'))
    await api('POST', '/api/withdrawal/admin/approve', admin, { withdrawalId: id, txHash: `0x${hex(64)}` });
  for (const id of await pending('bob'))
    await api('POST', '/api/withdrawal/admin/reject', admin, { withdrawalId: id, notes: 'fixture' });

  const violations = await checkLedger(ctx.db);
  if (violations.length > 0) throw new Error(`the fixture's ledger is not clean: ${JSON.stringify(violations)}`);
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (!client) {
    await database.close();
    console.log(`filled ${url}`);
    return;
  }
  await client.exec('CHECKPOINT');
  const tar = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
  // Brotli with a 16 MB window finds the three databases' identical catalogs: a third of gzip's size.
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN } = zlib.constants;
  writeFileSync(
    out,
    zlib.brotliCompressSync(tar, { params: { [BROTLI_PARAM_QUALITY]: 11, [BROTLI_PARAM_LGWIN]: 24 } }),
  );
  await client.close();
  console.log(`wrote ${out}`);
}
