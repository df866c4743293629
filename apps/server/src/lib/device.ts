import { createHmac } from 'node:crypto';
import Bowser from 'bowser';
import { UNKNOWN_DEVICE } from '@harvest/shared/security-texts';
import { addressKey } from './throttle.ts';

/** The user agent as kept and shown: at most this many characters. */
const MAX_UA = 300;

/**
 * A readable device for a user agent ("Chrome 140 on Windows 10", "Safari 17.4 on iPhone"), read once per
 * sign-in with bowser (MIT, 35 kB, no dependencies: smaller than ua-parser-js, which is AGPL since 2.0).
 * An agent it does not know is shown by its first word ("curl/8.5.0"); none at all is "Unknown device".
 */
export function deviceName(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').trim().slice(0, MAX_UA);
  if (!ua) return UNKNOWN_DEVICE;
  const p = Bowser.parse(ua);
  const browser = [p.browser.name, p.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const model = p.platform.model && p.platform.model !== p.os.name ? p.platform.model : null;
  const os = [p.os.name, p.os.versionName ?? (p.os.name === 'iOS' || p.os.name === 'Android' ? p.os.version : null)]
    .filter(Boolean)
    .join(' ');
  const where = model ?? os;
  // The web and the e-mails say "on" in the reader's language (sayDevice).
  if (browser && where) return `${browser} on ${where}`;
  if (browser || where) return browser || where;
  return ua.split(/\s+/)[0]?.slice(0, 60) || UNKNOWN_DEVICE;
}

/**
 * Which device a sign-in came from, as a keyed hash: the random id the browser keeps (the web sends it), or
 * without one its user agent and network (the client address, IPv6 by /64). A thief cannot present the
 * owner's browser id, so their sign-in is a new device even with the same browser and system.
 */
export function deviceKey(secret: string, opts: { deviceId?: string; userAgent?: string; ip: string }): string {
  const source = opts.deviceId
    ? `id:${opts.deviceId}`
    : `ua:${(opts.userAgent ?? '').slice(0, MAX_UA)}|${addressKey(opts.ip)}`;
  return createHmac('sha256', secret).update(`device:${source}`).digest('base64url');
}
