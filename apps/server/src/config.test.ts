import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { DEV_XPUB } from '../test/support/dev-wallet.ts';

const prod = {
  NODE_ENV: 'production',
  JWT_SECRET: 'b5Kq3v9XzL2pR8tW5mN7bH4jD6fG1sY0cAe7Hw2Qn4Zr8Ty1Lp6Mv0Xs9Cd3Ug5Ji=',
  DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
  CHAIN_RPC_URL: 'https://polygon-rpc.example.com',
  PAYOUT_ADDRESS: '0x3333333333333333333333333333333333333333',
  PUBLIC_URL: 'https://harvest.example.com',
};

describe('config validated at boot', () => {
  it('EXPLORER_URL: Polygonscan by default, without a trailing slash, or none when empty', () => {
    expect(loadConfig({}).EXPLORER_URL).toBe('https://polygonscan.com');
    expect(loadConfig({ EXPLORER_URL: 'https://amoy.polygonscan.com/' }).EXPLORER_URL).toBe(
      'https://amoy.polygonscan.com',
    );
    expect(loadConfig({ EXPLORER_URL: '' }).EXPLORER_URL).toBeNull();
    expect(() => loadConfig({ EXPLORER_URL: 'javascript:alert(1)' })).toThrow(/EXPLORER_URL/);
  });

  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      PLATFORM_TIMEZONE: 'UTC',
      CHAIN_ID: 137,
      DEPOSIT_CONFIRMATIONS: 30,
      rateLimits: true,
      adminRequire2fa: false,
    });
    expect(c.USDC_CONTRACTS).toEqual([
      '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
      '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
    ]);
  });

  it('accepts a complete production setting and turns the admin second factor on', () => {
    expect(loadConfig(prod).adminRequire2fa).toBe(true);
  });

  it.each([
    [{ TEST_CLOCK: '1' }, 'TEST_CLOCK'],
    [{ RATE_LIMITS: 'off' }, 'RATE_LIMITS'],
    [{ JWT_SECRET: '' }, 'JWT_SECRET'],
    [{ DEPOSIT_ADDRESS: '0x000000000000000000000000000000000000dEaD' }, 'DEPOSIT_ADDRESS'],
    [{ CHAIN_RPC_URL: '' }, 'CHAIN_RPC_URL'],
  ])('refuses %o in production', (over, name) => {
    expect(() => loadConfig({ ...prod, ...over })).toThrow(ConfigError);
    expect(() => loadConfig({ ...prod, ...over })).toThrow(name);
  });

  it('with per-investor addresses in production, asks for the block deposits start at (DEPOSIT_START_BLOCK)', () => {
    expect(() => loadConfig({ ...prod, DEPOSIT_XPUB: DEV_XPUB })).toThrow(
      /DEPOSIT_START_BLOCK: is required with DEPOSIT_XPUB/,
    );
    expect(loadConfig({ ...prod, DEPOSIT_XPUB: DEV_XPUB, DEPOSIT_START_BLOCK: '65000000' }).depositStartBlock).toBe(
      65_000_000n,
    );
    expect(loadConfig({ DEPOSIT_XPUB: DEV_XPUB }).depositStartBlock).toBe(0n);
    expect(() => loadConfig({ DEPOSIT_START_BLOCK: '-1' })).toThrow(/DEPOSIT_START_BLOCK/);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ PLATFORM_TIMEZONE: 'Mars/Olympus' })).toThrow(/PLATFORM_TIMEZONE/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DEPOSIT_ADDRESS: '0x123' })).toThrow(/DEPOSIT_ADDRESS/);
  });
});
