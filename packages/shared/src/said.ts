/**
 * A text with values in it, as the server says it (docs/decisions/0084): `text` is the English, filled in (the
 * spec's words, what `error` or `message` carries), `template` the same English with {placeholders} (the
 * catalogue's key), `params` the values as data, so another language says them its own way.
 *
 * A placeholder's name says what its value is:
 * - `left`: a duration in milliseconds ("2h 5m");
 * - `at`: an instant, ISO 8601;
 * - `amount`, `gross`, `fee`, `net`, `limit`: micro-USDC, as a decimal integer string;
 * - `field`: the English label of a field (said in the person's language);
 * - any other: a number (a count, hours) or a text said as it is (an address, an e-mail address).
 */
export type Params = Record<string, string | number>;
export interface Said {
  text: string;
  template: string;
  params: Params;
}

export const said = (template: string, params: Params, text: string): Said => ({ text, template, params });

/** What a row keeps of a text with values beside its English: its template and values. */
export type StoredSaid = Omit<Said, 'text'>;
/** The template and values of a text to store with it: null for a plain text. */
export const storedSaid = (s: string | Said): StoredSaid | null =>
  typeof s === 'string' ? null : { template: s.template, params: s.params };
/** The English of a text, with or without values. */
export const englishOf = (s: string | Said): string => (typeof s === 'string' ? s : s.text);

/** The placeholders whose value is micro-USDC. */
export const AMOUNT_PARAMS: readonly string[] = ['amount', 'gross', 'fee', 'net', 'limit'];

/** A receipt's `{ message, template, params }`: the English, and what another language says it by. */
export const receipt = (s: Said) => ({ message: s.text, template: s.template, params: s.params });
