/**
 * The platform's time zone (PLATFORM_TIMEZONE, sent with the session): the session sets it, lib/format.ts
 * shows times in it. Its own module so the first load (which sets it) does not carry the formatters.
 */
let zone: string | undefined;

export function setPlatformTimeZone(tz: string | undefined) {
  zone = tz;
}

export const platformTimeZone = (): string | undefined => zone;
