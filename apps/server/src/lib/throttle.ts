import { MSG } from '@harvest/shared/messages';
import type { CounterStore } from './counter-store.ts';
import { tooMany } from './errors.ts';

/**
 * Counts failures (wrong passwords, wrong codes) per key in a fixed window and refuses with
 * 429 + Retry-After once the limit is reached. The counters live in the context's store:
 * in memory for one instance, in Redis (REDIS_URL) when several instances share the load.
 */
export class FailureThrottle {
  constructor(
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly store: CounterStore,
    private readonly enabled: boolean,
  ) {}

  /** Throws 429 when the key has used up its failures. */
  async check(key: string): Promise<void> {
    if (!this.enabled) return;
    const w = await this.store.peek(`${this.name}:${key}`);
    if (w && w.count >= this.max) throw tooMany(MSG.tooManyRequests, w.ttlMs / 1000);
  }

  async fail(key: string): Promise<void> {
    if (!this.enabled) return;
    await this.store.hit(`${this.name}:${key}`, this.windowMs);
  }

  async reset(key: string): Promise<void> {
    if (!this.enabled) return;
    await this.store.reset(`${this.name}:${key}`);
  }
}
