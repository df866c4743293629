import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { seedTiers } from '../../src/modules/tiers/tiers.seed.ts';
import { call, createTestApp, fund, makeUser, type TestApp, type TestUser } from '../helpers.ts';

/**
 * Answers that must neither leak nor break. Any bad `after`/`before` cursor on the back-office lists is a 400
 * (not a 500 with the SQL and its parameters in the log). /readyz with the database down names the failed
 * check only, not the failed query's text. A replayed idempotent error keeps its `code`: a replay is the first
 * answer. `"100.000000"` and `100` are one amount, also for an Idempotency-Key.
 */
const log: string[] = [];
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void log.push(line) } });
  t.clock.set(new Date('2026-01-14T10:00:00Z')); // a Wednesday
  await seedTiers(t.ctx.db, t.clock.now());
  admin = await makeUser(t, { isAdmin: true });
});
afterAll(() => t.close());

const cursor = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');

describe('back-office cursors', () => {
  it('a crafted cursor is a 400 on /api/admin/users and /api/admin/deposits, never a 500 or SQL in the log', async () => {
    const uuid = '00000000-0000-4000-8000-000000000000';
    const crafted = [
      cursor(['2026-13-45 99:99:99+00', uuid]),
      cursor(['2026-02-30 10:00:00+00', uuid]),
      cursor(['2026-01-14 24:00:00+00', uuid]),
      cursor(['2026-01-14 10:00:00+99', uuid]),
      cursor(['0000-01-01 00:00:00+00', uuid]),
      cursor(['2026-01-14 10:00:00+00', '99999999-9999-9999-9999-99999999999g']),
      cursor(['2026-01-14 10:00:00+00']),
      cursor([1, 2]),
      cursor({ a: 1 }),
      'not-base64-json',
      '%00',
    ];
    for (const path of ['/api/admin/users', '/api/admin/deposits', '/api/admin/audit']) {
      for (const c of crafted) {
        for (const dir of ['after', 'before']) {
          const res = await call(t, 'GET', `${path}?${dir}=${encodeURIComponent(c)}`, { token: admin.token });
          expect(res.statusCode, `${path} ${dir}=${c}: ${res.body.slice(0, 200)}`).toBe(400);
          expect(res.data.code).toBe('validation');
        }
      }
    }
    expect(log.join('\n')).not.toMatch(/Failed query|params:|request failed/);
    // A cursor the server made still works.
    const first = await call(t, 'GET', '/api/admin/users?pageSize=1', { token: admin.token });
    expect(first.statusCode).toBe(200);
  });
});

describe('answers of Idempotency-Key replays', () => {
  it('a replayed error keeps its code: the replay is the first answer', async () => {
    const poor = await makeUser(t);
    const send = () =>
      call(t, 'POST', '/api/user/invest', {
        token: poor.token,
        body: { amount: 100 },
        headers: { 'idempotency-key': 'invest-poor-1' },
      });
    const first = await send();
    expect(first.statusCode).toBe(400);
    expect(first.data).toEqual({ error: MSG.investInsufficientBalance, code: 'insufficient_funds' });
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.statusCode).toBe(first.statusCode);
    expect(replay.data).toEqual(first.data);
  });

  it('"100.000000" and 100 are one amount: the same key replays instead of 422', async () => {
    const u = await makeUser(t);
    await fund(t, u.user.id, 150_000_000n);
    const send = (amount: number | string) =>
      call(t, 'POST', '/api/user/invest', {
        token: u.token,
        body: { amount },
        headers: { 'idempotency-key': 'invest-100' },
      });
    const first = await send(100);
    expect(first.statusCode, JSON.stringify(first.data)).toBe(200);
    for (const same of ['100.000000', '100', 100.0]) {
      const again = await send(same);
      expect(again.statusCode, String(same)).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.data).toEqual(first.data);
    }
    expect((await send(50)).statusCode).toBe(422);
  });
});

describe('/readyz with the database down', () => {
  it('names the failed checks only: no query text, no driver message', async () => {
    const other = await createTestApp({}, { databaseCloses: true });
    try {
      await other.database.close();
      const res = await call(other, 'GET', '/readyz');
      expect(res.statusCode).toBe(503);
      expect(res.data.status).toBe('unavailable');
      for (const f of res.data.failed) expect(Object.keys(f)).toEqual(['check']);
      expect(res.data.failed.map((f: { check: string }) => f.check)).toContain('database');
      expect(res.body).not.toMatch(/select|query|drizzle|ECONNREFUSED|closed/i);
    } finally {
      await other.app.close();
      await other.smtp.close();
    }
  });
});
