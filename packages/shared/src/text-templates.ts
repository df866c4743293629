/**
 * The English patterns of the texts the server and the shared schemas make with values in them (the functions in
 * messages.ts and texts.ts): the web recognises such a text by its pattern and says it in the person's language
 * with the same values (lib/i18n.tsx#tx), since server errors keep their English text (docs/decisions/0075).
 * Each pattern is a catalogue key; locales.test.ts checks that every function's text matches one.
 * Loaded only with a language other than English.
 */
export const TEXT_TEMPLATES = [
  '{field} must be at most {max} characters',
  'A batch holds at most {n} withdrawals',
  'Too many password changes on this account. Please try again in {left}.',
  '{n} sets of pending withdrawals to this wallet add up to this amount: choose the one it paid',
  'Payout batch of {n} withdrawal created',
  'Payout batch of {n} withdrawals created',
  'The balances were read a moment ago. Try again in {n} second.',
  'The balances were read a moment ago. Try again in {n} seconds.',
  'This transfer was read from the blockchain, so it cannot be corrected ({reason}). Send a new deposit to your deposit address instead.',
  'This transfer was read from the blockchain, so it cannot be corrected. Send a new deposit to your deposit address instead.',
  'The balance changed to {amount}\u00a0USDC. Review and try again.',
  'Transaction not found on the Polygon network (chain {chainId}). Check the hash, and that you sent it on Polygon, then correct this deposit.',
  'This transaction does not transfer USDC on Polygon (token contract {contracts}). Only USDC on the Polygon network is accepted: check the network and token.',
  'This transaction does not transfer USDC on Polygon. Only USDC on the Polygon network is accepted: check the network and token.',
  'Wrong recipient: this transaction sent USDC to {to}, not to the platform deposit address {address}.',
  'Wrong sender: the USDC in this transaction came from {from}, not from the address you entered ({entered}). Enter the address you sent from.',
  'Amount differs: the chain shows {chain} for this transfer, but you entered {entered} USDC. Correct the amount to {amount}.',
  'This transfer went to {to}, not to your deposit address {yours}. Only transfers to your own deposit address can be submitted.',
  'This transaction is not on the Polygon network (chain {chainId}) yet. Deposits to your address show up by themselves once mined; try again in a minute if it does not.',
  'The next cycle becomes available 48 hours after your approved withdrawal: {left} left.',
  'This cycle is not finished yet: {left} left.',
  'Cycle completed: {amount}\u00a0USDC earned.',
  'Withdrawal request submitted for 1 item: {gross}\u00a0USDC gross, {fee}\u00a0USDC fee, {net}\u00a0USDC to be paid. Withdrawals may take up to 48 hours to process.',
  'Withdrawal request submitted for {n} items: {gross}\u00a0USDC gross, {fee}\u00a0USDC fee, {net}\u00a0USDC to be paid. Withdrawals may take up to 48 hours to process.',
  'Address added. Confirm it from the link we e-mailed you within 1 hour; it becomes usable {hours} hours after it was added.',
  'Your address book holds at most {n} addresses. Remove one first.',
  'With the withdrawal address lock on, withdrawals go only to an address of your address book. Add this address in Profile: it becomes usable {hours} hours after you add it, once you confirm it.',
  'This address is not confirmed yet: open the link we e-mailed you. Once confirmed it becomes usable at {at}.',
  'This address becomes usable at {at} (in {left}).',
  'Withdrawals are frozen on this account. Contact {support} to have the freeze lifted.',
  'The withdrawal address lock is already turning off: it ends at {at}.',
  'We e-mailed you a link to confirm. The lock turns off {hours} hours after you confirm it.',
  'Confirmed: the withdrawal address lock turns off at {at}.',
  '1 other session signed out',
  '{n} other sessions signed out',
  '1 session signed out',
  '{n} sessions signed out',
  '1 other session',
  '{n} other sessions',
] as const;

/** Patterns of values inside those texts ("2h 5m" left, "5m"), said again in the person's language. */
export const PART_TEMPLATES = ['{h}h {m}m', '{m}m'] as const;

/** The field names the schemas' "must be at most" texts name (tooLongText), said in the person's language. */
export const FIELD_NAMES = [
  'Email',
  'Password',
  'Withdrawal password',
  'Invitation code',
  'First name',
  'Last name',
  'Phone number',
  'Verification code',
] as const;

/** A template's English as a pattern that reads its values back out of a text ("... {left} left." -> left). */
export const templatePattern = (id: string): RegExp =>
  new RegExp(
    `^${id.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => `(?<${name}>.+?)`)}$`,
    's',
  );
