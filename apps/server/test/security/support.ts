/**
 * Shared pieces of the security probes: the route table read from the app's own OpenAPI
 * document (GET /api/docs), a fingerprint of every table to prove "nothing changed", and a
 * tiny structural JSON-schema checker for response bodies.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rawRows } from '../../src/db/raw.ts';
import { seedTiers } from '../../src/modules/tiers/tiers.seed.ts';
import { call, fund, makeUser, type TestApp, type TestUser } from '../helpers.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  nullable?: boolean;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}
export interface Param {
  in: 'path' | 'query';
  name: string;
  required: boolean;
  schema: JsonSchema;
}
export interface Route {
  method: Method;
  /** OpenAPI form, e.g. /api/user/admin/toggle-block/{id} */
  path: string;
  key: string;
  params: Param[];
  pathParams: string[];
  body?: JsonSchema;
  /** The 2xx response schema (JSON). */
  response?: JsonSchema;
  responseStatus: number;
  isAdmin: boolean;
  isPublic: boolean;
  /** Takes an id: a path parameter, or a body field named id / *Id. */
  idFields: string[];
}

/**
 * The calls without a session: sign-up, sign-in, "this wasn't me" (the e-mailed link's secret is the credential),
 * and the published proof of reserves (anyone may read it).
 * The calls without a session: sign-up, sign-in (with a password or a passkey), and "this wasn't me" (the e-mailed
 * link's secret is the credential).
 * The calls without a session: sign-up, sign-in, "this wasn't me" and a staff invitation's first password (the
 * e-mailed link's secret is the credential).
 */
export const PUBLIC_PATHS = [
  '/api/login',
  '/api/register',
  '/api/send-code',
  '/api/security/not-me',
  '/api/security/link-preview',
  '/api/proof-of-reserves',
  '/api/proof-of-reserves/history',
  '/api/proof-of-reserves/{id}',
  '/api/proof-of-reserves/{id}/reserves',
  '/api/passkey-login/options',
  '/api/passkey-login',
  '/api/security/staff-invite',
];

const asMethod = (m: string): Method => {
  const u = m.toUpperCase();
  if (u === 'GET' || u === 'POST' || u === 'PUT' || u === 'DELETE' || u === 'PATCH') return u;
  throw new Error(`unexpected method ${m}`);
};

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

/** Every API call, read from GET /api/docs (the document generated from the Zod schemas). */
export async function loadRouteTable(t: TestApp): Promise<Route[]> {
  const res = await call(t, 'GET', '/api/docs');
  expect(res.statusCode).toBe(200);
  const paths: Record<string, Record<string, OpenApiOperation>> = res.data.paths;
  const out: Route[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    if (!path.startsWith('/api/') || path.includes('__test__')) continue;
    for (const [m, op] of Object.entries(ops)) {
      const method = asMethod(m);
      const params: Param[] = (op.parameters ?? [])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((p) => ({
          in: p.in === 'path' ? 'path' : 'query',
          name: p.name,
          required: Boolean(p.required),
          schema: p.schema ?? {},
        }));
      const body = op.requestBody?.content?.['application/json']?.schema;
      const okStatus = Object.keys(op.responses ?? {}).find((s) => s.startsWith('2')) ?? '200';
      const response = op.responses?.[okStatus]?.content?.['application/json']?.schema;
      const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
      const bodyIds = Object.keys(body?.properties ?? {}).filter((k) => k === 'id' || /Id$/.test(k));
      out.push({
        method,
        path,
        key: `${method} ${path}`,
        params,
        pathParams,
        ...(body ? { body } : {}),
        ...(response ? { response } : {}),
        responseStatus: Number(okStatus),
        isAdmin: path.includes('admin'),
        isPublic: PUBLIC_PATHS.includes(path),
        idFields: [...pathParams, ...bodyIds],
      });
    }
  }
  return out;
}

/** The concrete URL of a route, path parameters filled in (a fresh UUID unless given). */
export function urlOf(route: Route, values: Record<string, string> = {}, query = ''): string {
  const url = route.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    encodeURIComponent(values[name] ?? randomUUID()),
  );
  return query ? `${url}?${query}` : url;
}

/** Per table: row count and a hash of every row, so any insert, update or delete shows. */
export async function fingerprint(t: TestApp, except: string[] = []): Promise<Record<string, string>> {
  const tables = await rawRows<{ name: string }>(
    t.ctx.db,
    sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    if (except.includes(name)) continue;
    // A session's last-seen time moves with the clock (on a request at most once a minute), not with what was sent:
    // a run longer than a minute would otherwise count it as written.
    const text = name === 'sessions' ? sql`(row_to_json(x)::jsonb - 'last_seen_at')::text` : sql`row_to_json(x)::text`;
    const [row] = await rawRows<{ n: number | string; h: string | null }>(
      t.ctx.db,
      sql`SELECT count(*) AS n, md5(coalesce(string_agg(${text}, '|' ORDER BY ${text}), '')) AS h FROM ${sql.identifier(name)} x`,
    );
    out[name] = `${String(row?.n)}:${row?.h ?? ''}`;
  }
  return out;
}

