import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import { call, createTestApp, makeUser, signupBody, uniqueEmail, type TestApp, type TestUser } from '../helpers.ts';

/**
 * A resend neither resets the wrong-code counter (unlimited guessing at 5 a minute) nor
 * cancels the code already sent (anyone could block a stranger's sign-up). After 5
 * wrong codes the address gets no new code and accepts none for 15 minutes, resends or not;
 * a resend leaves earlier unexpired codes valid (at most 3 live codes per address).
 */
describe('signup codes', () => {
  let t: TestApp;
  let inviter: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    inviter = await makeUser(t);
  });
  afterAll(() => t.close());

  const at = (ms: number) => t.clock.set(new Date(Date.now() + ms));
  const send = (email: string) => call(t, 'POST', '/api/send-code', { body: { email } });
  async function sendOk(email: string): Promise<string> {
    const res = await send(email);
    expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
    return t.smtp.codeFor(email);
  }
  const register = (email: string, code: string) =>
    call(t, 'POST', '/api/register', {
      body: signupBody({ invitationCode: inviter.user.invitationCode, email, verificationCode: code }),
    });
  const other = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

  it("a stranger's resend does not cancel the code already sent", async () => {
    at(0);
    const email = uniqueEmail();
    const first = await sendOk(email);
    at(61_000);
    await sendOk(email); // someone else asks again for the same address
    const res = await register(email, first);
    expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
  });

  it('keeps at most 3 live codes: the oldest of 4 is dropped', async () => {
    at(0);
    const email = uniqueEmail();
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      at(i * 61_000);
      codes.push(await sendOk(email));
    }
    const oldest = codes[0] ?? '';
    if (!codes.slice(1).includes(oldest))
      expect((await register(email, oldest)).data).toEqual({ error: MSG.invalidCode, code: 'invalid_code' });
    expect((await register(email, codes[1] ?? '')).statusCode).toBe(200);
  });

  it('5 wrong codes lock the address for 15 minutes, resends or not', async () => {
    at(0);
    const email = uniqueEmail();
    const code = await sendOk(email);
    for (let i = 0; i < 3; i++) expect((await register(email, other(code, i))).data.error).toBe(MSG.invalidCode);
    // A resend in between does not reset the count.
    at(61_000);
    const second = await sendOk(email);
    const wrong = (i: number) => [other(code, i), other(second, i)].find((c) => c !== code && c !== second) ?? '000000';
    expect((await register(email, wrong(10))).data.error).toBe(MSG.invalidCode);
    expect((await register(email, wrong(11))).data).toEqual({ error: MSG.codeTooManyTries, code: 'invalid_code' });

    // Locked: the right codes are refused and no new code is sent, for 15 minutes.
    for (const ms of [62_000, 5 * 60_000, 14 * 60_000 + 30_000]) {
      at(ms);
      expect((await register(email, second)).data).toEqual({ error: MSG.codeTooManyTries, code: 'invalid_code' });
      const again = await send(email);
      expect(again.statusCode).toBe(429);
      expect(again.data).toEqual({ error: MSG.codeTooManyTries, code: 'rate_limited' });
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Afterwards a new code works.
    at(61_000 + 15 * 60_000 + 1_000);
    const fresh = await sendOk(email);
    const res = await register(email, fresh);
    expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
    at(0);
  });
});
