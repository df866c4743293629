import fc from 'fast-check';
import { ERROR_STATUS } from '@harvest/shared/errors';
import { errorResponse } from '@harvest/shared/schemas/common';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { createTestApp, expectLedgerClean, type TestApp, type TestUser, sessionToken } from '../helpers.ts';
import {
  buildWorld,
  hash64,
  validBodies,
  loadRouteTable,
  rawCall,
  schemaErrors,
  WALLET,
  type JsonSchema,
  type Method,
  type Route,
  type World,
} from './support.ts';

/**
 * Property-based fuzzing over the route table (GET /api/docs): bodies derived from each route's
 * request schema (valid-ish values) and hostile ones (anything, huge, deeply nested, unicode,
 * numbers at the edges), sent with an investor's and an admin's token. No answer is ever a 5xx,
 * every 2xx body matches the route's response schema, every 4xx is `{ error: text, code }` with the status its code stands for, and the
 * ledger invariants hold at the end. FUZZ_RUNS sets the runs per route and caller (default 25);
 * a failure prints fast-check's seed and counterexample for replay (FUZZ_SEED).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

let t: TestApp;
let w: World;
let routes: Route[];

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
  routes = await loadRouteTable(t);
});
afterAll(async () => {
  await expectLedgerClean(t);
  await t.close();
});

/** A token for the user as it is now (a fuzzed logout or password change must not end the run). */
async function freshToken(u: TestUser): Promise<string> {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.id, u.user.id)).limit(1);
  if (!row) throw new Error('user vanished');
  if (row.isBlocked) await t.ctx.db.update(users).set({ isBlocked: false }).where(eq(users.id, u.user.id));
  return sessionToken(t, row.id, row.tokenVersion);
}

const edgeNumbers = fc.constantFrom(
  0,
  -0,
  -1,
  0.5,
  1,
  1e-6,
  1e-7,
  0.1 + 0.2,
  100,
  2 ** 31,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  1e21,
  -1e21,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
);
const numbers = fc.oneof(fc.integer({ min: -10, max: 100_000 }), fc.double(), edgeNumbers);
const hex = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength, maxLength });
const unicode = fc.string({ unit: 'binary', maxLength: 60 });
const ids = () =>
  fc.oneof(
    fc.constantFrom(
      ...Object.values(w.own),
      ...Object.values(w.theirs),
      w.tierId,
      w.victim.user.id,
      w.investor.user.id,
    ),
    fc.uuid(),
    fc.string({ maxLength: 40 }),
  );

/** A value for a field, guided by its name where the schema only says "string". */
function stringFor(name: string, schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...schema.enum.map(String));
  const n = name.toLowerCase();
  const generic = fc.oneof(fc.string({ maxLength: 40 }), unicode);
  // List cursors are opaque and made by the server (an empty one is no cursor); a made-up cursor is a
  // 400 covered by src/modules/admin/keyset-paging.test.ts.
  if (n === 'after' || n === 'before') return fc.constant('');
  if (schema.format === 'uuid' || n === 'id' || n.endsWith('id')) return fc.oneof(ids(), generic);
  if (n.includes('hash'))
    return fc.oneof(
      fc.integer({ min: 1, max: 1e9 }).map(hash64),
      hex(0, 70).map((h) => `0x${h}`),
      generic,
    );
  if (n.includes('address') || n.includes('wallet'))
    return fc.oneof(
      fc.constant(WALLET),
      hex(38, 42).map((h) => `0x${h}`),
      generic,
    );
  if (n.includes('email')) return fc.oneof(fc.emailAddress(), generic);
  if (n.includes('password')) return fc.oneof(fc.constantFrom('password-1', 'withdraw-1', 'secret-pass'), generic);
  if (n.includes('code')) return fc.oneof(fc.stringMatching(/^\d{6}$/), fc.constantFrom(w.invitationCode), generic);
  if (n === 'amount' || n.includes('balance') || n.includes('rate'))
    return fc.oneof(
      numbers.map(String),
      fc.constantFrom('NaN', 'Infinity', '1e309', '-0', '0.0000001', ' 5 '),
      generic,
    );
  if (n === 'phone') return fc.oneof(fc.constantFrom('+1 5551234567', '+44 7700900123'), generic);
  return generic;
}

