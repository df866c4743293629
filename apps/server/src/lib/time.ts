const partsCache = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsCache.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
    });
    partsCache.set(timeZone, f);
  }
  return f;
}

/** The last minute's parts per zone: a date's parts change only at a minute boundary, and Intl is slow. */
const lastParts = new Map<string, { minute: number; parts: Record<string, string> }>();

function parts(at: Date, timeZone: string) {
  const minute = Math.floor(at.getTime() / 60_000);
  const last = lastParts.get(timeZone);
  if (last?.minute === minute) return last.parts;
  const out: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(at)) out[p.type] = p.value;
  lastParts.set(timeZone, { minute, parts: out });
  return out;
}

/** Calendar date (YYYY-MM-DD) of an instant in the platform time zone. */
export function platformDay(at: Date, timeZone: string): string {
  const p = parts(at, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** Monday to Friday in the platform time zone. */
export function isWeekday(at: Date, timeZone: string): boolean {
  const wd = parts(at, timeZone).weekday;
  return wd !== 'Sat' && wd !== 'Sun';
}
