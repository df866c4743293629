import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, expectLedgerClean, type TestApp } from '../helpers.ts';
import {
  buildWorld,
  fingerprint,
  loadRouteTable,
  rawCall,
  tokenFor,
  urlOf,
  validBodies,
  type Route,
  type World,
} from './support.ts';

/**
 * Bad input on every route of the table: always a 4xx, never a 5xx, and no table row differs
 * afterwards (the fingerprint covers every table: users, ledger, deposits, audit, keys...).
 */
/** A well-formed sign-in with a wrong password is not bad input: the account's activity records it. */
const SIGN_IN_FAILURES = ['security_events', 'throttle_counters'];
let t: TestApp;
let w: World;
let routes: Route[];
let bodies: ReturnType<typeof validBodies>;
let before: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  routes = await loadRouteTable(t);
  bodies = validBodies(w);
  before = await fingerprint(t, SIGN_IN_FAILURES);
});
afterAll(async () => {
  // Nothing any probe of this file sent was written.
  expect(await fingerprint(t, SIGN_IN_FAILURES)).toEqual(before);
  await expectLedgerClean(t);
  await t.close();
});

const idsFor = (r: Route) => ({ id: r.path.includes('tiers') ? w.tierId : w.victim.user.id });
const route = (key: string): Route => {
  const r = routes.find((x) => x.key === key);
  if (!r) throw new Error(`route ${key} missing from the table`);
  return r;
};

function expect4xx(res: { statusCode: number; data: unknown }, what: string): void {
  expect(res.statusCode, `${what}: ${JSON.stringify(res.data)?.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${what}: ${JSON.stringify(res.data)?.slice(0, 200)}`).toBeLessThan(500);
}

/** Sends `valid body` with `field` replaced by the raw JSON text `value`. */
async function withRaw(r: Route, field: string, value: string) {
  const base = { ...(bodies[r.key] ?? {}) };
  delete base[field];
  const inner = JSON.stringify(base).slice(1, -1);
  const payload = `{${inner ? `${inner},` : ''}${JSON.stringify(field)}:${value}}`;
  return rawCall(t, r.method, urlOf(r, idsFor(r)), payload, tokenFor(w, r));
}

/** Amount fields: route key, field, and whether 0 is a valid value there (a balance set to zero). */
const AMOUNT_FIELDS: [string, string, boolean][] = [
  ['POST /api/user/invest', 'amount', false],
  ['POST /api/user/process-deposit', 'amount', false],
  ['POST /api/withdrawal/update-failed-deposit', 'amount', false],
  ['POST /api/admin/update-user-balance', 'newBalance', true],
  ['POST /api/admin/tiers', 'amount', false],
  ['POST /api/admin/tiers', 'dailyRate', false],
  ['PUT /api/admin/tiers/{id}', 'amount', false],
  ['PUT /api/admin/tiers/{id}', 'dailyRate', false],
];

const BAD_AMOUNTS = [
  '-1',
  '"-1"',
  '-0.000001',
  '1e-7',
  '"1e-7"',
  '0.0000001',
  '"0.0000001"',
  '"NaN"',
  '"Infinity"',
  '"-Infinity"',
  '1e309',
  '-1e309',
  '"1e309"',
  '1e30',
  '"99999999999999999999999999999"',
  '"abc"',
  '"10 USDC"',
  '"0x10"',
  '" "',
  '""',
  'true',
  'null',
  '[]',
  '[100]',
  '{}',
  '{"$gt":0}',
];

describe('amounts', () => {
  it('every amount field refuses -1, 0, 1e-7, NaN, Infinity, 1e309, huge values and non-numbers with a 4xx', async () => {
    for (const [key, field, zeroOk] of AMOUNT_FIELDS) {
      const r = route(key);
      for (const v of zeroOk ? BAD_AMOUNTS : [...BAD_AMOUNTS, '0', '"0"', '0.0'])
        expect4xx(await withRaw(r, field, v), `${key} ${field}=${v}`);
    }
  });
});

