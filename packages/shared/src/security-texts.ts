import { msg, type Translate } from './i18n.ts';
import { said } from './said.ts';

/**
 * The texts of the account-security screens (address book, withdrawal lock, sessions, e-mailed links) that the
 * shared schemas report and the web shows. Apart from TEXT, so only the chunks that show them carry them.
 */
export const SECURITY_TEXT = {
  labelRequired: 'Please enter a label for this address',
  labelInvisible: 'Labels cannot contain invisible or text-direction characters',
  addressRequired: 'Please enter the wallet address',
  linkIncomplete: 'This link is incomplete. Open it again from the e-mail.',
  passwordToTurnOff: 'Enter your login password to turn the lock off',
  signatureInvalid: 'The wallet signature is not valid',
} as const;

/** A sign-in event's detail when the device is new to the account (the new-device e-mail's rule). */
export const NEW_DEVICE = msg('New device');
/** A sign-in event's detail when a passkey signed in. */
export const WITH_A_PASSKEY = msg('With a passkey');

/** What the server calls a device it cannot name (apps/server/src/lib/device.ts). */
export const UNKNOWN_DEVICE = 'Unknown device';

/** A device as the server names it ("Chrome 140 on Windows 10"), said in the reader's language. */
export function sayDevice(t: Translate, device: string): string {
  if (device === UNKNOWN_DEVICE) return t('Unknown device');
  const named = /^(.+?) on (.+)$/.exec(device);
  return named ? t('{browser} on {os}', { browser: named[1] ?? '', os: named[2] ?? '' }) : device;
}

/** Security activity details with values in them (stored with their template and values, said by the web). */
export const SECURITY_DETAIL = {
  endsAt: (at: Date) => said('Ends {at}', { at: at.toISOString() }, `Ends ${at.toISOString()}`),
  /** One session signed out from the list: its device, and its address when known. */
  session: (device: string, ip: string | null) =>
    ip ? said('{device} ({ip})', { device, ip }, `${device} (${ip})`) : said('{device}', { device }, device),
  otherSessions: (n: number) =>
    said(
      n === 1 ? '1 other session' : '{n} other sessions',
      { n },
      n === 1 ? '1 other session' : `${n} other sessions`,
    ),
} as const;
