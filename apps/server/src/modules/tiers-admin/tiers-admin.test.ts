import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  call,
  createTestApp,
  expectLedgerClean,
  makeUser,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { investments, tiers } from '../../db/schema.ts';
import { seedDeposit, seedInvestment } from '../../../test/support/money.ts';
import { MSG } from '@harvest/shared/messages';

let t: TestApp;
let admin: TestUser;
let investor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeUser(t, { isAdmin: true });
  investor = await makeUser(t);
});
afterAll(() => t.close());

const create = (body: unknown) => call(t, 'POST', '/api/admin/tiers', { token: admin.token, body });
const update = (id: string, body: unknown) => call(t, 'PUT', `/api/admin/tiers/${id}`, { token: admin.token, body });

describe('tier management', () => {
  it('creates a tier (exact amount and rate) and writes a tier_create audit row in the same change', async () => {
    const res = await create({ name: '  Golden Harvest ', amount: '1234.56', dailyRate: 2.125, sortOrder: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.data.tier).toMatchObject({
      name: 'Golden Harvest',
      amount: 1234.56,
      dailyRate: 2.125,
      active: true,
      sortOrder: 3,
    });
    const [row] = await t.ctx.db.select().from(tiers).where(eq(tiers.id, res.data.tier._id));
    expect(row?.amount).toBe(1_234_560_000n);
    expect(row?.dailyRateScaled).toBe(21_250);
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${res.data.tier._id}`, { token: admin.token });
    expect(audit.data.entries).toHaveLength(1);
    expect(audit.data.entries[0]).toMatchObject({
      action: 'tier_create',
      targetType: 'tier',
      before: null,
      after: { name: 'Golden Harvest', amount: '1234.56', dailyRate: 2.125, active: true, sortOrder: 3 },
      admin: { _id: admin.user.id },
    });
  });

  it('validates name, amount and rate with clear texts, and refuses extra fields', async () => {
    const bad: [unknown, string][] = [
      [{ amount: 10, dailyRate: 1 }, MSG.tierNameRequired],
      [{ name: ' ', amount: 10, dailyRate: 1 }, MSG.tierNameRequired],
      [{ name: 'X', amount: 0, dailyRate: 1 }, MSG.tierAmountInvalid],
      [{ name: 'X', amount: -5, dailyRate: 1 }, MSG.tierAmountInvalid],
      [{ name: 'X', amount: 1.0000001, dailyRate: 1 }, MSG.tierAmountInvalid],
      [{ name: 'X', amount: 'ten', dailyRate: 1 }, MSG.tierAmountInvalid],
      [{ name: 'X', amount: 10, dailyRate: 0 }, MSG.tierRateInvalid],
      [{ name: 'X', amount: 10, dailyRate: 100.0001 }, MSG.tierRateInvalid],
      [{ name: 'X', amount: 10, dailyRate: 1.23456 }, MSG.tierRateInvalid],
      [{ name: 'X', amount: 10, dailyRate: -1 }, MSG.tierRateInvalid],
      [{ name: 'X', amount: 10, dailyRate: '1' }, MSG.tierRateInvalid],
    ];
    for (const [body, error] of bad) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data, JSON.stringify(body)).toEqual({ error, code: 'validation' });
    }
    expect((await create({ name: 'X', amount: 10, dailyRate: 1, isAdmin: true })).statusCode).toBe(400);
    expect((await create({ name: 'Max', amount: 10, dailyRate: 100 })).statusCode).toBe(201);
  });

  it('lists every tier, inactive ones too', async () => {
    const off = await create({ name: 'Retired', amount: 5, dailyRate: 1, active: false });
    expect(off.statusCode).toBe(201);
    const res = await call(t, 'GET', '/api/admin/tiers', { token: admin.token });
    expect(res.statusCode).toBe(200);
    const names = res.data.tiers.map((x: { name: string }) => x.name);
    expect(names).toEqual(expect.arrayContaining(['Golden Harvest', 'Retired', 'Max']));
    expect(res.data.tiers.find((x: { name: string }) => x.name === 'Retired').active).toBe(false);
  });

  it('edits and deactivates a tier; bought investments keep the terms they were bought with', async () => {
    const created = await create({ name: 'Seedling', amount: 100, dailyRate: 1.5 });
    const id: string = created.data.tier._id;
    const [tierRow] = await t.ctx.db.select().from(tiers).where(eq(tiers.id, id));
    if (!tierRow) throw new Error('tier missing');
    await seedDeposit(t, investor.user.id, { amount: 100_000_000n });
    const invId = await seedInvestment(t, investor.user.id, tierRow);

    const edited = await update(id, { name: 'Seedling Plus', amount: 250, dailyRate: 3 });
    expect(edited.statusCode).toBe(200);
    expect(edited.data.tier).toMatchObject({ name: 'Seedling Plus', amount: 250, dailyRate: 3, active: true });
    const off = await update(id, { active: false });
    expect(off.data.tier.active).toBe(false);

    const [inv] = await t.ctx.db.select().from(investments).where(eq(investments.id, invId));
    expect(inv).toMatchObject({ tierName: 'Seedling', amount: 100_000_000n, dailyRateScaled: 15_000 });
    const dash = await call(t, 'GET', '/api/user/dashboard', { token: investor.token });
    expect(dash.statusCode).toBe(200);
    expect(dash.data.activeInvestments[0]).toMatchObject({ tier: 'Seedling', amount: 100, dailyRate: 1.5 });

    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${id}&action=tier_update`, { token: admin.token });
    expect(audit.data.entries.map((e: { after: { active: boolean } }) => e.after.active)).toEqual([false, true]);
    expect(audit.data.entries[1]).toMatchObject({
      before: { name: 'Seedling', amount: '100', dailyRate: 1.5, active: true },
      after: { name: 'Seedling Plus', amount: '250', dailyRate: 3, active: true },
    });
    const on = await update(id, { active: true });
    expect(on.data.tier.active).toBe(true);
    await expectLedgerClean(t);
  });

  it('update: nothing to change is 400, unknown or malformed id is 404, validation as on create', async () => {
    const created = await create({ name: 'Y', amount: 1, dailyRate: 1 });
    expect((await update(created.data.tier._id, {})).data).toEqual({
      error: MSG.tierNothingToChange,
      code: 'validation',
    });
    expect((await update(created.data.tier._id, { dailyRate: 0 })).data).toEqual({
      error: MSG.tierRateInvalid,
      code: 'validation',
    });
    expect((await update('7d3c1f7e-3f57-4a43-9d0c-0b8b2a6a4e11', { active: false })).statusCode).toBe(404);
    expect((await update('nope', { active: false })).statusCode).toBe(404);
  });

  it('refuses a second active tier of one amount, on create, edit and reactivation, and changes nothing', async () => {
    const first = (await create({ name: 'Harvest Reserve', amount: 7_777.5, dailyRate: 1 })).data.tier;
    const taken = { error: MSG.tierAmountTaken('Harvest Reserve').text, code: 'conflict' };
    const tiersNow = async () => (await call(t, 'GET', '/api/admin/tiers', { token: admin.token })).data.tiers;
    const audited = async () => (await call(t, 'GET', '/api/admin/audit', { token: admin.token })).data.total;
    const [listed, entries] = [await tiersNow(), await audited()];

    const again = await create({ name: 'Reserve Twin', amount: 7_777.5, dailyRate: 2 });
    expect(again.statusCode).toBe(409);
    expect(again.data).toMatchObject(taken);
    const other = (await create({ name: 'Reserve Other', amount: 8_888, dailyRate: 2, active: false })).data.tier;
    const [listed2, entries2] = [await tiersNow(), await audited()];
    for (const body of [{ amount: 7_777.5 }, { active: true, amount: 7_777.5 }]) {
      const res = await update(other._id, body);
      expect(res.statusCode).toBe(body.active ? 409 : 200);
      if (body.active) expect(res.data).toMatchObject(taken);
    }
    // An inactive tier may share the amount; it cannot come back while the active one has it.
    expect((await update(other._id, { active: true })).data).toMatchObject(taken);
    expect(listed2).toHaveLength(listed.length + 1);
    expect(await audited()).toBe(entries2 + 1);
    expect(entries2).toBe(entries + 1);
    // Its own amount is no conflict; once the first is off, the other may take it.
    expect((await update(first._id, { amount: 7_777.5, name: 'Harvest Reserve I' })).statusCode).toBe(200);
    expect((await update(first._id, { active: false })).statusCode).toBe(200);
    expect((await update(other._id, { active: true })).data.tier).toMatchObject({ amount: 7_777.5, active: true });
  });

  it('is refused to investors', async () => {
    expect(
      (
        await call(t, 'POST', '/api/admin/tiers', {
          token: investor.token,
          body: { name: 'Z', amount: 1, dailyRate: 1 },
        })
      ).statusCode,
    ).toBe(403);
    const rows = await t.ctx.db.select().from(tiers).where(eq(tiers.name, 'Z'));
    expect(rows).toHaveLength(0);
  });
});