function arbFor(schema: JsonSchema, name = '', depth = 0): fc.Arbitrary<unknown> {
  let base: fc.Arbitrary<unknown>;
  if (schema.anyOf) base = fc.oneof(...schema.anyOf.map((s) => arbFor(s, name, depth + 1)));
  else if (schema.enum) base = fc.constantFrom(...schema.enum);
  else {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string':
        base = stringFor(name, schema);
        break;
      case 'number':
        base = numbers;
        break;
      case 'integer':
        base = fc.oneof(fc.integer({ min: -5, max: 1000 }), edgeNumbers);
        break;
      case 'boolean':
        base = fc.boolean();
        break;
      case 'array':
        base = depth > 3 ? fc.constant([]) : fc.array(arbFor(schema.items ?? {}, name, depth + 1), { maxLength: 3 });
        break;
      case 'object': {
        const props = schema.properties ?? {};
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, s] of Object.entries(props)) model[k] = arbFor(s, k, depth + 1);
        base =
          depth > 3
            ? fc.constant({})
            : fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
        break;
      }
      default:
        base = fc.jsonValue({ maxDepth: 2 });
    }
  }
  // Now and then a value of the wrong kind, or a missing one.
  return fc.oneof({ weight: 6, arbitrary: base }, { weight: 1, arbitrary: fc.constantFrom(null, true, 0, '', [], {}) });
}

