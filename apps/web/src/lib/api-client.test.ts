import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { api, ApiError, setBlockedHandler } from './api-client.ts';

const reply = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => {
  vi.unstubAllGlobals();
  setBlockedHandler(() => undefined);
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
});
