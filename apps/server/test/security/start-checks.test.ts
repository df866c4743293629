import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { call, createTestApp, makeUser, newSession, TEST_SECRET, type TestApp } from '../helpers.ts';

/**
 * Insecure defaults and start checks (the demo administrator's password is
 * proven with the real server in first-start.test.ts).
 */
const PROD = {
  NODE_ENV: 'production',
  JWT_SECRET: randomBytes(32).toString('base64url'),
  SMTP_URL: 'smtp://127.0.0.1:2525',
  DEPOSIT_ADDRESS: '0x1111111111111111111111111111111111111111',
  PAYOUT_ADDRESS: '0x3333333333333333333333333333333333333333',
  CHAIN_RPC_URL: 'https://polygon-rpc.example.com',
  PUBLIC_URL: 'https://harvest.example.com',
};

const configError = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return '';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
};

describe('start checks', () => {
  it('production without CHAIN_RPC_URL refuses to start, naming it', () => {
    expect(configError(PROD)).toBe('');
    const { CHAIN_RPC_URL: _drop, ...withoutChain } = PROD;
    expect(configError(withoutChain)).toMatch(/CHAIN_RPC_URL: is required when NODE_ENV=production/);
  });

  it('a low-entropy JWT_SECRET is refused; random ones are accepted', () => {
    for (const weak of ['a'.repeat(32), 'ab'.repeat(24), 'passwordpasswordpasswordpassword', 'x'.repeat(64)])
      expect(configError({ JWT_SECRET: weak }), weak).toMatch(/JWT_SECRET: is too predictable/);
    for (let i = 0; i < 200; i++) {
      expect(configError({ JWT_SECRET: randomBytes(16).toString('hex') })).toBe('');
      expect(configError({ JWT_SECRET: randomBytes(36).toString('base64url') })).toBe('');
    }
  });
});

describe('tokens and caching', () => {
  let t: TestApp;
  let web: string;
  beforeAll(async () => {
    web = mkdtempSync(path.join(os.tmpdir(), 'hf-web-'));
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(path.join(web, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(web, 'favicon.svg'), '<svg/>');
    mkdirSync(path.join(web, '.vite'));
    writeFileSync(
      path.join(web, '.vite/route-preloads.json'),
      JSON.stringify({ '/login': ['/assets/login-a1.js', '/assets/form-b2.js'], '/dashboard': ['/x" onload="y'] }),
    );
    writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><head><meta name="hf-support-email" content="x"></head><body><p>app</body>',
    );
    t = await createTestApp({ WEB_DIST: web });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('a validly signed token without exp (or iat, or sub) is refused', async () => {
    const u = await makeUser(t);
    const key = new TextEncoder().encode(TEST_SECRET);
    const now = Math.floor(Date.now() / 1000);
    const sid = await newSession(t, u.user.id);
    const base = () => new SignJWT({ tv: u.user.tokenVersion, sid }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' });
    const full = await base()
      .setSubject(u.user.id)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(key);
    expect((await call(t, 'GET', '/api/user/me', { token: full })).statusCode).toBe(200);
    const noExp = await base().setSubject(u.user.id).setIssuedAt(now).sign(key);
    const noIat = await base()
      .setSubject(u.user.id)
      .setExpirationTime(now + 600)
      .sign(key);
    for (const token of [noExp, noIat]) {
      const res = await call(t, 'GET', '/api/user/me', { token });
      expect(res.statusCode).toBe(401);
      expect(res.data.code).toBe('unauthorized');
    }
  });

  it('index.html is served no-cache on every path; hashed assets stay immutable', async () => {
    for (const url of ['/', '/dashboard', '/index.html', '/favicon.svg']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    // A page the build knows lists its own chunks as modulepreload links (only well-formed asset paths).
    const login = await t.app.inject({ method: 'GET', url: '/login?next=1' });
    expect(login.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/login-a1.js"><link rel="modulepreload" crossorigin href="/assets/form-b2.js"></head>',
    );
    for (const url of ['/', '/dashboard', '/signup']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('modulepreload');
      expect(res.body, url).toContain('<p>app');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('pages, assets and health checks carry the page headers; the API its own', async () => {
    for (const url of ['/', '/dashboard', '/assets/index-abc123.js', '/healthz', '/missing.png']) {
      const h = (await t.app.inject({ method: 'GET', url })).headers;
      expect(String(h['content-security-policy']), url).toMatch(/script-src 'self';.*frame-ancestors 'none'/);
      expect(h['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(h['x-content-type-options'], url).toBe('nosniff');
      expect(h['cross-origin-resource-policy'], url).toBe('same-origin');
    }
    for (const url of ['/api/tiers', '/api/nope']) {
      const h = (await t.app.inject({ method: 'GET', url })).headers;
      expect(h['content-security-policy'], url).toBe("default-src 'self';object-src 'none';frame-ancestors 'none'");
      expect(h['cross-origin-opener-policy'], url).toBeUndefined();
      expect(h['x-frame-options'], url).toBe('DENY');
      expect(h['cache-control'], url).toBe('no-store');
    }
  });
});
