import type { Role } from '@harvest/shared/staff';
import type { Said } from '@harvest/shared/said';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { openPostgres, type Database } from '../src/db/client.ts';
import { wrapPglite } from '../src/db/pglite.ts';
import { checkLedger } from '../src/ledger/check.ts';
import { post, userTransfer } from '../src/ledger/ledger.ts';
import { inTransaction } from '../src/db/tx.ts';
import { SettableClock } from '../src/lib/clock.ts';
import type { Metrics } from '../src/lib/metrics.ts';
import { createAdmin } from '../src/bootstrap.ts';
import { insertUserWithAccounts, newInvitationCode } from '../src/modules/users/users.service.ts';
import type { AuthUser } from '../src/plugins/auth.ts';
import { insertSession } from '../src/modules/sessions/sessions.queries.ts';
import { startSmtp } from './smtp.ts';
import { giveBack, templateDatabase } from './support/pglite-pool.ts';
import { withDatabase } from './global-setup.ts';

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';
export const isPostgres = Boolean(process.env.DATABASE_URL);
/** What production requires on top of the test defaults (a chain RPC is never called by these tests). */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  // Production takes only 32+ random bytes (lib/secret-strength.ts).
  JWT_SECRET: randomBytes(32).toString('hex'),
  RATE_LIMITS: 'on',
  CHAIN_RPC_URL: 'http://127.0.0.1:9',
  PAYOUT_ADDRESS: '0x3333333333333333333333333333333333333333',
  PUBLIC_URL: 'https://harvest.example.com',
};

let template: Blob | undefined;
/** The migrated PGlite data dir of the run (global setup), read once per worker. */
function pgliteTemplate(): Blob {
  const file = process.env.HF_PGLITE_TEMPLATE;
  if (!file) throw new Error('global setup did not prepare a PGlite template');
  return (template ??= new Blob([readFileSync(file)]));
}

/**
 * A fresh database for one test file: a copy of the migrated template. On PostgreSQL `url` names it,
 * so a test can open a second instance on the same database. On PGlite its close() hands it back to be reset for
 * the next file (support/pglite-pool.ts); with `closes`, close() stops it for real (a test of a database that is down).
 */
export async function freshDatabase(opts: { closes?: boolean } = {}): Promise<Database & { url?: string }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `hf_test_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${process.env.HF_TEST_PG_TEMPLATE ?? 'hf_test_template'}`);
    await admin.end();
    const db = openPostgres(withDatabase(url, name), 20);
    return {
      ...db,
      url: withDatabase(url, name),
      async close() {
        await db.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const client = await templateDatabase(pgliteTemplate);
  const database = wrapPglite(client);
  return opts.closes ? database : { ...database, close: async () => giveBack(client) };
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  clock: SettableClock;
  database: Database & { url?: string };
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  close(): Promise<void>;
}

/** The configuration every in-process test app starts from: quiet, unthrottled, mail to `smtpUrl`, demo deposits. */
export function testConfig(smtpUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: 'off',
    JWT_SECRET: TEST_SECRET,
    SMTP_URL: smtpUrl,
    DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
    // CI runs the fast suite in another platform zone some days (.ci/run): a test that depends on one sets it.
    PLATFORM_TIMEZONE: process.env.PLATFORM_TIMEZONE ?? 'UTC',
    ...env,
  });
}

/**
 * `logStream` captures the app's log (with its real level and redaction), e.g. to search it for secrets;
 * `metrics` replaces the default registry (e.g. one with process metrics).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: { logStream?: { write(line: string): void }; metrics?: Metrics; databaseCloses?: boolean } = {},
): Promise<TestApp> {
  const smtp = await startSmtp();
  const config = testConfig(smtp.url, env);
  const database = await freshDatabase({ closes: opts.databaseCloses });
  const clock = new SettableClock();
  const secret = config.JWT_SECRET ?? TEST_SECRET;
  const { app, ctx } = await buildApp({
    config,
    database,
    secret,
    clock,
    logStream: opts.logStream,
    metrics: opts.metrics,
  });
  await app.ready();
  return {
    app,
    ctx,
    clock,
    database,
    smtp,
    async close() {
      await app.close();
      await smtp.close();
      await database.close();
    },
  };
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}${++counter}.${randomUUID().slice(0, 8)}@example.com`;

/** A complete signup form for POST /api/register (Ada Lovelace's); `fields` gives its codes and address, or changes any field. */
export function signupBody(
  fields: { invitationCode: string | null | undefined; email: string; verificationCode: string } & Record<
    string,
    unknown
  >,
) {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '+44 7700900123',
    password: 'secret-pass',
    confirmPassword: 'secret-pass',
    withdrawalPassword: 'withdraw-pass',
    ...fields,
  };
}

