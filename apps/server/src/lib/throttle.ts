import { MSG } from '@harvest/shared/messages';
import { tooMany } from './errors.ts';
import type { Clock } from './clock.ts';

/**
 * Counts failures (wrong passwords, wrong codes) per key in a fixed window and refuses
 * with 429 + Retry-After once the limit is reached. In-memory: per server instance.
 */
export class FailureThrottle {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
    private readonly enabled: boolean,
  ) {}

  /** Throws 429 when the key has used up its failures. */
  check(key: string): void {
    if (!this.enabled) return;
    const now = this.clock.now().getTime();
    const h = this.hits.get(key);
    if (h && h.resetAt > now && h.count >= this.max) throw tooMany(MSG.tooManyRequests, (h.resetAt - now) / 1000);
  }

  fail(key: string): void {
    if (!this.enabled) return;
    const now = this.clock.now().getTime();
    const h = this.hits.get(key);
    if (!h || h.resetAt <= now) this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
    else h.count++;
    if (this.hits.size > 100_000) this.sweep(now);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(now: number) {
    for (const [k, h] of this.hits) if (h.resetAt <= now) this.hits.delete(k);
  }
}
