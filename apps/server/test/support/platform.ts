import { until } from './until.ts';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Address, Hex } from 'viem';
import {
  deployToken,
  sendToken,
  startAnvil,
  startRpcProxy,
  type Anvil,
  type AnvilOptions,
  type RpcProxy,
  type Token,
} from '../anvil.ts';
import { freePort } from '../net.ts';
import { startSmtp } from '../smtp.ts';
import { devXpub } from './dev-wallet.ts';
import { scratchPostgres, ServerProcess } from './processes.ts';

/**
 * A whole platform seen from outside, for the system tests of money in: a real anvil chain with a 6-decimal
 * USDC and a look-alike token, an RPC proxy in front of it that can go down or misbehave, a real SMTP server,
 * and server processes started as an operator starts them, all on one database (PGlite in a data dir, or a
 * scratch database on DATABASE_URL's PostgreSQL). Investors sign up through the real e-mail code flow.
 */

export const ADMIN = { email: 'admin@system.example.com', password: 'system-admin-pass-1' };
export const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

export interface Investor {
  email: string;
  token: string;
  address: Address;
}

export interface Platform {
  chain: Anvil;
  proxy: RpcProxy;
  token: Token;
  fake: Token;
  /** An anvil account holding plenty of both tokens. */
  sender: Address;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  xpub: string;
  /** The environment every server process of this platform gets (a start may add to it). */
  env: Record<string, string>;
  start(extra?: Record<string, string>, opts?: { metricsPort?: number }): Promise<ServerProcess>;
  send(to: Address, amount: number, tk?: Token): Promise<Hex>;
  close(): Promise<void>;
}

export async function startPlatform(
  opts: { confirmations?: number; anvil?: AnvilOptions; postgres?: boolean } = {},
): Promise<Platform> {
  const chain = await startAnvil({ chainId: 137, ...opts.anvil });
  const proxy = await startRpcProxy(chain.url);
  const sender = chain.accounts[1] as Address;
  const token = await deployToken(chain);
  const fake = await deployToken(chain, 'USD Coin', 'USDC');
  for (const tk of [token, fake])
    await sendToken(chain, tk, chain.accounts[0] as Address, 'mint', [sender, usdc(10_000_000)]);
  const smtp = await startSmtp();
  // PostgreSQL when the suite runs on it, or when several instances must share the database.
  const pg = process.env.DATABASE_URL || opts.postgres ? await scratchPostgres() : null;
  const xpub = devXpub("m/44'/60'/11'/0");
  const servers: ServerProcess[] = [];
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'off',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'hf-system-')),
    DATABASE_URL: pg?.url ?? '',
    JWT_SECRET: 'system-secret-system-secret-system-secret-0123',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_REQUIRE_2FA: '0',
    SMTP_URL: smtp.url,
    MAIL_OUTBOX_INTERVAL_MS: '200',
    CHAIN_RPC_URL: proxy.url,
    CHAIN_ID: '137',
    USDC_CONTRACTS: token.address,
    DEPOSIT_XPUB: xpub,
    DEPOSIT_CONFIRMATIONS: String(opts.confirmations ?? 3),
    DEPOSIT_CHECK_INTERVAL_MS: '200',
    PAYOUT_ADDRESS: chain.accounts[5] as Address,
    // The shared address (the spec's model) is an account a stranger can pay too: the treasury, say.
    DEPOSIT_ADDRESS: chain.accounts[6] as Address,
  };
  return {
    chain,
    proxy,
    token,
    fake,
    sender,
    smtp,
    xpub,
    env,
    async start(extra = {}, o = {}) {
      const metrics: Record<string, string> = o.metricsPort ? { METRICS_PORT: String(o.metricsPort) } : {};
      const server = new ServerProcess(await freePort(), { ...env, ...metrics, ...extra });
      servers.push(server);
      await server.start();
      return server;
    },
    send: (to, amount, tk = token) => sendToken(chain, tk, sender, 'transfer', [to, usdc(amount)]),
    async close() {
      for (const s of servers) await s.stop().catch(() => undefined);
      await smtp.close();
      await proxy.close();
      await chain.stop();
      await pg?.destroy();
    },
  };
}

/** JSON over HTTP to a running server: status and parsed body. */
export async function http(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<{ status: number; data: any }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : undefined };
}

export async function adminLogin(base: string): Promise<string> {
  const r = await http(base, 'POST', '/api/login', { body: ADMIN });
  if (r.status !== 200) throw new Error(`admin login: ${r.status} ${JSON.stringify(r.data)}`);
  return r.data.token as string;
}

let signups = 0;
/** A new investor through the real sign-up: invitation, e-mailed code, registration; with their deposit address. */
export async function signUp(p: Platform, base: string, adminToken: string): Promise<Investor> {
  const email = `investor${++signups}.${Date.now()}@system.example.com`;
  const code = (await http(base, 'POST', '/api/user/generate-invitation', { token: adminToken })).data.code as string;
  const sent = await http(base, 'POST', '/api/send-code', { body: { email } });
  if (sent.status !== 200) throw new Error(`send-code: ${JSON.stringify(sent.data)}`);
  const verificationCode = await until(() => {
    try {
      return p.smtp.codeFor(email);
    } catch {
      return null;
    }
  }, 15_000);
  const reg = await http(base, 'POST', '/api/register', {
    body: {
      invitationCode: code,
      firstName: 'Ada',
      lastName: 'Investor',
      email,
      phone: '+44 7700900123',
      password: 'investor-pass-1',
      confirmPassword: 'investor-pass-1',
      withdrawalPassword: 'withdraw-pass-1',
      verificationCode,
    },
  });
  if (reg.status !== 200) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.data)}`);
  const token = reg.data.token as string;
  const me = await http(base, 'GET', '/api/user/me', { token });
  return { email, token, address: me.data.user.depositAddress as Address };
}

/** The investor's USDC Balance as the dashboard shows it. */
export async function balanceOf(base: string, token: string): Promise<number> {
  const r = await http(base, 'GET', '/api/user/dashboard', { token });
  if (r.status !== 200) throw new Error(`dashboard: ${r.status} ${JSON.stringify(r.data)}`);
  return r.data.accountSummary.balance as number;
}

export { until };

/**
 * Waits until the chain watcher has finished a pass that saw the chain's current head (its cursor row's head block,
 * written at the end of a pass): whatever that pass would do with the blocks mined so far is done.
 */
export async function watcherCaughtUp(p: Platform, base: string, adminToken: string): Promise<void> {
  const head = Number(await p.chain.publicClient.getBlockNumber({ cacheTime: 0 }));
  await until(
    async () => {
      const s = await http(base, 'GET', '/api/admin/solvency', { token: adminToken });
      return (s.data.watcher?.headBlock ?? -1) >= head ? true : null;
    },
    30_000,
    `a watcher pass that saw block ${head}`,
  );
}

/** One sample of a Prometheus metric from a metrics listener (labels as written, e.g. `{kind="rpc"}`); 0 if absent. */
export async function metric(port: number, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}${labels} `) || (labels === '' && l.startsWith(`${name} `)));
  return line ? Number(line.split(' ').at(-1)) : 0;
}
