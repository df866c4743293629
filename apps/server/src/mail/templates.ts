import { intlLocale, type Translate } from '@harvest/shared/i18n';
import { formatUsdc, microToText, microToUsdc } from '@harvest/shared/money';
import { AMOUNT_PARAMS, type StoredSaid } from '@harvest/shared/said';
import { sayDevice } from '@harvest/shared/security-texts';
import { timeLeftParts } from '@harvest/shared/time-left';
import { shownAddress } from '@harvest/shared/address';
import { knownText, translator } from '../lib/i18n.ts';

/**
 * Every e-mail the platform sends about an account's money and security, as plain text plus simple
 * HTML from one description (a greeting, a lead sentence, a table of figures, closing lines and an
 * optional link). Amounts are formatted as on screen (shared formatUsdc, 2 to 6 decimals, " USDC");
 * times in the platform time zone (investors keep no time zone of their own), named in the mail.
 * Written in the recipient's language (their account's locale, docs/decisions/0075).
 */
export type MailEvent =
  | { kind: 'deposit_confirmed'; amount: bigint; txHash: string | null; at: Date }
  | {
      kind: 'deposit_failed';
      amount: bigint;
      txHash: string | null;
      reason: string;
      /** The reason's template and values when it has values (absent in mails queued before they were kept). */
      reasonSaid?: StoredSaid | null;
      at: Date;
    }
  | {
      kind: 'withdrawal_requested';
      count: number;
      gross: bigint;
      fee: bigint;
      net: bigint;
      wallet: string;
      at: Date;
    }
  | {
      /** One Withdraw All request paid (all its withdrawals decided): its approved ones added up. */
      kind: 'withdrawal_approved';
      amount: bigint;
      fee: bigint;
      net: bigint;
      wallet: string;
      /** Every transfer that paid it, in the order they were approved. */
      txHashes: string[];
      notes: string | null;
      at: Date;
    }
  | {
      kind: 'withdrawal_rejected';
      amount: bigint;
      returnedTo: 'earnings' | 'rewards' | 'balance';
      notes: string | null;
      at: Date;
    }
  | {
      kind: 'two_factor_enabled' | 'two_factor_disabled' | 'password_changed' | 'withdrawal_password_changed';
      at: Date;
      notMeUrl?: string;
    }
  | {
      kind: 'passkey_added' | 'passkey_removed';
      name: string;
      last: boolean;
      device: string;
      at: Date;
      notMeUrl: string;
    }
  | { kind: 'email_changed'; oldEmail: string; newEmail: string; at: Date }
  | { kind: 'new_device_sign_in'; ip: string; device: string; notMeUrl: string; at: Date }
  | { kind: 'sign_in_failures'; count: number; ip: string; device: string; reason: string; at: Date }
  | {
      kind: 'address_added';
      label: string;
      address: string;
      ip: string;
      device: string;
      usableAt: Date;
      /** Null for an address its wallet proved (no e-mailed confirmation). */
      confirmUrl: string | null;
      notMeUrl: string;
      at: Date;
    }
  | {
      kind: 'withdrawal_lock_off_requested';
      hours: number;
      ip: string;
      device: string;
      confirmUrl: string;
      notMeUrl: string;
      at: Date;
    }
  | { kind: 'account_secured'; at: Date }
  /** An opted-in investor's running cycle became ready to complete (`earning`: what completing it records). */
  | { kind: 'cycle_ready'; tier: string; amount: bigint; earning: bigint; endedAt: Date; at: Date }
  | { kind: 'withdrawal_unpayable'; net: bigint; wallet: string; at: Date }
  | { kind: 'chain_alarm'; alarm: string; detail: string; at: Date }
  /** An owner invited this person to the staff: the link sets their first password. */
  | { kind: 'staff_invite'; role: string; url: string; hours: number; at: Date };

export type MailKind = MailEvent['kind'];

