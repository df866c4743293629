import { vi } from 'vitest';

// Password hashes in the suite cost the least argon2id allows: tests exercise what is hashed and checked, not
// the cost. The production parameters are tested once, in a process of their own (src/lib/passwords.test.ts).
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    hash: (password: string | Uint8Array, options?: Parameters<typeof real.hash>[1]) =>
      real.hash(password, { ...options, memoryCost: 8, timeCost: 1, parallelism: 1 }),
  };
});
