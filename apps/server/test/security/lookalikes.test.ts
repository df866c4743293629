import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { call, createTestApp, makeUser, signupBody, type TestApp, type TestUser } from '../helpers.ts';

/**
 * Look-alike accounts and self-referral. `аdmin@...` (a Cyrillic а) and names holding U+202E or
 * zero-width characters would sit beside the real accounts; `box@`, `box+1@`, `box+2@`... of one
 * mailbox would earn referral rewards on their own investments. So invisible and
 * text-direction characters are refused in names and e-mail addresses, e-mail parts that mix alphabets
 * are refused, and a mailbox (the address without its +tag; at Gmail also without dots) has one account.
 */
let t: TestApp;
let inviter: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  inviter = await makeUser(t);
});
afterAll(() => t.close());

const tag = () => randomUUID().slice(0, 6);

async function register(email: string, over: Record<string, unknown> = {}) {
  const sent = await call(t, 'POST', '/api/send-code', { body: { email } });
  const code = sent.statusCode === 200 ? t.smtp.codeFor(email) : '000000';
  return call(t, 'POST', '/api/register', {
    body: signupBody({ invitationCode: inviter.user.invitationCode, email, verificationCode: code, ...over }),
  });
}

describe('look-alike e-mail addresses and names', () => {
  it('an e-mail part mixing alphabets (a Cyrillic а in "admin") is refused at send-code and register', async () => {
    const email = `\u0430dmin-${tag()}@example.com`;
    const sent = await call(t, 'POST', '/api/send-code', { body: { email } });
    expect(sent.statusCode).toBe(400);
    expect(sent.data).toEqual({ error: MSG.emailMixedScripts, code: 'validation' });
    const res = await register(email);
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toBe(MSG.emailMixedScripts);
    // The domain too: exаmple.com with a Cyrillic а.
    expect(
      (await call(t, 'POST', '/api/send-code', { body: { email: `ops${tag()}@ex\u0430mple.com` } })).data.error,
    ).toBe(MSG.emailMixedScripts);
  });

  it('zero-width and text-direction characters are refused in e-mail addresses', async () => {
    for (const email of [`ad\u200bmin${tag()}@example.com`, `admin${tag()}\u202e@example.com`]) {
      const res = await call(t, 'POST', '/api/send-code', { body: { email } });
      expect(res.statusCode, JSON.stringify(email)).toBe(400);
      expect(res.data.error).toBe(MSG.emailInvisible);
    }
  });

  it('names with U+202E or zero-width characters are refused at register and in the profile', async () => {
    for (const [field, value] of [
      ['firstName', 'Ada\u202eecalevol'],
      ['lastName', 'Love\u200blace'],
      ['firstName', '\u2066Ada\u2069'],
    ] as const) {
      const res = await register(`ada.${tag()}@example.com`, { [field]: value });
      expect(res.statusCode, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(res.data).toEqual({ error: MSG.nameInvisible, code: 'validation' });
    }
    const u = await makeUser(t);
    const res = await call(t, 'PUT', '/api/user/profile', {
      token: u.token,
      body: { firstName: 'Plat\u200dform', lastName: 'Admin' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toBe(MSG.nameInvisible);
    // Names in other alphabets are fine.
    expect((await register(`ivan.${tag()}@example.com`, { firstName: 'Иван', lastName: '山田' })).statusCode).toBe(200);
  });
});

describe('one account per mailbox', () => {
  it('box+1@ and box+2@ of an existing box@ are refused with a clear message', async () => {
    const box = `box${tag()}`;
    expect((await register(`${box}@example.com`)).statusCode).toBe(200);
    for (const email of [`${box}+1@example.com`, `${box}+2@example.com`, `${box.toUpperCase()}+x@EXAMPLE.com`]) {
      const res = await register(email);
      expect(res.statusCode, email).toBe(409);
      expect(res.data).toEqual({ error: MSG.mailboxTaken, code: 'conflict', field: 'email' });
    }
    // Another mailbox at the same domain is another person.
    expect((await register(`${box}x@example.com`)).statusCode).toBe(200);
  });

  it('at Gmail the dots do not matter and googlemail.com is gmail.com', async () => {
    const name = `first${tag()}`;
    expect((await register(`${name}.last@gmail.com`)).statusCode).toBe(200);
    for (const email of [`${name}last@gmail.com`, `${name}.l.a.s.t+ref@googlemail.com`]) {
      const res = await register(email);
      expect(res.statusCode, email).toBe(409);
      expect(res.data.error).toBe(MSG.mailboxTaken);
    }
    // Elsewhere dots are part of the mailbox's name.
    const other = `first${tag()}`;
    expect((await register(`${other}.last@example.org`)).statusCode).toBe(200);
    expect((await register(`${other}last@example.org`)).statusCode).toBe(200);
  });

  it("an administrator's e-mail change cannot take another account's mailbox", async () => {
    const box = `owner${tag()}`;
    expect((await register(`${box}@example.com`)).statusCode).toBe(200);
    const admin = await makeUser(t, { isAdmin: true });
    const res = await call(t, 'PUT', '/api/user/admin/update-email', {
      token: admin.token,
      body: { newEmail: `${box}+admin@example.com`, password: admin.password },
    });
    expect(res.statusCode).toBe(409);
    expect(res.data.error).toBe(MSG.mailboxTaken);
  });
});
