import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level and bigints as decimal strings: one text for one value. */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** The SHA-256 of a value's canonical form. */
export const payloadHash = (value: unknown) => sha256Hex(canonicalJson(value));
