const formatters = new Map<string, Intl.DateTimeFormat>();

/** The date parts of an instant in a time zone (one formatter per zone: building one is the slow part). */
function parts(at: Date, timeZone: string): Record<string, string> {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(at)) out[p.type] = p.value;
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
