import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import {
  call,
  createTestApp,
  makeUser,
  signupBody,
  uniqueEmail,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

let t: TestApp;
let inviter: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  inviter = await makeUser(t);
});
afterAll(() => t.close());

function payload(email: string, code: string, over: Record<string, unknown> = {}) {
  return signupBody({ invitationCode: inviter.user.invitationCode, email, verificationCode: code, ...over });
}

async function sendCode(email: string) {
  const res = await call(t, 'POST', '/api/send-code', { body: { email } });
  expect(res.statusCode).toBe(200);
  return t.smtp.codeFor(email);
}

describe('send-code', () => {
  it('mails a 6-digit code through SMTP and stores only its hash', async () => {
    const email = uniqueEmail();
    const res = await call(t, 'POST', '/api/send-code', { body: { email } });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ message: MSG.codeSent });
    const code = t.smtp.codeFor(email);
    expect(code).toMatch(/^\d{6}$/);
    const rows = await t.ctx.db.query.emailCodes.findMany();
    expect(rows.some((r) => r.codeHash.includes(code))).toBe(false);
  });

  it('asks for the e-mail first and checks its format', async () => {
    expect((await call(t, 'POST', '/api/send-code', { body: {} })).data).toEqual({
      error: MSG.emailFirst,
      code: 'validation',
    });
    expect((await call(t, 'POST', '/api/send-code', { body: { email: '  ' } })).data).toEqual({
      error: MSG.emailFirst,
      code: 'validation',
    });
    expect((await call(t, 'POST', '/api/send-code', { body: { email: 'nope' } })).data).toEqual({
      error: MSG.invalidEmail,
      code: 'validation',
    });
  });

  it('sends at most one code per minute per address', async () => {
    const email = uniqueEmail();
    await sendCode(email);
    const again = await call(t, 'POST', '/api/send-code', { body: { email } });
    expect(again.statusCode).toBe(429);
    expect(again.data.error).toBe(MSG.codeResendWait);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.set(new Date(Date.now() + 61_000));
    expect((await call(t, 'POST', '/api/send-code', { body: { email } })).statusCode).toBe(200);
    t.clock.set(new Date());
  });
});

