import { randomBytes } from 'node:crypto';
import { MSG } from '@harvest/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { SettableClock } from '../../src/lib/clock.ts';
import { stepOf, totpAt } from '../../src/lib/totp.ts';
import { resealTotpSeeds } from '../../src/modules/two-factor/two-factor.service.ts';
import { call, createTestApp, makeUser, signupBody, TEST_SECRET, type TestApp } from '../helpers.ts';

/**
 * Rotating JWT_SECRET (docs/OPERATIONS.md): the new secret signs, the previous one
 * (JWT_SECRET_PREVIOUS) is still accepted for one token lifetime, and authenticator seeds sealed
 * with it are re-sealed at start, so nobody is signed out and nobody's second factor breaks.
 */
const OLD = TEST_SECRET;
const NEW = 'rotated-Secret-9f8e7d6c5b4a3928-1716151413121110';

let before: TestApp;
beforeAll(async () => {
  before = await createTestApp({ JWT_SECRET: OLD });
});
afterAll(() => before.close());

/** Another instance of the app on the same database, with the secrets an operator sets during a rotation. */
async function instance(env: Record<string, string>, clock: SettableClock, base: TestApp = before) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMITS: 'off', ...env });
  const built = await buildApp({
    config,
    database: base.database,
    secret: config.JWT_SECRET ?? '',
    previousSecret: config.JWT_SECRET_PREVIOUS,
    nextSecret: config.JWT_SECRET_NEXT,
    clock,
    mailer: base.ctx.mailer,
  });
  await built.app.ready();
  const t: TestApp = { ...base, app: built.app, ctx: built.ctx, clock };
  return { t, ctx: built.ctx as AppContext, close: () => built.app.close() };
}