describe('hashes, addresses, ids of the wrong shape', () => {
  const BAD_HEX = [
    '"0x123"',
    `"0x${'g'.repeat(64)}"`,
    `"0x${'a'.repeat(63)}"`,
    `"0x${'a'.repeat(65)}"`,
    `"${'a'.repeat(64)}"`,
    `" 0x${'a'.repeat(62)} "`,
    `"0x${'a'.repeat(40)}"`,
    `"0x${'ａ'.repeat(64)}"`,
    '"0x0000000000000000000000000000000000000000000000000000000000000000\\n; DROP TABLE users"',
    '123',
    'null',
    '["0x1"]',
    '{"$ne":null}',
  ];
  const BAD_ADDRESS = [
    '"0x123"',
    `"0x${'g'.repeat(40)}"`,
    `"0x${'a'.repeat(39)}"`,
    `"0x${'a'.repeat(41)}"`,
    `"${'a'.repeat(40)}"`,
    '"vitalik.eth"',
    '1',
    'null',
    '["0x"]',
    '{}',
  ];
  const BAD_IDS = [
    '"1"',
    '"not-a-uuid"',
    '"00000000-0000-0000-0000-00000000000g"',
    '"\' OR 1=1 --"',
    '1',
    'null',
    '[]',
    '{"$ne":null}',
    `"${'a'.repeat(5000)}"`,
  ];

  it('transaction hashes', async () => {
    for (const key of [
      'POST /api/user/process-deposit',
      'POST /api/withdrawal/update-failed-deposit',
      'POST /api/withdrawal/admin/approve',
    ]) {
      for (const v of BAD_HEX) expect4xx(await withRaw(route(key), 'txHash', v), `${key} txHash=${v}`);
    }
  });

  it('wallet and sending addresses', async () => {
    for (const v of BAD_ADDRESS) {
      expect4xx(await withRaw(route('POST /api/withdrawal/request-all'), 'walletAddress', v), `walletAddress=${v}`);
      expect4xx(await withRaw(route('POST /api/user/process-deposit'), 'fromAddress', v), `fromAddress=${v}`);
    }
  });

  it('ids in bodies and paths', async () => {
    for (const r of routes.filter((x) => x.idFields.length > 0 && x.method !== 'GET')) {
      for (const field of r.idFields.filter((f) => !r.pathParams.includes(f))) {
        for (const v of BAD_IDS) expect4xx(await withRaw(r, field, v), `${r.key} ${field}=${v}`);
      }
    }
    for (const r of routes.filter((x) => x.pathParams.length > 0)) {
      for (const id of [
        '1',
        'not-a-uuid',
        "' OR 1=1 --",
        '..%2F..%2Fetc%2Fpasswd',
        '%00',
        'a'.repeat(199),
        '%E2%80%AE',
      ]) {
        const url = r.path.replace(/\{[^}]+\}/g, id);
        const body = r.method === 'GET' ? {} : { body: bodies[r.key] ?? {} };
        expect4xx(await call(t, r.method, url, { token: tokenFor(w, r), ...body }), `${r.key} ${id}`);
      }
    }
  });

  it('strings where numbers belong and numbers where strings belong, on every body field of every route', async () => {
    for (const r of routes.filter((x) => x.body?.properties)) {
      for (const [field, schema] of Object.entries(r.body?.properties ?? {})) {
        const wrong =
          schema.type === 'string'
            ? ['12345', 'true', '["x"]', '{"a":"b"}']
            : ['"twelve"', '"1; DROP TABLE users"', '["1"]', '{"a":1}'];
        for (const v of wrong) {
          const res = await withRaw(r, field, v);
          expect(res.statusCode, `${r.key} ${field}=${v}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
          // Everything but the harmless login/register/send-code/2fa refusals is a 4xx here too.
          if (!(r.isPublic && res.statusCode === 200)) expect4xx(res, `${r.key} ${field}=${v}`);
        }
      }
    }
  });
});

describe('characters the database cannot store', () => {
  it('a NUL character in any body field, query parameter or path of any route is a 4xx (found by the fuzzer: login answered 500)', async () => {
    for (const r of routes) {
      for (const field of Object.keys(r.body?.properties ?? {})) {
        for (const v of ['"\\u0000"', '"a\\u0000b"', '"probe\\u0000@example.com"'])
          expect4xx(await withRaw(r, field, v), `${r.key} ${field}=${v}`);
      }
      for (const p of r.params.filter((x) => x.in === 'query')) {
        expect4xx(
          await call(t, 'GET', `${urlOf(r, idsFor(r))}?${p.name}=%00`, { token: tokenFor(w, r) }),
          `${r.key}?${p.name}=%00`,
        );
      }
    }
    expect4xx(await call(t, 'GET', '/api/admin/users?search=a%00b', { token: w.admin.token }), 'search NUL');
  });
});

describe('payload tricks', () => {
  it('__proto__ payloads are refused on every POST/PUT', async () => {
    for (const r of routes.filter((x) => x.method !== 'GET')) {
      const inner = JSON.stringify(bodies[r.key] ?? {}).slice(1, -1);
      for (const payload of [
        `{"__proto__":{"isAdmin":true}${inner ? `,${inner}` : ''}}`,
        `{${inner ? `${inner},` : ''}"__proto__":{"isAdmin":true}}`,
        `{"a":{"__proto__":{"isAdmin":true}}${inner ? `,${inner}` : ''}}`,
        `[{"__proto__":{"isAdmin":true}}]`,
      ]) {
        expect4xx(await rawCall(t, r.method, urlOf(r, idsFor(r)), payload, tokenFor(w, r)), `${r.key} ${payload}`);
      }
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('oversized bodies get 413 on every POST/PUT, before authentication matters', async () => {
    const big = JSON.stringify({ firstName: 'x'.repeat(70 * 1024) });
    for (const r of routes.filter((x) => x.method !== 'GET')) {
      const res = await rawCall(t, r.method, urlOf(r, idsFor(r)), big, tokenFor(w, r));
      expect(res.statusCode, r.key).toBe(413);
    }
  });

  it('malformed JSON, wrong content types, deep nesting and odd encodings: 4xx', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const deepObj = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    for (const r of routes.filter((x) => x.method !== 'GET')) {
      const url = urlOf(r, idsFor(r));
      for (const payload of ['{', '{"a":}', 'nul', '"just a string"', '12', 'true', deep, deepObj, '{"a":"\\ud800"}']) {
        expect4xx(await rawCall(t, r.method, url, payload, tokenFor(w, r)), `${r.key} ${payload.slice(0, 20)}`);
      }
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
      ]) {
        const res = await rawCall(t, r.method, url, 'isAdmin=true&a=1', tokenFor(w, r), { 'content-type': type });
        expect4xx(res, `${r.key} ${type}`);
      }
    }
  });
});

describe('parameter pollution', () => {
  it('every query parameter of every GET, duplicated or as an array or object, is a 4xx', async () => {
    const gets = routes.filter((r) => r.method === 'GET' && r.params.some((p) => p.in === 'query'));
    expect(gets.map((r) => r.key)).toContain('GET /api/user/admin/analytics');
    for (const r of gets) {
      const url = urlOf(r, idsFor(r));
      for (const p of r.params.filter((x) => x.in === 'query')) {
        for (const q of [`${p.name}=7&${p.name}=90`, `${p.name}[]=7`, `${p.name}[a]=7`, `${p.name}=1&${p.name}=`]) {
          const res = await call(t, 'GET', `${url}?${q}`, { token: tokenFor(w, r) });
          expect4xx(res, `${r.key}?${q}`);
        }
      }
      // Unknown query keys are refused too (strict query schemas).
      expect4xx(await call(t, 'GET', `${url}?isAdmin=true`, { token: tokenFor(w, r) }), `${r.key}?isAdmin`);
    }
  });

  it('the analytics period: ?period=7&period=90 and non-numbers are refused, a single value works', async () => {
    const token = w.admin.token;
    expect((await call(t, 'GET', '/api/user/admin/analytics?period=7', { token })).statusCode).toBe(200);
    for (const q of [
      'period=7&period=90',
      'period=-1',
      'period=0',
      'period=1e309',
      'period=NaN',
      'period=Infinity',
      'period=abc',
      'period=99999999',
    ]) {
      expect4xx(await call(t, 'GET', `/api/user/admin/analytics?${q}`, { token }), q);
    }
  });

  it('paging parameters at their edges', async () => {
    const token = w.admin.token;
    for (const q of [
      'page=0',
      'page=-1',
      'page=1e309',
      'page=NaN',
      'pageSize=0',
      'pageSize=100000',
      'pageSize=1.5',
      'page=99999999999',
    ]) {
      expect4xx(await call(t, 'GET', `/api/admin/users?${q}`, { token }), q);
    }
  });
});
