import { createRequire } from 'node:module';

/**
 * Is a production signing secret at least 32 bytes of random data (docs/decisions/0069)? It must be the
 * hex or base64 (or base64url) text of 32 or more bytes, as `openssl rand -base64 48` or
 * `openssl rand -hex 32` print, and not made of words or sequences: a text in which common words
 * (English, the diceware list, breached passwords) and runs such as `abcd`, `4321` or `aaaa` cover half
 * the letters and digits is a phrase someone typed, not random data. A random value of that size never
 * comes near half: in 600,000 random 32-byte secrets the most was 0.40, and 0.4 or more came about once in
 * 100,000.
 */

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const MIN_BYTES = 32;
const MIN_RUN = 4;
const MAX_WORD = 24;
/** At or above this share a secret is words or sequences. */
export const STRUCTURED_LIMIT = 0.5;

const require = createRequire(import.meta.url);

/** Common words, diceware words and breached passwords of 4+ characters, lower-case; read only when asked. */
export function loadWords(): Set<string> {
  const en = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
  const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  const words = new Set<string>();
  for (const list of [
    en.dictionary['commonWords-en'],
    en.dictionary['wikipedia-en'],
    common.dictionary['diceware-common'],
    common.dictionary['passwords-common'],
  ])
    for (const w of list ?? []) if (w.length >= MIN_RUN) words.add(w.toLowerCase());
  return words;
}

/** `text[from, to)` steps by the same -1, 0 or +1 between neighbours: `abcd`, `9876`, `zzzz`. */
function isRun(text: string, from: number, to: number): boolean {
  const step = text.charCodeAt(from + 1) - text.charCodeAt(from);
  if (Math.abs(step) > 1) return false;
  for (let i = from + 2; i < to; i++) if (text.charCodeAt(i) - text.charCodeAt(i - 1) !== step) return false;
  return true;
}

/** The share of letters and digits of `secret` that words and runs cover (non-overlapping, the most they can). */
export function structuredShare(secret: string, words: Set<string> = loadWords()): number {
  const text = secret.toLowerCase();
  const best = new Array<number>(text.length + 1).fill(0);
  for (let end = 1; end <= text.length; end++) {
    best[end] = best[end - 1] ?? 0;
    for (let len = MIN_RUN; len <= Math.min(MAX_WORD, end); len++) {
      const start = end - len;
      if (words.has(text.slice(start, end)) || isRun(text, start, end))
        best[end] = Math.max(best[end] ?? 0, (best[start] ?? 0) + len);
    }
  }
  const alnum = secret.replace(/[^A-Za-z0-9]/g, '').length;
  return alnum === 0 ? 1 : (best[text.length] ?? 0) / alnum;
}

/** Bytes a hex or base64 text stands for, or null when it is neither. */
function encodedBytes(secret: string): number | null {
  if (HEX.test(secret)) return Math.floor(secret.length / 2);
  if (BASE64.test(secret) || BASE64URL.test(secret)) return Math.floor((secret.replace(/=+$/, '').length * 6) / 8);
  return null;
}

/** Why `secret` is not 32 random bytes, or null when it passes. */
export function randomSecretProblem(secret: string): string | null {
  const bytes = encodedBytes(secret);
  const advice = 'generate one with `openssl rand -base64 48`';
  if (bytes === null || bytes < MIN_BYTES)
    return `must be at least ${MIN_BYTES} random bytes written as hex or base64: ${advice}`;
  if (structuredShare(secret) >= STRUCTURED_LIMIT) return `is made of words or sequences, not random data: ${advice}`;
  return null;
}
