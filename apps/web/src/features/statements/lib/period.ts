import { monthOf, statementQuery } from '@harvest/shared/schemas/statements';
import * as z from 'zod/mini';
import { platformTimeZone } from '../../../lib/time-zone.ts';
import type { Period } from '../api/statement.ts';

/** Today in the platform's calendar (PLATFORM_TIMEZONE), as YYYY-MM-DD: statements count platform days. */
export function platformToday(now = new Date()): string {
  const opts = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
  try {
    return new Intl.DateTimeFormat('en-CA', { ...opts, timeZone: platformTimeZone() }).format(now);
  } catch {
    return new Intl.DateTimeFormat('en-CA', opts).format(now);
  }
}

/** The month input's value (YYYY-MM) as a period of its whole month. */
export const monthPeriod = (month: string): Period => monthOf(`${month}-01`);

/** The server's rules for a period (real days, from <= to, at most a year): its message, or null when fine. */
export function periodError(p: Period): string | null {
  const r = z.safeParse(statementQuery, p);
  return r.success ? null : (r.error.issues[0]?.message ?? null);
}
