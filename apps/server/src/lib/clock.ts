/** The one source of "now": injected everywhere so tests (and TEST_CLOCK) can move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that can be set; it keeps running from the time it was set to. */
export class SettableClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  set(to: Date): void {
    this.offsetMs = to.getTime() - Date.now();
  }
}
