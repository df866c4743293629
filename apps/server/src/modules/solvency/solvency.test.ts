import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, fund, makeUser, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { startRun } from '../reconciliation/reconciliation.service.ts';
import { saveBalances } from './solvency.queries.ts';

/**
 * The Solvency panel's calls with a chain that cannot be read (a node down, a wrong URL): nothing read is not
 * zero coverage, and what an administrator asks for is answered, audited and refused when it should be.
 */
describe('solvency and reconciliation calls before the chain could be read', () => {
  let t: TestApp;
  let admin: TestUser;
  let investor: TestUser;
  beforeAll(async () => {
    t = await createTestApp({
      CHAIN_RPC_URL: 'http://127.0.0.1:9',
      CHAIN_ID: '137',
      PAYOUT_ADDRESS: '0x3333333333333333333333333333333333333333',
    });
    admin = await makeUser(t, { isAdmin: true });
    investor = await makeUser(t);
    await fund(t, investor.user.id, 25_000_000n);
  });
  afterAll(() => t.close());

  it('says the balances are not read yet (coverage null, not 0), while the liabilities are known', async () => {
    const s = await call(t, 'GET', '/api/admin/solvency', { token: admin.token });
    expect(s.statusCode).toBe(200);
    expect(s.data).toMatchObject({
      liabilities: 25,
      coverage: null,
      asOf: null,
      readingAge: null,
      reconciliation: null,
      alarms: [],
    });
  });

  it('only administrators may read, refresh, reconcile or acknowledge', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/solvency'],
      ['POST', '/api/admin/solvency/refresh'],
      ['POST', '/api/admin/solvency/reconcile'],
      ['POST', '/api/admin/chain-alarms/00000000-0000-4000-8000-000000000000/acknowledge'],
    ] as const)
      expect((await call(t, method, url, { token: investor.token })).statusCode).toBe(403);
  });

  it('a reconciliation asked for runs in the background, is audited, and shows it could not read the chain', async () => {
    const r = await call(t, 'POST', '/api/admin/solvency/reconcile', { token: admin.token });
    expect(r.statusCode).toBe(202);
    expect(r.data.reconciliation).toMatchObject({ trigger: 'admin', status: 'running' });
    let run: { status: string; error: string | null } | null = null;
    for (let i = 0; i < 100 && run?.status !== 'failed'; i++) {
      run = (await call(t, 'GET', '/api/admin/solvency', { token: admin.token })).data.reconciliation;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/chain RPC unavailable/) });
    const audit = await call(t, 'GET', '/api/admin/audit', { token: admin.token });
    expect(audit.data.entries.map((e: { action: string }) => e.action)).toContain('chain_reconcile');
  });

  it('one reconciliation at a time: while one runs, another is refused (409)', async () => {
    await startRun({ db: t.ctx.db, now: () => t.clock.now() }, 'daily', null);
    const r = await call(t, 'POST', '/api/admin/solvency/reconcile', { token: admin.token });
    expect(r.statusCode).toBe(409);
    expect(r.data.error).toMatch(/already running/);
  });

  it('acknowledging an alarm that does not exist (or is closed) is 404', async () => {
    const r = await call(t, 'POST', '/api/admin/chain-alarms/00000000-0000-4000-8000-000000000000/acknowledge', {
      token: admin.token,
    });
    expect(r.statusCode).toBe(404);
  });

  it('without a chain configured, refresh and reconcile say there is nothing to read (409)', async () => {
    const demo = await createTestApp();
    try {
      const a = await makeUser(demo, { isAdmin: true });
      for (const url of ['/api/admin/solvency/refresh', '/api/admin/solvency/reconcile']) {
        const r = await call(demo, 'POST', url, { token: a.token });
        expect(r.statusCode).toBe(409);
        expect(r.data.error).toMatch(/No blockchain node is configured/);
      }
    } finally {
      await demo.close();
    }
  });

  it('says how old the last reading is on the platform clock, and that it is stale past 15 minutes', async () => {
    const readAt = t.clock.now();
    const solvencyAfter = async (minutes: number) => {
      t.clock.set(new Date(readAt.getTime() + minutes * 60_000));
      return (await call(t, 'GET', '/api/admin/solvency', { token: admin.token })).data;
    };
    // What a refresh saves when the node answered, then the node went away (this app's node never answers).
    await saveBalances(
      t.ctx.db,
      [{ address: '0x3333333333333333333333333333333333333333', kind: 'payout', balance: 30_000_000n }],
      readAt,
    );
    const fresh = await solvencyAfter(14);
    expect(fresh).toMatchObject({ asOf: readAt.toISOString(), coverage: 1.2 });
    expect(fresh.readingAge).toMatchObject({ stale: false, staleAfterSeconds: 900 });
    expect(fresh.readingAge.seconds).toBeGreaterThanOrEqual(840);
    expect(fresh.readingAge.seconds).toBeLessThan(900);
    const old = await solvencyAfter(20);
    expect(old.readingAge).toMatchObject({ stale: true, staleAfterSeconds: 900 });
    expect(old.readingAge.seconds).toBeGreaterThanOrEqual(1_200);
  });
});
