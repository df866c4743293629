import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { TEXT } from '@harvest/shared/texts';
import { api, ApiError, errorText, setBlockedHandler, setSessionEndedHandler, tokenStore } from './api-client.ts';

const reply = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => {
  vi.unstubAllGlobals();
  setBlockedHandler(() => undefined);
  setSessionEndedHandler(() => undefined);
});

describe('api client errors', () => {
  it('enters the Blocked state on the code, whatever the words', async () => {
    const onBlocked = vi.fn();
    setBlockedHandler(onBlocked);
    vi.stubGlobal('fetch', reply(403, { error: 'Access suspended, write to us', code: 'blocked' }));
    const err = await api('/user/me', z.object({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 403, code: 'blocked', serverMessage: 'Access suspended, write to us' });
    expect(onBlocked).toHaveBeenCalledTimes(1);
  });

  it('does not enter it for another 403 that happens to say "blocked"', async () => {
    const onBlocked = vi.fn();
    setBlockedHandler(onBlocked);
    vi.stubGlobal('fetch', reply(403, { error: 'This action is blocked for investors', code: 'forbidden' }));
    await expect(api('/admin/users', z.object({}))).rejects.toMatchObject({ code: 'forbidden' });
    expect(onBlocked).not.toHaveBeenCalled();
  });

  it('a body outside the contract is an error without text or code; no network is status 0', async () => {
    vi.stubGlobal('fetch', reply(500, { oops: true }));
    await expect(api('/user/me', z.object({}))).rejects.toMatchObject({ status: 500, serverMessage: null, code: null });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(api('/user/me', z.object({}))).rejects.toMatchObject({ status: 0, code: null });
  });

  it("shows the server's text whenever it sent one, with or without a code", async () => {
    vi.stubGlobal('fetch', reply(500, { error: 'Custom server text' }));
    const err = await api('/login', z.object({})).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 500, serverMessage: 'Custom server text', code: null });
    expect(errorText(err, TEXT.loginFailed)).toBe('Custom server text');
    vi.stubGlobal('fetch', reply(400, { error: 'Odd', code: 'not_one_of_ours' }));
    expect(await api('/login', z.object({})).catch((e: unknown) => e)).toMatchObject({
      serverMessage: 'Odd',
      code: null,
    });
  });

  it("reads any duplicate-key text about the e-mail as the spec's 'Email already exists...'", async () => {
    vi.stubGlobal(
      'fetch',
      reply(500, { error: 'E11000 duplicate key error collection: users index: email_1 dup key' }),
    );
    const err = await api('/register', z.object({})).catch((e: unknown) => e);
    expect(errorText(err, TEXT.registrationFailed)).toBe(TEXT.emailExists);
    const coded = new ApiError(409, 'duplicate key value violates unique constraint "users_email_unique"', 'conflict');
    expect(errorText(coded, TEXT.profileFailed)).toBe(TEXT.emailExists);
    expect(errorText(new ApiError(409, 'duplicate key on the phone', 'conflict'), 'x')).toBe(
      'duplicate key on the phone',
    );
  });
});

describe('an ended session', () => {
  it('any 401 of a call that needs the session ends it, even when another tab already took the token', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    tokenStore.clear();
    vi.stubGlobal('fetch', reply(401, { error: 'Please sign in to continue', code: 'unauthorized' }));
    await api('/user/dashboard', z.object({})).catch(() => undefined);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('a wrong password, or a failed sign-in, is a 401 that ends nothing', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    tokenStore.set('tok');
    vi.stubGlobal('fetch', reply(401, { error: 'Withdrawal password is incorrect', code: 'wrong_password' }));
    await api('/withdrawal/request-all', z.object({})).catch(() => undefined);
    vi.stubGlobal('fetch', reply(401, { error: 'Invalid email or password', code: 'unauthorized' }));
    await api('/login', z.object({})).catch(() => undefined);
    expect(ended).not.toHaveBeenCalled();
  });
});