describe('register', () => {
  it('creates the account with the referrer, answers a token and the user', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    const res = await call(t, 'POST', '/api/register', { body: payload(email.toUpperCase(), code) });
    expect(res.statusCode).toBe(200);
    expect(res.data.user).toMatchObject({
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+44 7700900123',
      isAdmin: false,
      isBlocked: false,
    });
    expect(res.data.user).not.toHaveProperty('passwordHash');
    const me = await call(t, 'GET', '/api/user/me', { token: res.data.token });
    expect(me.data.user.email).toBe(email);
    const row = await t.ctx.db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, email) });
    expect(row?.referrerId).toBe(inviter.user.id);
    expect(row?.phoneCountryCode).toBe('+44');
    expect(row?.phoneNumber).toBe('7700900123');
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    // The code is used up: a second registration with it fails.
    const again = await call(t, 'POST', '/api/register', { body: payload(uniqueEmail(), code) });
    expect(again.statusCode).toBe(400);
  });

  it('gives each validation message of the spec, in order, and writes nothing', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    const cases: [Record<string, unknown>, string][] = [
      [{ firstName: '' }, MSG.signupAllRequired],
      [{ verificationCode: undefined }, MSG.signupAllRequired],
      [{ phone: '   ' }, MSG.signupAllRequired],
      [{ confirmPassword: 'other-pass' }, MSG.passwordsMismatch],
      [{ password: 'abc', confirmPassword: 'abc' }, MSG.passwordTooShort],
      [{ withdrawalPassword: 'abc' }, MSG.withdrawalPasswordTooShort],
      [{ email: 'not-an-email' }, MSG.invalidEmail],
      [{ withdrawalPassword: 'secret-pass' }, MSG.withdrawalPasswordSame],
      [{ invitationCode: 'NOPE000000' }, MSG.invalidInvitation],
      [{ verificationCode: code === '000000' ? '111111' : '000000' }, MSG.invalidCode],
    ];
    for (const [over, message] of cases) {
      const res = await call(t, 'POST', '/api/register', { body: payload(email, code, over) });
      expect(res.statusCode, message).toBe(400);
      expect(res.data).toEqual({ error: message, code: message === MSG.invalidCode ? 'invalid_code' : 'validation' });
    }
    expect(await t.ctx.db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, email) })).toBeUndefined();
    const empty = await call(t, 'POST', '/api/register', { body: {} });
    expect(empty.data).toEqual({ error: MSG.signupAllRequired, code: 'validation' });
  });

  it('a name over its limit names the field and the limit, in the text and as values beside it', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    const res = await call(t, 'POST', '/api/register', { body: payload(email, code, { firstName: 'x'.repeat(101) }) });
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({
      error: 'First name must be at most 100 characters',
      code: 'validation',
      template: '{field} must be at most {max} characters',
      params: { field: 'First name', max: 100 },
    });
  });

  it('refuses an e-mail that already exists with the spec text', async () => {
    const existing = await makeUser(t);
    const code = await sendCode(existing.user.email);
    const res = await call(t, 'POST', '/api/register', { body: payload(existing.user.email, code) });
    expect(res.statusCode).toBe(409);
    expect(res.data).toEqual({ error: MSG.emailExists, code: 'conflict', field: 'email' });
  });

  it('locks the code after 5 wrong tries, counted exactly under 50 parallel guesses', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    const wrong = code === '999999' ? '999998' : '999999';
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call(t, 'POST', '/api/register', { body: payload(email, wrong) })),
    );
    expect(results.every((r) => r.statusCode === 400)).toBe(true);
    const row = await t.ctx.db.query.emailVerifications.findFirst({ where: (c, { eq }) => eq(c.email, email) });
    expect(row?.wrongTries).toBe(5);
    const right = await call(t, 'POST', '/api/register', { body: payload(email, code) });
    expect(right.data).toEqual({ error: MSG.codeTooManyTries, code: 'invalid_code' });
  });

  it('refuses an expired code', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    t.clock.set(new Date(Date.now() + 11 * 60_000));
    const res = await call(t, 'POST', '/api/register', { body: payload(email, code) });
    t.clock.set(new Date());
    expect(res.data).toEqual({ error: MSG.invalidCode, code: 'invalid_code' });
  });

  it('refuses extra fields such as isAdmin', async () => {
    const email = uniqueEmail();
    const code = await sendCode(email);
    const res = await call(t, 'POST', '/api/register', { body: { ...payload(email, code), isAdmin: true } });
    expect(res.statusCode).toBe(400);
    expect(await t.ctx.db.query.users.findFirst({ where: (u, { eq }) => eq(u.email, email) })).toBeUndefined();
  });
});

describe('login', () => {
  it('signs in with the right password only', async () => {
    const u = await makeUser(t);
    const ok = await call(t, 'POST', '/api/login', {
      body: { email: u.user.email.toUpperCase(), password: u.password },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.data.user.email).toBe(u.user.email);
    const bad = await call(t, 'POST', '/api/login', { body: { email: u.user.email, password: 'wrong-password' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.data).toEqual({ error: MSG.invalidCredentials, code: 'invalid_credentials' });
    const nobody = await call(t, 'POST', '/api/login', { body: { email: 'nobody@example.com', password: 'x' } });
    expect(nobody.data).toEqual({ error: MSG.invalidCredentials, code: 'invalid_credentials' });
  });

  it('requires e-mail and password', async () => {
    expect((await call(t, 'POST', '/api/login', { body: { email: '', password: 'x' } })).data).toEqual({
      error: MSG.loginRequired,
      code: 'validation',
    });
    expect((await call(t, 'POST', '/api/login', { body: { email: 'a@b.co' } })).data).toEqual({
      error: MSG.loginRequired,
      code: 'validation',
    });
  });
});
