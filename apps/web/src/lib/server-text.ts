import type { ErrorCode } from '@harvest/shared/errors';
import { microToUsdc } from '@harvest/shared/money';
import { AMOUNT_PARAMS, type Params, type StoredSaid } from '@harvest/shared/said';
import { sayDevice } from '@harvest/shared/security-texts';
import { timeLeftParts } from '@harvest/shared/time-left';
import { count, dateTime, ltr, usdcNumber } from './format.ts';
import { codeText, isKnown, known, say, t, type Descriptor } from './i18n.tsx';

/** What the server said: its English, an error's code, and for a text with values its template and values. */
export interface ServerText {
  text: string;
  code?: ErrorCode | null;
  template?: string | undefined;
  params?: Params | undefined;
}

/**
 * The one place a server's text becomes a message descriptor (docs/decisions/0084): a text with values is said by
 * its template with its values written the current language's way; a text without is said by itself when the
 * catalogue has it, else by its code's sentence. English shows the server's own words (the spec).
 */
export function serverMessage(s: ServerText): Descriptor {
  if (s.template && s.params) return { id: s.template, message: s.text, values: localValues(s.params) };
  const byCode = s.code && !isKnown(s.text) ? codeText(s.code) : undefined;
  return { id: byCode ?? s.text, message: s.text };
}

export const sayServer = (s: ServerText): string => say(serverMessage(s));

/**
 * A text the server stored (a deposit's failure reason, a security event's detail) in the current language: by its
 * template and values when the row kept them, else the text itself (a row stored before they were kept).
 */
export const sayStored = (text: string, said: StoredSaid | null) => sayServer({ text, ...said });

/** A success answer's text: `message`, with `template` and `params` when it has values. */
export interface Receipt {
  message: string;
  template?: string | undefined;
  params?: Params | undefined;
}

/** A receipt in the current language. */
export const sayReceipt = (r: Receipt) => sayServer({ text: r.message, template: r.template, params: r.params });

/** A span of time as "2h 5m", rounded up to the minute, in the current language. */
export function duration(ms: number): string {
  const { h, m } = timeLeftParts(ms);
  return h > 0 ? t('{h}h {m}m', { h: count(h), m: count(m) }) : t('{m}m', { m: count(m) });
}

const localValues = (params: Params) =>
  Object.fromEntries(Object.entries(params).map(([name, v]) => [name, localValue(name, v)]));

/** A value by its placeholder's name (said.ts): durations, instants and amounts in the current language's way. */
function localValue(name: string, v: string | number): string {
  if (typeof v === 'number') {
    return name === 'left' ? duration(v) : count(v);
  }
  if (name === 'at') return dateTime(v);
  if (AMOUNT_PARAMS.includes(name) && /^-?\d+$/.test(v)) return usdcNumber(microToUsdc(BigInt(v)));
  if (name === 'device') return sayDevice(t, v);
  // A field's label or a stored reason: English words of ours. Anything else (an address) reads left to right.
  return name === 'field' || name === 'reason' ? known(v) : ltr(v);
}
