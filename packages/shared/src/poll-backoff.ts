/** The longest a poll shed for overload waits before it asks again. */
export const POLL_BACKOFF_MAX_MS = 60_000;

/**
 * How long a poll that the server shed (503 `overloaded`, decision 0096) `times` times in a row waits before it
 * asks again: at least the server's Retry-After, and its own interval doubled for each refusal, up to a minute. The
 * web's polls and the bench's simulated investors both wait this long.
 */
export function pollBackoffMs(times: number, everyMs: number, retryAfterMs: number): number {
  return Math.max(retryAfterMs, Math.min(POLL_BACKOFF_MAX_MS, everyMs * 2 ** times));
}
