import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeUser, TEST_SECRET } from '../helpers.ts';
import { freePort } from '../net.ts';
import { ServerProcess } from '../support/processes.ts';
import { twoInstances, type TwoInstances } from './two-instances.ts';

/**
 * Revocation reaches an instance whose process was frozen (SIGSTOP) while the change happened: a block answered by
 * A is refused by B, a server process of the production build, as soon as it runs again. A system test: it starts
 * a process (revocation.test.ts has the in-process cases).
 */
let env: TwoInstances;
beforeAll(async () => {
  env = await twoInstances();
}, 120_000);
afterAll(() => env?.close());

describe('a frozen instance (child process, SIGSTOP)', () => {
  it('a block answered by A while B was frozen is refused by B as soon as B runs again', async () => {
    const port = await freePort();
    const child = new ServerProcess(
      port,
      {
        NODE_ENV: 'test',
        DATABASE_URL: env.scratch.url,
        DATABASE_POOL_SIZE: '4',
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'hf-revocation-data-')),
        RATE_LIMITS: 'off',
        ADMIN_REQUIRE_2FA: '0',
        JWT_SECRET: TEST_SECRET,
        SMTP_URL: env.smtp.url,
        LOG_LEVEL: 'warn',
      },
      { entry: 'dist' },
    );
    await child.start();
    try {
      const u = await makeUser(env.a);
      const get = () => fetch(`${child.baseUrl}/api/user/me`, { headers: { authorization: `Bearer ${u.token}` } });
      expect((await get()).status).toBe(200);

      child.signal('SIGSTOP');
      try {
        const block = await call(env.a, 'POST', `/api/user/admin/toggle-block/${u.user.id}`, {
          token: env.admin.token,
        });
        expect(block.statusCode).toBe(200);
      } finally {
        child.signal('SIGCONT');
      }
      const after = await get();
      expect(after.status).toBe(403);
      expect(((await after.json()) as { code: string }).code).toBe('blocked');
    } finally {
      await child.stop();
    }
  }, 120_000);
});