/** A raw request body: schema-derived, or hostile text. `undefined`: no body. */
function bodyArb(r: Route): fc.Arbitrary<string | undefined> {
  const hostile = fc.oneof(
    fc.anything().map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.integer({ min: 1, max: 4000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
    fc.integer({ min: 1, max: 2000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
    fc.integer({ min: 1_000, max: 80_000 }).map((n) => JSON.stringify({ x: 'ÿ'.repeat(n) })),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom(
      '{"__proto__":{"isAdmin":true}}',
      '{"constructor":{"prototype":{"isAdmin":true}}}',
      '1e309',
      '{"amount":1e309}',
      'null',
      '"x"',
      '[]',
      '',
    ),
  );
  if (!r.body) return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostile });
  const derived = arbFor(r.body).map((v) => JSON.stringify(v));
  // A known-good body (validBodies) with at most one field replaced by a schema-derived value.
  const example = validBodies(w)[r.key] ?? {};
  const fields = Object.entries(r.body.properties ?? {});
  const nearValid =
    fields.length === 0
      ? fc.constant(JSON.stringify(example))
      : fc.oneof(
          fc.constant(JSON.stringify(example)),
          fc.constantFrom(...fields).chain(([k, s]) => arbFor(s, k).map((v) => JSON.stringify({ ...example, [k]: v }))),
        );
  return fc.oneof(
    { weight: 3, arbitrary: derived },
    { weight: 3, arbitrary: nearValid },
    { weight: 2, arbitrary: hostile },
  );
}

function queryArb(r: Route): fc.Arbitrary<string> {
  const query = r.params.filter((p) => p.in === 'query');
  if (query.length === 0)
    return fc.oneof(
      fc.constant(''),
      fc.string({ maxLength: 30 }).map((s) => `x=${encodeURIComponent(s)}`),
    );
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const p of query) {
    const ty = p.schema.type;
    model[p.name] =
      ty === 'integer' || ty === 'number'
        ? fc.oneof(numbers.map(String), fc.string({ maxLength: 10 }))
        : stringFor(p.name, p.schema);
  }
  const derived = fc.record(model, { requiredKeys: [] }).map((o) =>
    Object.entries(o)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v ?? '')}`)
      .join('&'),
  );
  const polluted = fc.constantFrom(
    ...query.map((p) => `${p.name}=1&${p.name}=2`),
    ...query.map((p) => `${p.name}[]=1`),
  );
  return fc.oneof({ weight: 4, arbitrary: derived }, { weight: 1, arbitrary: polluted });
}

function pathArb(r: Route): fc.Arbitrary<string> {
  if (r.pathParams.length === 0) return fc.constant(r.path);
  // Never a user id in the path: toggle-block on the fuzzing investor would only make the rest 403.
  const value = fc.oneof(
    fc.constantFrom(...Object.values(w.own), ...Object.values(w.theirs), w.tierId),
    fc.uuid(),
    fc.string({ minLength: 1, maxLength: 40 }),
  );
  return fc.array(value, { minLength: r.pathParams.length, maxLength: r.pathParams.length }).map((vals) => {
    let i = 0;
    return r.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(vals[i++] ?? 'x'));
  });
}

async function send(method: Method, url: string, body: string | undefined, token: string) {
  if (body === undefined) {
    const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
    let data: unknown;
    try {
      data = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      data = res.body;
    }
    return Object.assign(res, { data });
  }
  return rawCall(t, method, url, body, token);
}

describe('fuzzing the route table', () => {
  it('covers every route', () => {
    expect(routes.length).toBeGreaterThanOrEqual(40);
  });

  for (const who of ['investor', 'admin'] as const) {
    it(
      `as ${who}: no 5xx, 2xx bodies match the response schema, 4xx bodies are { error, code } with the code's status`,
      { timeout: 240_000 },
      async () => {
        const u = who === 'admin' ? w.admin : w.investor;
        const seen = new Map<string, Set<number>>();
        for (const r of routes) {
          const statuses = new Set<number>();
          seen.set(r.key, statuses);
          await fc.assert(
            fc.asyncProperty(pathArb(r), queryArb(r), bodyArb(r), async (path, query, body) => {
              const url = query ? `${path}?${query}` : path;
              const res = await send(r.method, url, r.method === 'GET' ? undefined : body, await freshToken(u));
              statuses.add(res.statusCode);
              const what = `${r.key} as ${who}: ${res.statusCode} ${res.body.slice(0, 300)}`;
              expect(res.statusCode, what).toBeLessThan(500);
              // A statement asked as CSV or PDF answers that format; the JSON schema is for JSON answers.
              const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
              if (res.statusCode < 300) {
                if (json) expect(schemaErrors(r.response, res.data), what).toEqual([]);
              } else {
                // Every error is { error, code } and the code alone decides the status.
                const parsed = errorResponse.safeParse(res.data);
                expect(parsed.success, what).toBe(true);
                if (parsed.success) expect(res.statusCode, what).toBe(ERROR_STATUS[parsed.data.code]);
              }
            }),
            { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
          );
        }
        if (process.env.FUZZ_STATS)
          console.log(who, [...seen].map(([k, v]) => `${k}: ${[...v].sort().join(',')}`).join('\n'));
        // The fuzzer reaches the handlers, not only the validators: half of this caller's calls answered 2xx at
        // least once. Draws vary from run to run (a CI run on PostgreSQL reached 27 of the admin's routes, under 60 %),
        // so the bar sits at half.
        // Not counted: a route that succeeds only with a user's id in its path (never drawn, above) or with an
        // e-mailed link's secret (never known to a caller).
        const reachable = routes.filter(
          (r) => (who === 'admin' || !r.isAdmin) && !/\/(users|toggle-block)\/\{id\}|confirm|not-me/.test(r.path),
        );
        const succeeded = reachable.filter((r) => [...(seen.get(r.key) ?? [])].some((s) => s < 300));
        expect(succeeded.length, `2xx on ${succeeded.map((r) => r.key).join(', ')}`).toBeGreaterThanOrEqual(
          Math.floor(reachable.length * 0.5),
        );
      },
    );
  }
});
