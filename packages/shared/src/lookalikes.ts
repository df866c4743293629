import { TEXT } from './texts.ts';

/**
 * Characters that change how text looks without being seen (docs/decisions/0069): controls, bidirectional
 * overrides and isolates (U+202A-U+202E, U+2066-U+2069), zero-width spaces and joiners (U+200B-U+200D,
 * U+2060, U+FEFF) and the other format characters (Unicode category Cf), line and paragraph separators.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

export const hasInvisible = (text: string): boolean => INVISIBLE.test(text);

/** Scripts an e-mail part may be written in; Japanese and Korean names mix Han with their own scripts. */
const SCRIPTS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['CJK', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u],
];

/** The scripts of the letters of `part` (digits and punctuation belong to none); unknown letters count as 'Other'. */
function scriptsOf(part: string): Set<string> {
  const found = new Set<string>();
  for (const ch of part) {
    if (!/\p{L}/u.test(ch)) continue;
    found.add(SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'Other');
  }
  return found;
}

/**
 * An address whose local part or a domain label mixes alphabets (`аdmin` with a Cyrillic а), the usual
 * way to make one account look like another. Each part may use any one script.
 */
export function mixesScripts(email: string): boolean {
  const at = email.lastIndexOf('@');
  const parts = [email.slice(0, at), ...email.slice(at + 1).split('.')];
  return parts.some((p) => scriptsOf(p).size > 1);
}

/** Why an address that has the form of an e-mail address still cannot be one (a look-alike), or null. */
export function emailLookalikeError(email: string): string | null {
  if (hasInvisible(email)) return TEXT.emailInvisible;
  return mixesScripts(email) ? TEXT.emailMixedScripts : null;
}