/** Every problem of `value` against the (OpenAPI 3.0 subset) schema; [] when it conforms. */
export function schemaErrors(schema: JsonSchema | undefined, value: unknown, at = '$'): string[] {
  if (!schema) return [];
  if (value === null) return schema.nullable || schema.type === 'null' ? [] : [`${at}: null not allowed`];
  if (schema.anyOf) {
    const results = schema.anyOf.map((s) => schemaErrors(s, value, at));
    return results.some((r) => r.length === 0)
      ? []
      : [`${at}: matches none of anyOf (${results.map((r) => r[0]).join('; ')})`];
  }
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} not in enum`];
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((ty) => typeMatches(ty, value)))
    return [`${at}: expected ${types.join('|')}, got ${JSON.stringify(value)?.slice(0, 80)}`];
  const errors: string[] = [];
  if (typeof value === 'string' && schema.pattern && !new RegExp(schema.pattern, 'u').test(value))
    errors.push(`${at}: does not match ${schema.pattern}`);
  if (Array.isArray(value) && schema.items)
    value.forEach((v, i) => errors.push(...schemaErrors(schema.items, v, `${at}[${i}]`)));
  if (isRecord(value) && (schema.properties || schema.required)) {
    for (const k of schema.required ?? []) if (!(k in value)) errors.push(`${at}.${k}: required`);
    for (const [k, v] of Object.entries(value)) {
      const sub = schema.properties?.[k];
      if (sub) errors.push(...schemaErrors(sub, v, `${at}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${at}.${k}: not in schema`);
    }
  }
  return errors;
}

function typeMatches(type: string, v: unknown): boolean {
  switch (type) {
    case 'object':
      return isRecord(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    default:
      return true;
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sends a raw (already serialised) JSON body. */
export async function rawCall(
  t: TestApp,
  method: Method,
  url: string,
  payload: string,
  token?: string,
  headers: Record<string, string> = {},
) {
  const res = await t.app.inject({
    method,
    url,
    payload,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  let data: unknown;
  try {
    data = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    data = res.body;
  }
  return Object.assign(res, { data });
}

/** The spec's calls (docs/product-spec.md section 7), under /api, in OpenAPI path form. */
export const SPEC_CALLS = [
  'POST /api/login',
  'POST /api/register',
  'POST /api/send-code',
  'GET /api/user/me',
  'PUT /api/user/profile',
  'PUT /api/user/admin/update-email',
  'GET /api/user/dashboard',
  'GET /api/user/investment-tiers',
  'POST /api/user/invest',
  'POST /api/user/start-earning',
  'POST /api/user/complete-cycle',
  'POST /api/user/generate-invitation',
  'GET /api/user/referrals',
  'GET /api/user/referral-tree',
  'GET /api/user/deposit-history',
  'POST /api/user/process-deposit',
  'GET /api/withdrawal/failed-deposits',
  'POST /api/withdrawal/update-failed-deposit',
  'GET /api/withdrawal/my-withdrawals',
  'POST /api/withdrawal/request-all',
  'GET /api/withdrawal/admin/pending',
  'GET /api/withdrawal/admin/all',
  'POST /api/withdrawal/admin/approve',
  'POST /api/withdrawal/admin/reject',
  'GET /api/admin/dashboard',
  'GET /api/admin/users',
  'GET /api/admin/deposits',
  'POST /api/admin/process-deposit',
  'POST /api/admin/update-user-balance',
  'POST /api/user/admin/toggle-block/{id}',
  'GET /api/user/admin/analytics',
] as const;

export const WALLET = '0x2222222222222222222222222222222222222222';
export const hash64 = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/**
 * A small platform to probe: an admin, an investor (the caller, "attacker") and a victim, each
 * with a balance, an investment, a failed and a pending deposit, and the victim with a pending
 * withdrawal. The clock is set to a Wednesday (investing is weekday-only).
 */
export interface World {
  admin: TestUser;
  investor: TestUser;
  victim: TestUser;
  invitationCode: string;
  tierId: string;
  own: { investmentId: string; failedDepositId: string; pendingDepositId: string };
  theirs: { investmentId: string; failedDepositId: string; pendingDepositId: string; withdrawalId: string };
}

export async function buildWorld(t: TestApp): Promise<World> {
  t.clock.set(new Date('2026-01-14T10:00:00Z'));
  await seedTiers(t.ctx.db, t.clock.now());
  const admin = await makeUser(t, { isAdmin: true });
  const investor = await makeUser(t);
  const victim = await makeUser(t);
  const tiers = await call(t, 'GET', '/api/user/investment-tiers', { token: investor.token });
  expect(tiers.statusCode).toBe(200);
  const tier = tiers.data.tiers[0];
  const invitation = await call(t, 'POST', '/api/user/generate-invitation', { token: investor.token, body: {} });
  expect(invitation.statusCode).toBe(200);
  let n = 1;
  const setup = async (u: TestUser) => {
    await fund(t, u.user.id, 1_000_000_000n);
    const inv = await call(t, 'POST', '/api/user/invest', { token: u.token, body: { amount: tier.amount } });
    expect(inv.statusCode, JSON.stringify(inv.data)).toBe(200);
    const dash = await call(t, 'GET', '/api/user/dashboard', { token: u.token });
    const investmentId: string = dash.data.activeInvestments[0]._id;
    const failed = await call(t, 'POST', '/api/user/process-deposit', {
      token: u.token,
      body: { txHash: hash64(n++), amount: 3, fromAddress: WALLET },
    });
    expect(failed.statusCode, JSON.stringify(failed.data)).toBe(200);
    const failedDepositId: string = failed.data.deposit._id;
    await rawRows(
      t.ctx.db,
      sql`UPDATE deposits SET status = 'failed', failure_reason = 'Wrong recipient' WHERE id = ${failedDepositId}::uuid RETURNING id`,
    );
    const pending = await call(t, 'POST', '/api/user/process-deposit', {
      token: u.token,
      body: { txHash: hash64(n++), amount: 4, fromAddress: WALLET },
    });
    expect(pending.statusCode, JSON.stringify(pending.data)).toBe(200);
    return { investmentId, failedDepositId, pendingDepositId: pending.data.deposit._id as string };
  };
  const own = await setup(investor);
  const theirs = await setup(victim);
  const w = await call(t, 'POST', '/api/withdrawal/request-all', {
    token: victim.token,
    body: { walletAddress: WALLET, withdrawalPassword: victim.withdrawalPassword },
  });
  expect(w.statusCode, JSON.stringify(w.data)).toBe(200);
  const mine = await call(t, 'GET', '/api/withdrawal/my-withdrawals', { token: victim.token });
  const withdrawalId: string = mine.data.withdrawals[0]._id;
  return {
    admin,
    investor,
    victim,
    invitationCode: invitation.data.code,
    tierId: tier._id,
    own,
    theirs: { ...theirs, withdrawalId },
  };
}

/** WebAuthn answers of the right shape that no authenticator made. */
const PROBE_REGISTRATION = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
  clientExtensionResults: {},
};
const PROBE_ASSERTION = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
  clientExtensionResults: {},
};

/**
 * A body the route accepts as to its shape (the calls may still be refused by a rule), for every
 * POST/PUT in the table. `undefined`: the route takes no body. A route missing here fails the
 * probes that use it, so a new route is not silently skipped.
 */
export function validBodies(w: World): Record<string, Record<string, unknown> | undefined> {
  return {
    'POST /api/send-code': { email: 'probe@example.com' },
    'POST /api/register': {
      invitationCode: w.invitationCode,
      firstName: 'Pro',
      lastName: 'Be',
      email: 'probe-register@example.com',
      phone: '+1 5551234567',
      password: 'secret-pass',
      confirmPassword: 'secret-pass',
      withdrawalPassword: 'other-pass',
      verificationCode: '123456',
    },
    'POST /api/login': { email: w.investor.user.email, password: 'wrong-password' },
    'PUT /api/user/profile': { firstName: 'New', lastName: 'Name' },
    'PUT /api/user/preferences': { locale: 'ru' },
    'PUT /api/user/withdrawal-password': {
      currentWithdrawalPassword: 'wrong-password',
      newWithdrawalPassword: 'probe-withdraw-9',
      confirmWithdrawalPassword: 'probe-withdraw-9',
    },
    'PUT /api/user/admin/update-email': { newEmail: 'new-admin@example.com', password: 'password-1' },
    'POST /api/user/generate-invitation': undefined,
    'POST /api/user/logout': undefined,
    'POST /api/user/admin/toggle-block/{id}': undefined,
    'POST /api/user/2fa/setup': { password: 'password-1' },
    'POST /api/user/2fa/enable': { password: 'password-1', code: '123456' },
    'POST /api/user/2fa/disable': { password: 'password-1', code: '123456' },
    'POST /api/admin/tiers': { name: 'Probe', amount: 10, dailyRate: 1 },
    'PUT /api/admin/tiers/{id}': { name: 'Renamed' },
    'POST /api/user/invest': { amount: 100 },
    'POST /api/user/start-earning': { investmentId: w.own.investmentId },
    'POST /api/user/complete-cycle': { investmentId: w.own.investmentId },
    'POST /api/withdrawal/request-all': { walletAddress: WALLET, withdrawalPassword: 'wrong-password' },
    'POST /api/withdrawal/admin/approve': { withdrawalId: w.theirs.withdrawalId, txHash: hash64(999) },
    'POST /api/withdrawal/admin/reject': { withdrawalId: w.theirs.withdrawalId },
    'POST /api/user/process-deposit': { txHash: hash64(1000), amount: 5, fromAddress: WALLET },
    'POST /api/withdrawal/update-failed-deposit': { depositId: w.own.failedDepositId, txHash: hash64(1001), amount: 5 },
    'POST /api/admin/process-deposit': { depositId: w.theirs.pendingDepositId },
    'POST /api/admin/reject-deposit': { depositId: w.theirs.pendingDepositId, reason: 'Probe rejection' },
    'POST /api/withdrawal/dismiss-failed-deposit': { depositId: w.own.failedDepositId },
    'POST /api/admin/update-user-balance': { userId: w.victim.user.id, newBalance: 5 },
    'POST /api/withdrawal/admin/batches': { withdrawalIds: [w.theirs.withdrawalId], grouped: true },
    'POST /api/withdrawal/admin/batches/{id}/cancel': undefined,
    'POST /api/withdrawal/admin/payouts/{id}/assign': { withdrawalIds: [w.theirs.withdrawalId] },
    'POST /api/withdrawal/admin/payouts/{id}/dismiss': undefined,
    'POST /api/admin/solvency/refresh': undefined,
    'POST /api/admin/solvency/reconcile': undefined,
    'POST /api/admin/chain-alarms/{id}/acknowledge': undefined,
    'POST /api/user/withdrawal-addresses': { label: 'Probe', address: WALLET, password: 'wrong-password' },
    'POST /api/user/withdrawal-addresses/confirm': { token: 'probe-token-that-is-not-a-link-secret' },
    'PUT /api/user/withdrawal-lock': { enabled: false, password: 'wrong-password' },
    'POST /api/user/withdrawal-lock/confirm': { token: 'probe-token-that-is-not-a-link-secret' },
    'POST /api/user/sessions/revoke-others': undefined,
    'DELETE /api/user/sessions/{id}': undefined,
    'DELETE /api/user/withdrawal-addresses/{id}': undefined,
    'POST /api/security/not-me': { token: 'probe-token-that-is-not-a-link-secret' },
    'POST /api/security/link-preview': { page: 'not-me', token: 'probe-token-that-is-not-a-link-secret' },
    'POST /api/admin/users/{id}/revoke-sessions': undefined,
    'PUT /api/admin/users/{id}/withdrawals-frozen': { frozen: true },
    'PUT /api/admin/withdrawal-policy': { perInvestorDay: 1000, perInvestorMonth: null, platformDay: null },
    'POST /api/admin/proof-of-reserves/snapshots': undefined,
    'POST /api/admin/proof-of-reserves/{id}/signatures': { signatures: [] },
    'POST /api/user/passkeys/registration-options': { password: 'wrong-password' },
    'POST /api/user/passkeys': { name: 'Probe', response: PROBE_REGISTRATION },
    'POST /api/user/passkeys/{id}/remove': { password: 'wrong-password' },
    'POST /api/passkey-login/options': undefined,
    'POST /api/passkey-login': { response: PROBE_ASSERTION },
    'POST /api/user/step-up': { purpose: 'lock_off' },
    'POST /api/user/withdrawal-addresses/proof-message': { address: WALLET },
    'POST /api/admin/proposals/{id}/approve': undefined,
    'POST /api/admin/proposals/{id}/reject': undefined,
    'POST /api/admin/staff/invite': {
      email: 'probe-staff@example.com',
      firstName: 'Pro',
      lastName: 'Be',
      role: 'auditor',
    },
    'PUT /api/admin/staff/{id}/role': { role: 'auditor' },
    'POST /api/security/staff-invite': {
      token: 'probe-token-that-is-not-a-link-secret',
      password: 'probe-pass-1',
      confirmPassword: 'probe-pass-1',
    },
  };
}

/** The token a route is called with in the probes: the admin's for admin routes, else the investor's. */
export const tokenFor = (w: World, r: Route): string | undefined =>
  r.isPublic ? undefined : r.isAdmin ? w.admin.token : w.investor.token;
