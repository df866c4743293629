/**
 * What a row's values are in JS, the same on PGlite and node-postgres (checked by row-types.test.ts):
 * - int8, and so count(*): bigint (the driver parsers below; int4 stays number);
 * - numeric: the exact decimal text. A sum of int8 is numeric in PostgreSQL, so a query summing micro-USDC
 *   casts it `::bigint` (PostgreSQL refuses a sum out of int8's range rather than rounding it);
 * - json/jsonb: parsed (both drivers' defaults); date: 'YYYY-MM-DD' text;
 * - timestamptz/timestamp: Date. Drizzle sets every query's time parsers to return text (its time columns
 *   map that text themselves), so raw SQL rows get their Dates in rawRows (raw.ts) from the field types.
 */

export const INT8 = 20;
export const INT8_ARRAY = 1016;
export const TEXT_ARRAY = 1009;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;

export const parseInt8 = (v: string): bigint => BigInt(v);

/** PostgreSQL's timestamp text; one without a zone is UTC, as every time the app stores. */
const parseTime = (type: number, v: string): Date => new Date(type === TIMESTAMP ? `${v}Z` : v);

interface Field {
  name: string;
  dataTypeID: number;
}

/** Turns the time columns of raw rows (text from drizzle's parsers) into Dates, in place. */
export function decodeTimes(rows: Record<string, unknown>[], fields: readonly Field[] | undefined): void {
  const times = (fields ?? []).filter((f) => f.dataTypeID === TIMESTAMPTZ || f.dataTypeID === TIMESTAMP);
  if (times.length === 0) return;
  for (const row of rows)
    for (const f of times) {
      const v = row[f.name];
      if (typeof v === 'string') row[f.name] = parseTime(f.dataTypeID, v);
    }
}

/**
 * The values of a JSON object a statement built (json_build_object, read with the session: sessionRead): amounts as
 * exact text (`::text`, so no int8 passes through a JS number), times as ISO text, absent values as null.
 */
export type JsonRow = Record<string, unknown>;
export const jsonText = (v: unknown): string => String(v ?? '');
export const jsonTextOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
/** An amount; none (a ledger account not opened yet) is 0. */
export const jsonAmount = (v: unknown): bigint => BigInt((v as string | null) ?? 0);
export const jsonAmountOrNull = (v: unknown): bigint | null =>
  v === null || v === undefined ? null : BigInt(v as string);
export const jsonTime = (v: unknown): Date => new Date(v as string);
export const jsonTimeOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : jsonTime(v));
