import { createHmac } from 'node:crypto';
import Bowser from 'bowser';
import { UNKNOWN_DEVICE } from '@harvest/shared/security-texts';
import { addressKey } from './throttle.ts';

/** The user agent as kept and shown: at most this many characters. */
const MAX_UA = 300;

/** What bowser names from its own lists; anything else it reports is copied from the agent, which anyone can write. */
const BROWSERS = new Set(Object.values(Bowser.BROWSER_MAP));
const SYSTEMS = new Set(Object.values(Bowser.OS_MAP));
/** A model read from the agent ("iPhone", "Kindle Fire HD 7"): nothing that could be a link. */
const MODEL = /^[A-Za-z0-9 ]{1,24}$/;
const major = (version: string | undefined) => /^\d+/.exec(version ?? '')?.[0];

/**
 * A readable device for a user agent ("Chrome 140 on Windows 10", "Safari 17 on iPhone"), read once per sign-in
 * with bowser (MIT, 35 kB, no dependencies: smaller than ua-parser-js, which is AGPL since 2.0). It goes into the
 * new-device e-mail, so it holds only names from bowser's lists and version digits: an agent it does not know
 * ("curl/8.5.0", "Visit-https://evil.example/claim") is "Unknown device", never its own words.
 */
export function deviceName(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').trim().slice(0, MAX_UA);
  if (!ua) return UNKNOWN_DEVICE;
  const p = Bowser.parse(ua);
  const name = p.browser.name && BROWSERS.has(p.browser.name) ? p.browser.name : null;
  const browser = name && [name, major(p.browser.version)].filter(Boolean).join(' ');
  const model =
    p.platform.model && MODEL.test(p.platform.model) && p.platform.model !== p.os.name ? p.platform.model : null;
  const system = p.os.name && SYSTEMS.has(p.os.name) ? p.os.name : null;
  const version = p.os.versionName ?? (system === 'iOS' || system === 'Android' ? major(p.os.version) : null);
  const os = system && [system, version].filter(Boolean).join(' ');
  const where = model ?? os;
  // The web and the e-mails say "on" in the reader's language (sayDevice).
  if (browser && where) return `${browser} on ${where}`;
  return browser || where || UNKNOWN_DEVICE;
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
