import { useEffect, useState } from 'react';
import { t } from '../../../lib/i18n.tsx';

/**
 * "Now" on the server's clock, ticking every second: the offset between the server's
 * serverTime and the moment the answer arrived is applied to the browser clock, so
 * countdowns follow the platform clock (which tests may move).
 */
export function useServerNow(serverTime: string | undefined, receivedAt: number): number {
  const offset = serverTime ? Date.parse(serverTime) - receivedAt : 0;
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setTick(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return tick + offset;
}

/** "7h 59m 12s" style countdown. */
export function countdownText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? t('{h}h {m}m {s}s', { h, m, s: sec }) : m > 0 ? t('{m}m {s}s', { m, s: sec }) : t('{s}s', { s: sec });
}