export interface MailSettings {
  timeZone: string;
  /** Block explorer base URL (https://polygonscan.com): a payout links to `${explorerUrl}/tx/${hash}`; null: no links. */
  explorerUrl: string | null;
  supportEmail: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Body {
  subject: string;
  lead: string;
  rows: [string, string][];
  closing: string[];
  links?: { text: string; href: string }[];
}

/** An amount as the screens show it (in the locale's digits and separators): grouped, at least 2 and at most 6 decimals (all it has). */
export function usdcTextIn(micro: bigint, locale = 'en'): string {
  return `${usdcNumberIn(micro, locale)} USDC`;
}

function usdcNumberIn(micro: bigint, locale: string): string {
  const decimals = Math.max(2, (microToText(micro < 0n ? -micro : micro).split('.')[1] ?? '').length);
  const n = microToUsdc(micro);
  return locale === 'en'
    ? formatUsdc(n, decimals)
    : n.toLocaleString(intlLocale(locale), { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/**
 * A stored text in the recipient's language: by its template, its values written the language's way (said.ts
 * names them), when it kept them; else the text itself, translated when the catalogue has it.
 */
function sayStored(t: Translate, locale: string, text: string, said: StoredSaid | null | undefined, timeZone: string) {
  if (!said) return knownText(locale, text);
  const value = (name: string, v: string | number): string => {
    if (typeof v === 'number') {
      if (name !== 'left') return v.toLocaleString(intlLocale(locale));
      const { h, m } = timeLeftParts(v);
      return h > 0 ? t('{h}h {m}m', { h, m }) : t('{m}m', { m });
    }
    if (name === 'at') return timeText(new Date(v), timeZone, locale);
    if (AMOUNT_PARAMS.includes(name) && /^-?\d+$/.test(v)) return usdcNumberIn(BigInt(v), locale);
    return name === 'field' || name === 'reason' ? knownText(locale, v) : v;
  };
  return t(said.template, Object.fromEntries(Object.entries(said.params).map(([k, v]) => [k, value(k, v)])));
}

export function timeText(at: Date, timeZone: string, locale = 'en'): string {
  const text = new Intl.DateTimeFormat(intlLocale(locale), {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${text} (${timeZone})`;
}

/** The "this wasn't me" link of an alert, when it has one. */
const notMe = (t: Translate, href: string) => ({ text: t("This wasn't me: secure my account"), href });
const notMeLink = (t: Translate, href: string | undefined) => (href ? { links: [notMe(t, href)] } : {});

const returnedTo = (t: Translate, to: 'earnings' | 'rewards' | 'balance') =>
  to === 'earnings' ? t('your earnings') : to === 'rewards' ? t('your referral rewards') : t('your balance');

/** The person a mail is for, read in the event's transaction: `balance` is the balance after the event. */
export interface MailRecipient {
  firstName: string;
  balance: bigint;
  /** Their language (users.locale); English when unknown. */
  locale?: string;
}

function body(e: MailEvent, to: MailRecipient, s: MailSettings, t: Translate): Body {
  const locale = to.locale ?? 'en';
  const when = timeText(e.at, s.timeZone, locale);
  const usdcText = (micro: bigint) => usdcTextIn(micro, locale);
  const notYou = t('If this was not you, contact {support} at once.', { support: s.supportEmail });
  switch (e.kind) {
    case 'deposit_confirmed':
      return {
        subject: t('Deposit confirmed: {amount}', { amount: usdcText(e.amount) }),
        lead: t('Your deposit of {amount} has been confirmed and credited to your balance.', {
          amount: usdcText(e.amount),
        }),
        rows: [
          [t('Amount'), usdcText(e.amount)],
          [t('Transaction hash'), e.txHash ?? '—'],
          [t('New balance'), usdcText(to.balance)],
          [t('Confirmed'), when],
        ],
        closing: [],
      };
    case 'deposit_failed':
      return {
        subject: t('Deposit failed: {amount}', { amount: usdcText(e.amount) }),
        lead: t('Your deposit of {amount} could not be credited.', { amount: usdcText(e.amount) }),
        rows: [
          [t('Amount'), usdcText(e.amount)],
          [t('Transaction hash'), e.txHash ?? '—'],
          [t('Reason'), sayStored(t, locale, e.reason, e.reasonSaid, s.timeZone)],
          [t('Date'), when],
        ],
        closing: [
          t(
            'What to do: open the Deposit tab and find this deposit under Failed Deposits. Correct the transaction hash and amount (and the from-address, if that was wrong) and choose Update & Retry to have it checked again, or dismiss it if you no longer want it.',
          ),
        ],
      };
    case 'withdrawal_requested':
      return {
        subject: t('Withdrawal requested: {amount}', { amount: usdcText(e.net) }),
        lead:
          e.count === 1
            ? t('We received your withdrawal request for 1 item.')
            : t('We received your withdrawal request for {n} items.', { n: e.count }),
        rows: [
          [t('Gross'), usdcText(e.gross)],
          [t('Fee'), usdcText(e.fee)],
          [t('Net to be paid'), usdcText(e.net)],
          [t('Wallet'), shownAddress(e.wallet)],
          [t('Requested'), when],
        ],
        closing: [t('Withdrawals may take up to 48 hours to process.'), notYou],
      };
    case 'withdrawal_approved':
      return {
        subject: t('Withdrawal paid: {amount}', { amount: usdcText(e.net) }),
        lead: t('Your withdrawal has been approved and {amount} was sent to your wallet.', { amount: usdcText(e.net) }),
        rows: [
          [t('Amount'), usdcText(e.amount)],
          [t('Fee'), usdcText(e.fee)],
          [t('Net paid'), usdcText(e.net)],
          [t('Wallet'), shownAddress(e.wallet)],
          ...e.txHashes.map((hash, i): [string, string] => [
            e.txHashes.length === 1 ? t('Transaction hash') : t('Transfer {n}', { n: i + 1 }),
            hash,
          ]),
          ...(e.notes ? ([[t('Notes'), e.notes]] as [string, string][]) : []),
          [t('Approved'), when],
        ],
        closing: [],
        links: s.explorerUrl
          ? e.txHashes.map((hash, i) => ({
              text:
                e.txHashes.length === 1
                  ? t('View the transaction on the Polygon explorer')
                  : t('View transfer {n} on the Polygon explorer', { n: i + 1 }),
              href: `${s.explorerUrl}/tx/${hash}`,
            }))
          : [],
      };
    case 'withdrawal_rejected':
      return {
        subject: t('Withdrawal rejected: {amount}', { amount: usdcText(e.amount) }),
        lead: t('Your withdrawal of {amount} was rejected; the amount is back in {where}.', {
          amount: usdcText(e.amount),
          where: returnedTo(t, e.returnedTo),
        }),
        rows: [
          [t('Amount'), usdcText(e.amount)],
          [t('Returned to'), returnedTo(t, e.returnedTo)],
          [t('Notes'), e.notes ? knownText(locale, e.notes) : '—'],
          [t('Date'), when],
        ],
        closing: [],
      };
    case 'two_factor_enabled':
      return {
        subject: t('Two-factor authentication turned on'),
        lead: t(
          'Two-factor authentication was turned on for your account: signing in now asks for a code from your authenticator app.',
        ),
        rows: [[t('Date'), when]],
        closing: [notYou],
      };
    case 'two_factor_disabled':
      return {
        subject: t('Two-factor authentication turned off'),
        lead: t('Two-factor authentication was turned off for your account.'),
        rows: [[t('Date'), when]],
        closing: [notYou],
        ...notMeLink(t, e.notMeUrl),
      };
    case 'passkey_added':
      return {
        subject: t('A passkey was added to your account'),
        lead: t('The passkey {name} was added to your account from {device}.', { name: e.name, device: e.device }),
        rows: [[t('Date'), when]],
        closing: [notYou],
        ...notMeLink(t, e.notMeUrl),
      };
    case 'passkey_removed':
      return {
        subject: t('A passkey was removed from your account'),
        lead: e.last
          ? t(
              'The passkey {name}, the last one of your account, was removed from {device}: signing in needs your password again, and withdrawals are held for a while.',
              { name: e.name, device: e.device },
            )
          : t('The passkey {name} was removed from your account from {device}.', { name: e.name, device: e.device }),
        rows: [[t('Date'), when]],
        closing: [notYou],
        ...notMeLink(t, e.notMeUrl),
      };
    case 'password_changed':
      return {
        subject: t('Your password was changed'),
        lead: t('The login password of your account was changed; other sessions were signed out.'),
        rows: [[t('Date'), when]],
        closing: [notYou],
        ...notMeLink(t, e.notMeUrl),
      };
    case 'withdrawal_password_changed':
      return {
        subject: t('Your withdrawal password was changed'),
        lead: t(
          'The withdrawal password of your account was changed; withdrawals are held for a while as a precaution.',
        ),
        rows: [[t('Date'), when]],
        closing: [notYou],
        ...notMeLink(t, e.notMeUrl),
      };
    case 'email_changed':
      return {
        subject: t('Your e-mail address was changed'),
        lead: t('The e-mail address of your account was changed from {old} to {new}.', {
          old: e.oldEmail,
          new: e.newEmail,
        }),
        rows: [
          [t('Old address'), e.oldEmail],
          [t('New address'), e.newEmail],
          [t('Date'), when],
        ],
        closing: [notYou],
      };
    case 'new_device_sign_in':
      return {
        subject: t('New sign-in to your Harvest Farm account'),
        lead: t('Your account was signed in to from a device it had not used before.'),
        rows: [
          [t('Time'), when],
          [t('Device'), sayDevice(t, e.device)],
          [t('IP address'), e.ip],
        ],
        closing: [
          t('If this was you, there is nothing to do.'),
          t(
            'If it was not: the link above signs out every session and freezes withdrawals at once. Then sign in, change your password and turn on the authenticator in Profile; {support} lifts the freeze.',
            { support: s.supportEmail },
          ),
        ],
        ...notMeLink(t, e.notMeUrl),
      };
    case 'sign_in_failures':
      return {
        subject: t('Failed sign-ins to your Harvest Farm account'),
        lead: t('Someone failed to sign in to your account {n} times within an hour. Nobody got in.', { n: e.count }),
        rows: [
          [t('Last attempt'), when],
          [t('What failed'), knownText(locale, e.reason)],
          [t('Device'), sayDevice(t, e.device)],
          [t('IP address'), e.ip],
        ],
        closing: [
          t('If this was you, there is nothing to do. We send this warning at most once an hour.'),
          t(
            'If it was not: change your password, and turn on the authenticator in Profile. A failed authenticator code means the password itself was right.',
          ),
        ],
      };
    case 'address_added':
      return {
        subject: t('New withdrawal address added: {label}', { label: e.label }),
        lead: t(
          'A withdrawal address was added to your address book. It becomes usable only once you confirm it and its cool-down has ended.',
        ),
        rows: [
          [t('Label'), e.label],
          [t('Address'), shownAddress(e.address)],
          [t('Added'), when],
          [t('Device'), sayDevice(t, e.device)],
          [t('IP address'), e.ip],
          [t('Usable from'), timeText(e.usableAt, s.timeZone, locale)],
        ],
        closing: [
          ...(e.confirmUrl ? [t('The confirmation link works once, within 1 hour.')] : []),
          t(
            'If you did not add this address, do not confirm it: the "this wasn\'t me" link removes it, signs out every session and freezes withdrawals. Then change your password; {support} lifts the freeze.',
            { support: s.supportEmail },
          ),
        ],
        links: [
          ...(e.confirmUrl ? [{ text: t('Confirm this address'), href: e.confirmUrl }] : []),
          notMe(t, e.notMeUrl),
        ],
      };
    case 'withdrawal_lock_off_requested':
      return {
        subject: t('Confirm: turn off the withdrawal address lock'),
        lead: t(
          'You asked to turn off the withdrawal address lock. Once you confirm, it stays on for {hours} more hours, then Withdraw All may pay to any address again.',
          { hours: e.hours },
        ),
        rows: [
          [t('Asked'), when],
          [t('Device'), sayDevice(t, e.device)],
          [t('IP address'), e.ip],
        ],
        closing: [
          t('The confirmation link works once, within 1 hour.'),
          t(
            'If you did not ask for this, do not confirm it: the "this wasn\'t me" link keeps the lock on, signs out every session and freezes withdrawals. {support} lifts the freeze.',
            { support: s.supportEmail },
          ),
        ],
        links: [{ text: t('Confirm: turn the lock off'), href: e.confirmUrl }, notMe(t, e.notMeUrl)],
      };
    case 'withdrawal_unpayable':
      return {
        subject: t('Your withdrawal cannot be paid to this address'),
        lead: t(
          'USDC refuses transfers to {wallet} (the token issuer blocked this address), so your withdrawal of {amount} cannot be paid there.',
          { wallet: shownAddress(e.wallet), amount: usdcText(e.net) },
        ),
        rows: [
          [t('Amount'), usdcText(e.net)],
          [t('Wallet'), shownAddress(e.wallet)],
          [t('Date'), when],
        ],
        closing: [
          t('We will return the money to your account. Then use Withdraw All again with another address.'),
          t('Questions: {support}', { support: s.supportEmail }),
        ],
      };
    case 'chain_alarm':
      return {
        subject: t('Chain alarm: {kind}', { kind: e.alarm }),
        lead: t('The chain watcher raised an alarm that an administrator must look at (admin Solvency panel).'),
        rows: [
          [t('Alarm'), e.alarm],
          [t('What happened'), e.detail],
          [t('Date'), when],
        ],
        closing: [t('Acknowledge it in the Solvency panel once it is handled.')],
      };
    case 'staff_invite':
      return {
        subject: t('You are invited to the Harvest Farm staff'),
        lead: t(
          'You are invited to join the Harvest Farm staff. Choose your password with the link below: it works once, for {hours} hours.',
          { hours: e.hours },
        ),
        rows: [
          [t('Role'), e.role],
          [t('Date'), when],
        ],
        closing: [t('Then sign in and turn on the authenticator in Profile: staff actions need it.'), notYou],
        links: [{ text: t('Choose my password'), href: e.url }],
      };
    case 'cycle_ready':
      return {
        subject: t('Your {tier} cycle is ready to complete', { tier: e.tier }),
        lead: t(
          'The 8-hour earning cycle of your {tier} investment has ended. Complete it in the Investments tab to record its earning.',
          { tier: e.tier },
        ),
        rows: [
          [t('Tier'), e.tier],
          [t('Amount'), usdcText(e.amount)],
          [t('Earning per cycle'), usdcText(e.earning)],
          [t('Cycle ended'), timeText(e.endedAt, s.timeZone, locale)],
        ],
        closing: [t('You asked for this reminder in Profile; you can turn it off there.')],
      };
    case 'account_secured':
      return {
        subject: t('Your Harvest Farm account was secured'),
        lead: t(
          'You reported that a sign-in or change was not yours: every session of your account was signed out, its passkeys were removed and withdrawals are frozen.',
        ),
        rows: [[t('Date'), when]],
        closing: [
          t('Next: sign in, change your password and turn on the authenticator in Profile.'),
          t('Then contact {support} to have withdrawals unfrozen.', { support: s.supportEmail }),
        ],
      };
  }
}

const escapeHtml = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function renderMail(e: MailEvent, to: MailRecipient, s: MailSettings): RenderedMail {
  const t = translator(to.locale);
  const b = body(e, to, s, t);
  const greeting = t('Hello {name},', { name: to.firstName });
  const rtl = to.locale === 'ar';
  const width = Math.max(...b.rows.map(([label]) => label.length)) + 2;
  const text = [
    greeting,
    '',
    b.lead,
    '',
    ...b.rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    ...(b.links ?? []).flatMap((l) => ['', `${l.text}: ${l.href}`]),
    ...b.closing.flatMap((line) => ['', line]),
    '',
    '— Harvest Farm',
    '',
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${to.locale ?? 'en'}"${rtl ? ' dir="rtl"' : ''}><body style="font-family:Arial,sans-serif;color:#0f172a">`,
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(b.lead)}</p>`,
    '<table style="border-collapse:collapse">',
    ...b.rows.map(
      ([label, value]) =>
        `<tr><th style="text-align:start;padding-block:4px;padding-inline:0 12px">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    ...(b.links ?? []).map((l) => `<p><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></p>`),
    ...b.closing.map((line) => `<p>${escapeHtml(line)}</p>`),
    '<p>— Harvest Farm</p>',
    '</body></html>',
  ].join('\n');
  return { subject: b.subject, text, html };
}

/** An amount in English, as the spec writes it. */
export const usdcText = (micro: bigint) => usdcTextIn(micro);