export interface TestUser {
  user: AuthUser;
  token: string;
  password: string;
  withdrawalPassword: string;
}

/** Creates a user directly (not through signup) and signs a token for it. */
export async function makeUser(
  t: TestApp,
  opts: {
    isAdmin?: boolean;
    /** A staff member's role (isAdmin implied); an administrator without one is an owner. */
    role?: Role;
    referrerId?: string | null;
    email?: string;
    firstName?: string;
    lastName?: string;
  } = {},
): Promise<TestUser> {
  const password = 'password-1';
  const withdrawalPassword = 'withdraw-1';
  const isAdmin = opts.isAdmin || opts.role !== undefined;
  const email = opts.email ?? uniqueEmail(isAdmin ? (opts.role ?? 'admin') : 'user');
  const user = isAdmin
    ? await createAdmin(t.ctx.db, {
        email,
        password,
        createdAt: t.clock.now(),
        ...(opts.role ? { role: opts.role } : {}),
        ...(opts.firstName ? { firstName: opts.firstName } : {}),
        ...(opts.lastName ? { lastName: opts.lastName } : {}),
      })
    : await inTransaction(t.ctx.db, (tx) =>
        insertUserWithAccounts(tx, {
          email,
          firstName: opts.firstName ?? 'Test',
          lastName: opts.lastName ?? 'User',
          phoneCountryCode: '+1',
          phoneNumber: '5551234567',
          password,
          withdrawalPassword,
          referrerId: opts.referrerId ?? null,
          invitationCode: newInvitationCode(),
          createdAt: t.clock.now(),
        }),
      );
  const token = await sessionToken(t, user.id, user.tokenVersion);
  return { user, token, password, withdrawalPassword };
}

/** A session row for the user (as a sign-in makes one) and its token, signed at the test clock's now. */
export async function sessionToken(t: TestApp, userId: string, tokenVersion: number, mfa = false): Promise<string> {
  return t.ctx.tokens.sign({ sub: userId, sid: await newSession(t, userId), tv: tokenVersion, mfa });
}

/** A live session row for the user (as a sign-in makes one): its id. */
export async function newSession(t: TestApp, userId: string): Promise<string> {
  const id = randomUUID();
  const now = t.clock.now();
  await insertSession(t.ctx.db, {
    id,
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + t.ctx.config.JWT_TTL_SECONDS * 1000),
    ip: '127.0.0.1',
    device: 'Test device',
    deviceKey: `test:${id}`,
  });
  return id;
}

/**
 * Credits a user's `balance` (as a deposit would) or `rewards` (as referral rewards would) through
 * the ledger, as test funding.
 */
export async function fund(
  t: TestApp,
  userId: string,
  micro: bigint,
  account: 'balance' | 'rewards' = 'balance',
): Promise<void> {
  const from = account === 'balance' ? 'platform_deposits' : 'platform_reward_expense';
  await inTransaction(t.ctx.db, (tx) =>
    post(tx, {
      ...userTransfer('test_funding', randomUUID(), userId, { from, to: account, amount: micro }),
      createdAt: t.clock.now(),
    }),
  );
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export async function call(
  t: TestApp,
  method: Method,
  url: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse & { data: any }> {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(opts.headers ?? {}) },
    ...(opts.body !== undefined
      ? {
          payload: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
          headers: {
            'content-type': 'application/json',
            ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
            ...(opts.headers ?? {}),
          },
        }
      : {}),
  });
  let data: unknown = undefined;
  try {
    data = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    data = res.body;
  }
  return Object.assign(res, { data });
}

export async function expectLedgerClean(t: TestApp): Promise<void> {
  const violations = await checkLedger(t.ctx.db);
  if (violations.length > 0) throw new Error(`ledger violations: ${JSON.stringify(violations)}`);
}

/** Lines of a CSV body (CRLF separated), without the final empty one. */
export function csvLines(body: string): string[] {
  return body.split('\r\n').filter((l, i, all) => !(l === '' && i === all.length - 1));
}

/** An error answer whose text has values: its English, code, template and values. */
export const saidError = (s: Said, code: string) => ({ error: s.text, code, template: s.template, params: s.params });
