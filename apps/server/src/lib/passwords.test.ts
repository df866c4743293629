import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('password hashes', () => {
  // The suite hashes with the cheapest parameters (test/setup-cheap-hashes.ts); the server itself, run as it
  // runs in production (a process of its own, no test setup), uses argon2id with OWASP's parameters.
  it('are argon2id, 19 MiB, 2 passes, one lane, and verify', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { hashPassword, verifyPassword } = await import('./src/lib/passwords.ts');
         const h = await hashPassword('correct horse');
         console.log(JSON.stringify({ h, ok: await verifyPassword(h, 'correct horse'), bad: await verifyPassword(h, 'wrong') }));`,
      ],
      { cwd: serverDir, encoding: 'utf8' },
    );
    const r = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { h: string; ok: boolean; bad: boolean };
    expect(r.h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(r).toMatchObject({ ok: true, bad: false });
  });
});
