/** A remaining time in whole hours and minutes, rounded up to the minute (at least 1 minute). */
export function timeLeftParts(ms: number): { h: number; m: number } {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return { h: Math.floor(minutes / 60), m: minutes % 60 };
}

/** "2h 5m" style remaining time, rounded up to the minute. */
export function timeLeftText(ms: number): string {
  const { h, m } = timeLeftParts(ms);
  return h > 0 ? `${h}h ${m}m` : `${m}m`;
}
