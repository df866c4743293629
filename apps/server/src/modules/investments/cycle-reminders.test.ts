import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT } from '@harvest/shared/texts';
import { buildApp } from '../../app.ts';
import { openPostgres } from '../../db/client.ts';
import { deliverOutbox } from '../../mail/outbox.ts';
import {
  call,
  createTestApp,
  fund,
  isPostgres,
  makeUser,
  TEST_SECRET,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { addTier, at, tokenNow } from '../../../test/support/investments.ts';
import { completableFrom } from '../../lib/time.ts';
import { remindReadyCycles } from './cycle-reminders.service.ts';

/**
 * Cycle reminders in a zone west of UTC (New York, UTC-5 in December): the investor's opt-in on the account, one
 * e-mail per cycle once it is ready to complete (through the outbox and a real SMTP server), none at the weekend
 * or after opting out, and the start warning's Monday for a cycle started on Friday at or after 16:00 local time.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PLATFORM_TIMEZONE: 'America/New_York' });
  await addTier(t, 'Harvest Gold', '1250000', 15000);
});
afterAll(() => t.close());

// Friday 4 December 2026 in New York; 16:00 there is 21:00 UTC.
const FRI_1559 = '2026-12-04T20:59:00Z';
const FRI_1600 = '2026-12-04T21:00:00Z';

const prefer = async (u: TestUser, body: unknown) =>
  call(t, 'PUT', '/api/user/preferences', { token: await tokenNow(t, u), body });

/** An investor with one Harvest Gold investment (1,250,000 USDC), bought on Wednesday. */
async function investor(reminders: boolean, firstName = 'Ada') {
  at(t, '2026-12-02T15:00:00Z');
  const u = await makeUser(t, { firstName });
  await fund(t, u.user.id, 1_250_000_000_000n);
  if (reminders) expect((await prefer(u, { cycleReminders: true })).statusCode).toBe(200);
  const res = await call(t, 'POST', '/api/user/invest', { token: await tokenNow(t, u), body: { amount: 1250000 } });
  expect(res.statusCode).toBe(200);
  return { u, id: res.data.investment._id as string };
}

async function startAt(u: TestUser, id: string, iso: string) {
  at(t, iso);
  const res = await call(t, 'POST', '/api/user/start-earning', {
    token: await tokenNow(t, u),
    body: { investmentId: id },
  });
  expect(res.statusCode).toBe(200);
}

/** A sweep at `iso`, then delivery: the reminders the investor's mailbox holds. */
async function sweepAt(iso: string, u: TestUser) {
  at(t, iso);
  await remindReadyCycles(t.ctx);
  await deliverOutbox(t.ctx);
  return t.smtp.mailsTo(u.user.email).filter((m) => /cycle|ciclo/.test(m.subject));
}

describe('the preference', () => {
  it('is off for a new account, turned on and off in PUT /api/user/preferences, read back by GET /api/user/me', async () => {
    const u = await makeUser(t);
    const me = async () => (await call(t, 'GET', '/api/user/me', { token: await tokenNow(t, u) })).data.user;
    expect((await me()).cycleReminders).toBe(false);
    const on = await prefer(u, { cycleReminders: true });
    expect(on.statusCode).toBe(200);
    expect(on.data.user).toMatchObject({ cycleReminders: true, locale: 'en' });
    expect((await me()).cycleReminders).toBe(true);
    // The language alone leaves the reminders as they are.
    expect((await prefer(u, { locale: 'es' })).data.user).toMatchObject({ cycleReminders: true, locale: 'es' });
    expect((await prefer(u, { cycleReminders: false })).data.user).toMatchObject({ cycleReminders: false });
    expect((await me()).cycleReminders).toBe(false);
  });

  it('refuses an empty or wrong body with the reason, and changes nothing', async () => {
    const u = await makeUser(t);
    await prefer(u, { cycleReminders: true });
    const empty = await prefer(u, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.data).toMatchObject({ error: TEXT.preferencesEmpty, code: 'validation' });
    for (const body of [{ cycleReminders: 'no' }, { cycleReminders: null }, { cycleReminders: false, extra: 1 }]) {
      const res = await prefer(u, body);
      expect(res.statusCode).toBe(400);
      expect(res.data.code).toBe('validation');
    }
    expect((await call(t, 'GET', '/api/user/me', { token: await tokenNow(t, u) })).data.user.cycleReminders).toBe(true);
  });
});

describe('the start warning: a cycle started on Friday from 16:00 in the platform zone completes on Monday', () => {
  const startedNow = async (iso: string) => {
    const u = await makeUser(t);
    at(t, iso);
    return (await call(t, 'GET', '/api/user/dashboard', { token: await tokenNow(t, u) })).data.cycleStartedNow;
  };

  it('Friday 15:59: it ends Friday 23:59 and can be completed then', async () => {
    const { endTime, completableFrom } = await startedNow(FRI_1559);
    expect(endTime).toMatch(/^2026-12-05T04:59:00\.\d{3}Z$/);
    expect(completableFrom).toBe(endTime);
  });

  it('Friday 16:00: it ends Saturday 00:00, completable from Monday 00:00 New York time', async () => {
    const { endTime, completableFrom } = await startedNow(FRI_1600);
    expect(endTime).toMatch(/^2026-12-05T05:00:00\.\d{3}Z$/);
    expect(completableFrom).toBe('2026-12-07T05:00:00.000Z');
  });
});

describe('completableFrom', () => {
  const from = (iso: string, tz: string) => completableFrom(new Date(iso), tz).toISOString();
  it('keeps a weekday end; a weekend end moves to Monday 00:00 of the zone, across a clock change too', () => {
    expect(from('2026-12-04T20:00:00Z', 'America/New_York')).toBe('2026-12-04T20:00:00.000Z');
    expect(from('2026-12-04T15:30:00Z', 'Asia/Tokyo')).toBe('2026-12-06T15:00:00.000Z');
    // New York moves to summer time on Sunday 14 March 2027: Monday starts at 04:00 UTC, not 05:00.
    expect(from('2027-03-13T06:00:00Z', 'America/New_York')).toBe('2027-03-15T04:00:00.000Z');
    expect(from('2027-03-14T12:00:00Z', 'America/New_York')).toBe('2027-03-15T04:00:00.000Z');
  });
});

describe('the reminder e-mail', () => {
  it('started Friday 15:59: one e-mail at 23:59 when it is ready, never a second, none for an investor not opted in', async () => {
    const { u, id } = await investor(true);
    const quiet = await investor(false);
    await startAt(u, id, FRI_1559);
    await startAt(quiet.u, quiet.id, FRI_1559);

    expect(await sweepAt('2026-12-05T04:58:59Z', u)).toHaveLength(0);
    // Two sweeps at once (two passes of the job): one claims it.
    at(t, '2026-12-05T04:59:01Z');
    const queued = await Promise.all([remindReadyCycles(t.ctx), remindReadyCycles(t.ctx)]);
    expect(queued[0] + queued[1]).toBe(1);
    const [mail, ...more] = await sweepAt('2026-12-05T04:59:30Z', u);
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe('Your Harvest Gold cycle is ready to complete');
    expect(mail?.text).toContain('Hello Ada,');
    expect(mail?.text).toContain(
      'The 8-hour earning cycle of your Harvest Gold investment has ended. Complete it in the Investments tab to record its earning.',
    );
    expect(mail?.text).toMatch(/Amount:\s+1,250,000\.00 USDC/);
    expect(mail?.text).toMatch(/Earning per cycle:\s+18,750\.00 USDC/);
    expect(mail?.text).toMatch(/Cycle ended:\s+Dec 4, 2026, 23:59 \(America\/New_York\)/);
    expect(mail?.text).toContain('You asked for this reminder in Profile; you can turn it off there.');

    // Later sweeps (a restart is a sweep on the same database) send nothing more for this cycle.
    expect(await sweepAt('2026-12-05T04:59:50Z', u)).toHaveLength(1);
    expect(await sweepAt('2026-12-07T14:00:00Z', u)).toHaveLength(1);
    expect(await sweepAt('2026-12-07T14:01:00Z', quiet.u)).toHaveLength(0);
  });

  it('started Friday 16:00: nothing at the weekend, one e-mail on Monday 00:00, and the next cycle gets its own', async () => {
    const { u, id } = await investor(true, 'Lucía');
    expect((await prefer(u, { locale: 'es' })).statusCode).toBe(200);
    await startAt(u, id, FRI_1600);
    expect(await sweepAt('2026-12-05T05:00:00Z', u)).toHaveLength(0);
    expect(await sweepAt('2026-12-07T04:59:59Z', u)).toHaveLength(0);
    const mails = await sweepAt('2026-12-07T05:00:00Z', u);
    expect(mails).toHaveLength(1);
    // In the investor's language.
    expect(mails[0]?.subject).toBe('Tu ciclo Harvest Gold está listo para completar');
    expect(mails[0]?.text).toContain('Hola, Lucía:');

    const done = await call(t, 'POST', '/api/user/complete-cycle', {
      token: await tokenNow(t, u),
      body: { investmentId: id },
    });
    expect(done.statusCode).toBe(200);
    await startAt(u, id, '2026-12-07T14:00:00Z');
    expect(await sweepAt('2026-12-07T21:59:59Z', u)).toHaveLength(1);
    expect(await sweepAt('2026-12-07T22:00:01Z', u)).toHaveLength(2);
  });

  it('opting out before the cycle ends stops its reminder; a cycle completed before the sweep gets none', async () => {
    const { u, id } = await investor(true);
    await startAt(u, id, '2026-12-08T14:00:00Z');
    expect((await prefer(u, { cycleReminders: false })).statusCode).toBe(200);
    expect(await sweepAt('2026-12-08T23:00:00Z', u)).toHaveLength(0);

    const other = await investor(true);
    await startAt(other.u, other.id, '2026-12-08T14:00:00Z');
    at(t, '2026-12-08T22:00:01Z');
    const done = await call(t, 'POST', '/api/user/complete-cycle', {
      token: await tokenNow(t, other.u),
      body: { investmentId: other.id },
    });
    expect(done.statusCode).toBe(200);
    expect(await sweepAt('2026-12-08T23:00:00Z', other.u)).toHaveLength(0);
  });
});

describe.runIf(isPostgres)('two instances on one PostgreSQL database', () => {
  it('sweeping at once, they send one e-mail per cycle', async () => {
    const url = t.database.url;
    if (!url) throw new Error('no database url');
    const second = openPostgres(url, 10);
    const other = await buildApp({ config: t.ctx.config, database: second, secret: TEST_SECRET, clock: t.clock });
    try {
      const investors = await Promise.all([investor(true), investor(true), investor(true)]);
      for (const { u, id } of investors) await startAt(u, id, '2026-12-09T14:00:00Z');
      at(t, '2026-12-09T22:00:01Z');
      const queued = await Promise.all([0, 1, 2, 3].map((i) => remindReadyCycles(i % 2 ? other.ctx : t.ctx)));
      expect(queued.reduce((a, b) => a + b, 0)).toBe(3);
      for (const { u } of investors) expect(await sweepAt('2026-12-09T22:01:00Z', u)).toHaveLength(1);
    } finally {
      await other.app.close();
      await second.close();
    }
  });
});