describe('JWT_SECRET rotation', () => {
  it('keeps sessions and second factors across the rotation, and ends old tokens once the previous key is dropped', async () => {
    const u = await makeUser(before);
    const setup = await call(before, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: u.password } });
    const seed: string = setup.data.secret;
    const code = (offset: number) => totpAt(seed, stepOf(before.clock.now()) + offset);
    const enable = await call(before, 'POST', '/api/user/2fa/enable', {
      token: u.token,
      body: { password: u.password, code: code(0) },
    });
    expect(enable.statusCode, JSON.stringify(enable.data)).toBe(200);
    const oldToken: string = enable.data.token;

    // Step 1: JWT_SECRET=new, JWT_SECRET_PREVIOUS=old on every instance.
    let newToken = '';
    const during = await instance({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD }, before.clock);
    try {
      expect((await call(during.t, 'GET', '/api/user/me', { token: oldToken })).statusCode).toBe(200);
      expect(await resealTotpSeeds(during.ctx)).toBe(1);
      expect(await resealTotpSeeds(during.ctx)).toBe(0);
      before.clock.set(new Date(before.clock.now().getTime() + 60_000));
      const login = await call(during.t, 'POST', '/api/login', {
        body: { email: u.user.email, password: u.password, totpCode: code(0) },
      });
      expect(login.statusCode, JSON.stringify(login.data)).toBe(200);
      newToken = login.data.token;
    } finally {
      await during.close();
    }

    // Step 2, one token lifetime later: JWT_SECRET_PREVIOUS removed.
    before.clock.set(new Date(before.clock.now().getTime() + 60_000));
    const after = await instance({ JWT_SECRET: NEW }, before.clock);
    try {
      expect((await call(after.t, 'GET', '/api/user/me', { token: newToken })).statusCode).toBe(200);
      const old = await call(after.t, 'GET', '/api/user/me', { token: oldToken });
      expect(old.statusCode).toBe(401);
      // The seed was re-sealed with the new secret: the second factor still works without the old one.
      const login = await call(after.t, 'POST', '/api/login', {
        body: { email: u.user.email, password: u.password, totpCode: code(0) },
      });
      expect(login.statusCode, JSON.stringify(login.data)).toBe(200);
    } finally {
      await after.close();
    }
  });

  it('a rolling rotation over two instances on one database signs nobody out and never answers 500', async () => {
    const clock = before.clock;
    const tick = () => clock.set(new Date(clock.now().getTime() + 31_000)); // a new TOTP step
    type Instance = Awaited<ReturnType<typeof instance>>;
    /** Restarting an instance: the old process stops, the new one starts with its settings and re-seals seeds. */
    const start = async (env: Record<string, string>) => {
      const i = await instance(env, clock);
      await resealTotpSeeds(i.ctx);
      return i;
    };
    const users: { email: string; password: string; seed: string }[] = [];
    const enrol = async (on: Instance) => {
      const u = await makeUser(on.t);
      const setup = await call(on.t, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: u.password } });
      expect(setup.statusCode).toBe(200);
      const enable = await call(on.t, 'POST', '/api/user/2fa/enable', {
        token: u.token,
        body: { password: u.password, code: totpAt(setup.data.secret, stepOf(clock.now())) },
      });
      expect(enable.statusCode, JSON.stringify(enable.data)).toBe(200);
      users.push({ email: u.user.email, password: u.password, seed: setup.data.secret });
    };
    /** Every enrolled person signs in with the second factor on each instance, and each session works on both. */
    const check = async (a: Instance, b: Instance, step: string) => {
      for (const [on, other] of [
        [a, b],
        [b, a],
      ] as const) {
        for (const u of users) {
          tick();
          const login = await call(on.t, 'POST', '/api/login', {
            body: { email: u.email, password: u.password, totpCode: totpAt(u.seed, stepOf(clock.now())) },
          });
          expect(login.statusCode, `${step}: ${JSON.stringify(login.data)}`).toBe(200);
          for (const where of [on, other])
            expect((await call(where.t, 'GET', '/api/user/me', { token: login.data.token })).statusCode, step).toBe(
              200,
            );
        }
      }
    };

    let a = await start({ JWT_SECRET: OLD });
    let b = await start({ JWT_SECRET: OLD });
    try {
      await enrol(a);
      await check(a, b, 'before');
      // Step 1: JWT_SECRET_NEXT=new (verify-only) on every instance, one at a time.
      await a.close();
      a = await start({ JWT_SECRET: OLD, JWT_SECRET_NEXT: NEW });
      await check(a, b, 'step 1, first instance');
      await b.close();
      b = await start({ JWT_SECRET: OLD, JWT_SECRET_NEXT: NEW });
      await check(a, b, 'step 1 done');
      // Step 2: JWT_SECRET=new, JWT_SECRET_PREVIOUS=old, one at a time; someone enrols mid-way on the old one.
      await a.close();
      a = await start({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD });
      await enrol(b);
      await check(a, b, 'step 2, first instance');
      await b.close();
      b = await start({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD });
      await check(a, b, 'step 2 done');
      // Step 3, one token lifetime later: JWT_SECRET_PREVIOUS removed, one at a time.
      clock.set(new Date(clock.now().getTime() + 12 * 3600_000 + 60_000));
      await a.close();
      a = await start({ JWT_SECRET: NEW });
      await check(a, b, 'step 3, first instance');
      await b.close();
      b = await start({ JWT_SECRET: NEW });
      await check(a, b, 'step 3 done');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a signup code mailed by an instance on one side of the rotation is taken by one on the other', async () => {
    const clock = before.clock;
    const inviter = await makeUser(before);
    const signUp = async (
      mailer: Awaited<ReturnType<typeof instance>>,
      taker: Awaited<ReturnType<typeof instance>>,
    ) => {
      clock.set(new Date(clock.now().getTime() + 61_000));
      const email = `rotation.${randomBytes(4).toString('hex')}@example.com`;
      expect((await call(mailer.t, 'POST', '/api/send-code', { body: { email } })).statusCode).toBe(200);
      return call(taker.t, 'POST', '/api/register', {
        body: signupBody({
          invitationCode: inviter.user.invitationCode,
          email,
          verificationCode: before.smtp.codeFor(email),
        }),
      });
    };
    const old = await instance({ JWT_SECRET: OLD, JWT_SECRET_NEXT: NEW }, clock);
    const rotated = await instance({ JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD }, clock);
    const done = await instance({ JWT_SECRET: NEW }, clock);
    try {
      for (const [mailer, taker] of [
        [old, rotated],
        [rotated, old],
      ] as const) {
        const res = await signUp(mailer, taker);
        expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
      }
      // Once the old secret is gone everywhere, a code it sealed is wrong (codes live 10 minutes).
      const res = await signUp(old, done);
      expect(res.data).toEqual({ error: MSG.invalidCode, code: 'invalid_code' });
    } finally {
      await old.close();
      await rotated.close();
      await done.close();
    }
  });

  it('in production a guessable JWT_SECRET_PREVIOUS (kept from before the strength rule) verifies no token; its seeds are re-sealed', async () => {
    const WEAK = 'HarvestFarmProductionSecret2026!';
    const STRONG = randomBytes(32).toString('base64');
    // Its own database: every seed in it was sealed with the guessable secret.
    const old = await createTestApp({ JWT_SECRET: WEAK });
    const clock = old.clock;
    let token = '';
    let seed = '';
    const u = await makeUser(old);
    try {
      const setup = await call(old, 'POST', '/api/user/2fa/setup', { token: u.token, body: { password: u.password } });
      seed = setup.data.secret;
      const enable = await call(old, 'POST', '/api/user/2fa/enable', {
        token: u.token,
        body: { password: u.password, code: totpAt(seed, stepOf(clock.now())) },
      });
      expect(enable.statusCode).toBe(200);
      token = enable.data.token;
    } finally {
      await old.app.close();
    }
    const prod = await instance(
      {
        NODE_ENV: 'production',
        RATE_LIMITS: 'on',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
        PAYOUT_ADDRESS: '0x3333333333333333333333333333333333333333',
        CHAIN_RPC_URL: 'https://polygon-rpc.example.com',
        PUBLIC_URL: 'https://harvest.example.com',
        JWT_SECRET: STRONG,
        JWT_SECRET_PREVIOUS: WEAK,
      },
      clock,
      old,
    );
    try {
      // Whoever guessed the old secret could have signed this token: refused.
      expect((await call(prod.t, 'GET', '/api/user/me', { token })).statusCode).toBe(401);
      // The authenticator still works: its seed is re-sealed with the new secret.
      expect(await resealTotpSeeds(prod.ctx)).toBe(1);
      clock.set(new Date(clock.now().getTime() + 31_000));
      const login = await call(prod.t, 'POST', '/api/login', {
        body: { email: u.user.email, password: u.password, totpCode: totpAt(seed, stepOf(clock.now())) },
      });
      expect(login.statusCode, JSON.stringify(login.data)).toBe(200);
      expect((await call(prod.t, 'GET', '/api/user/me', { token: login.data.token })).statusCode).toBe(200);
    } finally {
      await prod.close();
      await old.close();
    }
  });

  it('JWT_SECRET_NEXT needs JWT_SECRET and must differ from it', () => {
    expect(() => loadConfig({ JWT_SECRET_NEXT: NEW })).toThrow(/JWT_SECRET_NEXT: needs JWT_SECRET/);
    expect(() => loadConfig({ JWT_SECRET: NEW, JWT_SECRET_NEXT: NEW })).toThrow(/JWT_SECRET_NEXT: must differ/);
  });

  it('JWT_SECRET_PREVIOUS needs JWT_SECRET, and must differ from it', () => {
    expect(() => loadConfig({ JWT_SECRET_PREVIOUS: OLD })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: OLD, JWT_SECRET_PREVIOUS: OLD })).toThrow(/JWT_SECRET_PREVIOUS: must differ/);
  });
});
