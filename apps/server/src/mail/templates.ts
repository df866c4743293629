import { formatUsdc, microToText, microToUsdc } from '@harvest/shared/money';

/**
 * Every e-mail the platform sends about an account's money and security, as plain text plus simple
 * HTML from one description (a greeting, a lead sentence, a table of figures, closing lines and an
 * optional link). Amounts are formatted as on screen (shared formatUsdc, 2 to 6 decimals, " USDC");
 * times in the platform time zone (investors keep no time zone of their own), named in the mail.
 */
export type MailEvent =
  | { kind: 'deposit_confirmed'; amount: bigint; txHash: string | null; at: Date }
  | { kind: 'deposit_failed'; amount: bigint; txHash: string | null; reason: string; at: Date }
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
      kind: 'withdrawal_approved';
      amount: bigint;
      fee: bigint;
      net: bigint;
      wallet: string;
      txHash: string;
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
  | { kind: 'two_factor_enabled' | 'two_factor_disabled' | 'password_changed'; at: Date; notMeUrl?: string }
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
      confirmUrl: string;
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
  | { kind: 'account_secured'; at: Date };

export type MailKind = MailEvent['kind'];

export interface MailSettings {
  timeZone: string;
  /** Block explorer base URL (https://polygonscan.com): a payout links to `${explorerUrl}/tx/${hash}`. */
  explorerUrl: string;
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

/** An amount as the screens show it: grouped, at least 2 and at most 6 decimals (all it has). */
export function usdcText(micro: bigint): string {
  const decimals = (microToText(micro < 0n ? -micro : micro).split('.')[1] ?? '').length;
  return `${formatUsdc(microToUsdc(micro), Math.max(2, decimals))} USDC`;
}

export function timeText(at: Date, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-US', {
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
const notMeLink = (href: string | undefined) =>
  href ? { links: [{ text: "This wasn't me: secure my account", href }] } : {};

const RETURNED_TO = { earnings: 'your earnings', rewards: 'your referral rewards', balance: 'your balance' } as const;

/** The person a mail is for, read in the event's transaction: `balance` is the balance after the event. */
export interface MailRecipient {
  firstName: string;
  balance: bigint;
}

function body(e: MailEvent, to: MailRecipient, s: MailSettings): Body {
  const when = timeText(e.at, s.timeZone);
  const notYou = `If this was not you, contact ${s.supportEmail} at once.`;
  switch (e.kind) {
    case 'deposit_confirmed':
      return {
        subject: `Deposit confirmed: ${usdcText(e.amount)}`,
        lead: `Your deposit of ${usdcText(e.amount)} has been confirmed and credited to your balance.`,
        rows: [
          ['Amount', usdcText(e.amount)],
          ['Transaction hash', e.txHash ?? '—'],
          ['New balance', usdcText(to.balance)],
          ['Confirmed', when],
        ],
        closing: [],
      };
    case 'deposit_failed':
      return {
        subject: `Deposit failed: ${usdcText(e.amount)}`,
        lead: `Your deposit of ${usdcText(e.amount)} could not be credited.`,
        rows: [
          ['Amount', usdcText(e.amount)],
          ['Transaction hash', e.txHash ?? '—'],
          ['Reason', e.reason],
          ['Date', when],
        ],
        closing: [
          'What to do: open the Deposit tab and find this deposit under Failed Deposits. Correct the transaction hash and amount (and the from-address, if that was wrong) and choose Update & Retry to have it checked again, or dismiss it if you no longer want it.',
        ],
      };
    case 'withdrawal_requested':
      return {
        subject: `Withdrawal requested: ${usdcText(e.net)}`,
        lead: `We received your withdrawal request for ${e.count === 1 ? '1 item' : `${e.count} items`}.`,
        rows: [
          ['Gross', usdcText(e.gross)],
          ['Fee', usdcText(e.fee)],
          ['Net to be paid', usdcText(e.net)],
          ['Wallet', e.wallet],
          ['Requested', when],
        ],
        closing: ['Withdrawals may take up to 48 hours to process.', notYou],
      };
    case 'withdrawal_approved':
      return {
        subject: `Withdrawal paid: ${usdcText(e.net)}`,
        lead: `Your withdrawal has been approved and ${usdcText(e.net)} was sent to your wallet.`,
        rows: [
          ['Amount', usdcText(e.amount)],
          ['Fee', usdcText(e.fee)],
          ['Net paid', usdcText(e.net)],
          ['Wallet', e.wallet],
          ['Transaction hash', e.txHash],
          ...(e.notes ? ([['Notes', e.notes]] as [string, string][]) : []),
          ['Approved', when],
        ],
        closing: [],
        links: [{ text: 'View the transaction on the Polygon explorer', href: `${s.explorerUrl}/tx/${e.txHash}` }],
      };
    case 'withdrawal_rejected':
      return {
        subject: `Withdrawal rejected: ${usdcText(e.amount)}`,
        lead: `Your withdrawal of ${usdcText(e.amount)} was rejected; the amount is back in ${RETURNED_TO[e.returnedTo]}.`,
        rows: [
          ['Amount', usdcText(e.amount)],
          ['Returned to', RETURNED_TO[e.returnedTo]],
          ['Notes', e.notes ?? '—'],
          ['Date', when],
        ],
        closing: [],
      };
    case 'two_factor_enabled':
      return {
        subject: 'Two-factor authentication turned on',
        lead: 'Two-factor authentication was turned on for your account: signing in now asks for a code from your authenticator app.',
        rows: [['Date', when]],
        closing: [notYou],
      };
    case 'two_factor_disabled':
      return {
        subject: 'Two-factor authentication turned off',
        lead: 'Two-factor authentication was turned off for your account.',
        rows: [['Date', when]],
        closing: [notYou],
        ...notMeLink(e.notMeUrl),
      };
    case 'password_changed':
      return {
        subject: 'Your password was changed',
        lead: 'The login password of your account was changed; other sessions were signed out.',
        rows: [['Date', when]],
        closing: [notYou],
        ...notMeLink(e.notMeUrl),
      };
    case 'email_changed':
      return {
        subject: 'Your e-mail address was changed',
        lead: `The e-mail address of your account was changed from ${e.oldEmail} to ${e.newEmail}.`,
        rows: [
          ['Old address', e.oldEmail],
          ['New address', e.newEmail],
          ['Date', when],
        ],
        closing: [notYou],
      };
    case 'new_device_sign_in':
      return {
        subject: 'New sign-in to your Harvest Farm account',
        lead: 'Your account was signed in to from a device it had not used before.',
        rows: [
          ['Time', when],
          ['Device', e.device],
          ['IP address', e.ip],
        ],
        closing: [
          'If this was you, there is nothing to do.',
          `If it was not: the link above signs out every session and freezes withdrawals at once. Then sign in, change your password and turn on the authenticator in Profile; ${s.supportEmail} lifts the freeze.`,
        ],
        links: [{ text: "This wasn't me: secure my account", href: e.notMeUrl }],
      };
    case 'sign_in_failures':
      return {
        subject: 'Failed sign-ins to your Harvest Farm account',
        lead: `Someone failed to sign in to your account ${e.count} times within an hour. Nobody got in.`,
        rows: [
          ['Last attempt', when],
          ['What failed', e.reason],
          ['Device', e.device],
          ['IP address', e.ip],
        ],
        closing: [
          'If this was you, there is nothing to do. We send this warning at most once an hour.',
          'If it was not: change your password, and turn on the authenticator in Profile. A failed authenticator code means the password itself was right.',
        ],
      };
    case 'address_added':
      return {
        subject: `New withdrawal address added: ${e.label}`,
        lead: 'A withdrawal address was added to your address book. It becomes usable only once you confirm it and its cool-down has ended.',
        rows: [
          ['Label', e.label],
          ['Address', e.address],
          ['Added', when],
          ['Device', e.device],
          ['IP address', e.ip],
          ['Usable from', timeText(e.usableAt, s.timeZone)],
        ],
        closing: [
          'The confirmation link works once, within 1 hour.',
          `If you did not add this address, do not confirm it: the "this wasn't me" link removes it, signs out every session and freezes withdrawals. Then change your password; ${s.supportEmail} lifts the freeze.`,
        ],
        links: [
          { text: 'Confirm this address', href: e.confirmUrl },
          { text: "This wasn't me: secure my account", href: e.notMeUrl },
        ],
      };
    case 'withdrawal_lock_off_requested':
      return {
        subject: 'Confirm: turn off the withdrawal address lock',
        lead: `You asked to turn off the withdrawal address lock. Once you confirm, it stays on for ${e.hours} more hours, then Withdraw All may pay to any address again.`,
        rows: [
          ['Asked', when],
          ['Device', e.device],
          ['IP address', e.ip],
        ],
        closing: [
          'The confirmation link works once, within 1 hour.',
          `If you did not ask for this, do not confirm it: the "this wasn't me" link keeps the lock on, signs out every session and freezes withdrawals. ${s.supportEmail} lifts the freeze.`,
        ],
        links: [
          { text: 'Confirm: turn the lock off', href: e.confirmUrl },
          { text: "This wasn't me: secure my account", href: e.notMeUrl },
        ],
      };
    case 'account_secured':
      return {
        subject: 'Your Harvest Farm account was secured',
        lead: 'You reported that a sign-in or change was not yours: every session of your account was signed out and withdrawals are frozen.',
        rows: [['Date', when]],
        closing: [
          'Next: sign in, change your password and turn on the authenticator in Profile.',
          `Then contact ${s.supportEmail} to have withdrawals unfrozen.`,
        ],
      };
  }
}

const escapeHtml = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function renderMail(e: MailEvent, to: MailRecipient, s: MailSettings): RenderedMail {
  const b = body(e, to, s);
  const greeting = `Hello ${to.firstName},`;
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
    '<!doctype html><html><body style="font-family:Arial,sans-serif;color:#0f172a">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(b.lead)}</p>`,
    '<table style="border-collapse:collapse">',
    ...b.rows.map(
      ([label, value]) =>
        `<tr><th style="text-align:left;padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    ...(b.links ?? []).map((l) => `<p><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></p>`),
    ...b.closing.map((line) => `<p>${escapeHtml(line)}</p>`),
    '<p>— Harvest Farm</p>',
    '</body></html>',
  ].join('\n');
  return { subject: b.subject, text, html };
}
