import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import {
  call,
  createTestApp,
  expectLedgerClean,
  fund,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { addTier, at, tokenNow } from '../../../test/support/investments.ts';

/** Weekday and platform-day rules in zones east and west of UTC and across daylight-saving changes. */
function zone(tz: string, body: (ctx: { t: () => TestApp; user: () => Promise<TestUser> }) => void) {
  describe(`PLATFORM_TIMEZONE=${tz}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ PLATFORM_TIMEZONE: tz });
      await addTier(t, 'Bronze', '100', 15000);
    });
    afterAll(async () => {
      await expectLedgerClean(t);
      await t.close();
    });
    body({
      t: () => t,
      user: async () => {
        const u = await makeUser(t);
        await fund(t, u.user.id, 10_000_000_000n);
        return u;
      },
    });
  });
}

async function invest(t: TestApp, u: TestUser) {
  return call(t, 'POST', '/api/user/invest', { token: await tokenNow(t, u), body: { amount: 100 } });
}
async function start(t: TestApp, u: TestUser, investmentId: string) {
  return call(t, 'POST', '/api/user/start-earning', { token: await tokenNow(t, u), body: { investmentId } });
}
async function complete(t: TestApp, u: TestUser, investmentId: string) {
  return call(t, 'POST', '/api/user/complete-cycle', { token: await tokenNow(t, u), body: { investmentId } });
}
async function lastCycleDay(t: TestApp, u: TestUser): Promise<string | null> {
  const res = await call(t, 'GET', '/api/user/dashboard', { token: await tokenNow(t, u) });
  return res.data.activeInvestments[0].lastCycleDay;
}

/** [instant, allowed] pairs: Friday 23:59, Saturday 00:00, Sunday 23:59 and Monday 00:00 local time. */
function weekEdges(tz: string, edges: [string, boolean][]) {
  zone(tz, ({ t, user }) => {
    it.each(edges)('invest at %s -> allowed %s', async (when, allowed) => {
      at(t(), '2026-01-14T12:00:00Z');
      const u = await user();
      at(t(), when);
      const res = await invest(t(), u);
      expect(res.statusCode).toBe(allowed ? 200 : 400);
      if (!allowed) expect(res.data.error).toBe(MSG.weekdayInvest);
    });

    it('starts Friday 23:59 local, refuses completion over the weekend, completes Monday 00:00 local', async () => {
      at(t(), '2026-01-14T12:00:00Z');
      const u = await user();
      const id = (await invest(t(), u)).data.investment._id;
      const fri = edges[0]?.[0];
      const sat = edges[1]?.[0];
      const mon = edges[3]?.[0];
      if (!fri || !sat || !mon) throw new Error('edges');
      at(t(), fri);
      expect((await start(t(), u, id)).statusCode).toBe(200);
      at(t(), sat);
      const s = await start(t(), u, id);
      expect(s.statusCode).toBe(409);
      at(t(), new Date(new Date(fri).getTime() + 8 * 3600_000 + 60_000).toISOString());
      const c = await complete(t(), u, id);
      expect(c.statusCode).toBe(400);
      expect(c.data.error).toBe(MSG.weekendComplete);
      at(t(), mon);
      expect((await complete(t(), u, id)).statusCode).toBe(200);
      expect((await start(t(), u, id)).statusCode).toBe(200);
    });
  });
}

// UTC+8: Friday 2026-01-16 23:59 SGT = 15:59Z; Monday 2026-01-19 00:00 SGT = 2026-01-18 16:00Z.
weekEdges('Asia/Singapore', [
  ['2026-01-16T15:59:00Z', true],
  ['2026-01-16T16:00:00Z', false],
  ['2026-01-18T15:59:00Z', false],
  ['2026-01-18T16:00:00Z', true],
]);

// UTC-5 (New York in winter): Friday 23:59 EST = Saturday 04:59Z; Monday 00:00 EST = 05:00Z.
weekEdges('America/New_York', [
  ['2026-01-17T04:59:00Z', true],
  ['2026-01-17T05:00:00Z', false],
  ['2026-01-19T04:59:00Z', false],
  ['2026-01-19T05:00:00Z', true],
]);

// Across the spring-forward of 2026-03-08 the offset becomes UTC-4: Monday 00:00 EDT is 04:00Z.
weekEdges('America/New_York', [
  ['2026-03-07T04:59:00Z', true],
  ['2026-03-07T05:00:00Z', false],
  ['2026-03-09T03:59:00Z', false],
  ['2026-03-09T04:00:00Z', true],
]);

zone('America/New_York', ({ t, user }) => {
  it('uses the local calendar day, not the UTC day, for one cycle per day', async () => {
    at(t(), '2026-01-19T20:00:00Z'); // Monday 15:00 EST
    const u = await user();
    const id = (await invest(t(), u)).data.investment._id;
    at(t(), '2026-01-19T20:00:00Z');
    expect((await start(t(), u, id)).statusCode).toBe(200);
    expect(await lastCycleDay(t(), u)).toBe('2026-01-19');
    at(t(), '2026-01-20T04:01:00Z'); // Monday 23:01 EST, Tuesday in UTC
    expect((await complete(t(), u, id)).statusCode).toBe(200);
    at(t(), '2026-01-20T04:59:00Z'); // Monday 23:59 EST
    const again = await start(t(), u, id);
    expect(again.statusCode).toBe(409);
    expect(again.data.error).toBe(MSG.alreadyToday);
    at(t(), '2026-01-20T05:00:00Z'); // Tuesday 00:00 EST
    expect((await start(t(), u, id)).statusCode).toBe(200);
    expect(await lastCycleDay(t(), u)).toBe('2026-01-20');
  });

  it('keeps one cycle per local day across the fall-back of 2026-11-01 (a 25-hour Sunday)', async () => {
    at(t(), '2026-10-30T16:00:00Z'); // Friday 12:00 EDT
    const u = await user();
    const id = (await invest(t(), u)).data.investment._id;
    expect((await start(t(), u, id)).statusCode).toBe(200);
    at(t(), '2026-11-02T04:59:00Z'); // Sunday 23:59 EST (UTC-5 now)
    expect((await complete(t(), u, id)).data.error).toBe(MSG.weekendComplete);
    at(t(), '2026-11-02T05:00:00Z'); // Monday 00:00 EST
    expect((await complete(t(), u, id)).statusCode).toBe(200);
    expect((await start(t(), u, id)).statusCode).toBe(200);
    expect(await lastCycleDay(t(), u)).toBe('2026-11-02');
  });
});

// Cairo springs forward on a weekday: Friday 2026-04-24 00:00 EET becomes 01:00 EEST (a 23-hour Friday).
zone('Africa/Cairo', ({ t, user }) => {
  it('allows one cycle on Thursday and one on the short Friday, never two on one local day', async () => {
    at(t(), '2026-04-23T12:00:00Z'); // Thursday 14:00 EET
    const u = await user();
    const id = (await invest(t(), u)).data.investment._id;
    at(t(), '2026-04-23T12:00:00Z');
    expect((await start(t(), u, id)).statusCode).toBe(200);
    at(t(), '2026-04-23T20:01:00Z'); // Thursday 22:01 EET
    expect((await complete(t(), u, id)).statusCode).toBe(200);
    at(t(), '2026-04-23T21:59:00Z'); // Thursday 23:59 EET
    expect((await start(t(), u, id)).data.error).toBe(MSG.alreadyToday);
    at(t(), '2026-04-23T22:00:00Z'); // Friday 01:00 EEST (00:00-01:00 does not exist)
    expect((await start(t(), u, id)).statusCode).toBe(200);
    expect(await lastCycleDay(t(), u)).toBe('2026-04-24');
    at(t(), '2026-04-24T06:01:00Z'); // Friday 09:01 EEST, just over 8 h later
    expect((await complete(t(), u, id)).statusCode).toBe(200);
    at(t(), '2026-04-24T20:59:00Z'); // Friday 23:59 EEST
    expect((await start(t(), u, id)).data.error).toBe(MSG.alreadyToday);
    at(t(), '2026-04-24T21:00:00Z'); // Saturday 00:00 EEST
    expect((await start(t(), u, id)).data.error).toBe(MSG.weekdayStart);
  });
});
