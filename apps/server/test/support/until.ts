/** Polls `fn` until it gives a value (not null or undefined), or fails after `ms`. */
export async function until<T>(
  fn: () => T | null | undefined | Promise<T | null | undefined>,
  ms: number,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
