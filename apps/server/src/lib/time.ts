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

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The platform zone's offset from UTC at an instant, in ms (positive east of Greenwich). Its formatter is made
 * once per zone: a poll's dashboard asks for it twice on a Friday evening or a weekend.
 */
function offsetMs(at: Date, timeZone: string): number {
  let f = clockFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    clockFormatters.set(timeZone, f);
  }
  const p = f.formatToParts(at);
  const n = (type: string) => Number(p.find((x) => x.type === type)?.value);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return local - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * When a cycle ending at `end` can first be completed (docs/DOMAIN.md: at or after its end, Monday to Friday):
 * its end on a weekday, else the start of the following Monday in the platform time zone.
 */
export function completableFrom(end: Date, timeZone: string): Date {
  if (isWeekday(end, timeZone)) return end;
  const daysToMonday = parts(end, timeZone).weekday === 'Sat' ? 2 : 1;
  const [y, m, d] = platformDay(end, timeZone).split('-').map(Number);
  const midnightUtc = Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + daysToMonday);
  // The zone's offset at local midnight (looked up twice: the first guess may sit across a clock change).
  const guess = midnightUtc - offsetMs(new Date(midnightUtc), timeZone);
  return new Date(midnightUtc - offsetMs(new Date(guess), timeZone));
}
