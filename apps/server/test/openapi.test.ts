import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@harvest/shared/errors';
import { call, createTestApp, PRODUCTION_ENV, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('OpenAPI document', () => {
  it('is served at /api/docs and lists the spec calls with their schemas', async () => {
    const res = await call(t, 'GET', '/api/docs');
    expect(res.statusCode).toBe(200);
    expect(res.data.openapi).toMatch(/^3\./);
    const paths = Object.keys(res.data.paths);
    for (const p of [
      '/api/login',
      '/api/register',
      '/api/send-code',
      '/api/user/me',
      '/api/user/profile',
      '/api/user/admin/toggle-block/{id}',
    ])
      expect(paths).toContain(p);
    expect(
      res.data.paths['/api/register'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('verificationCode');
  });

  it('shows the one error shape with every stable code on every call', async () => {
    const res = await call(t, 'GET', '/api/docs');
    const login = res.data.paths['/api/login'].post.responses;
    for (const range of ['4XX', '5XX']) {
      const schema = login[range].content['application/json'].schema;
      expect(schema.required).toEqual(['error', 'code']);
      expect(schema.properties.code.enum).toEqual(ERROR_CODES);
    }
    for (const [path, ops] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(res.data.paths))
      for (const [method, op] of Object.entries(ops)) expect(op.responses, `${method} ${path}`).toHaveProperty('4XX');
  });

  it('is not served in production', async () => {
    const prod = await createTestApp(PRODUCTION_ENV);
    try {
      expect((await call(prod, 'GET', '/api/docs')).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
