/** Column values as the drivers hand them over (node-postgres and PGlite differ), turned into what the code uses. */
export type Big = bigint | string | number;
export type Ts = Date | string;
export const big = (v: Big | null | undefined): bigint => (v === null || v === undefined ? 0n : BigInt(v));
export const iso = (v: Ts): string => (v instanceof Date ? v : new Date(v)).toISOString();
export const isoOrNull = (v: Ts | null): string | null => (v === null ? null : iso(v));
export const date = (v: Ts): Date => (v instanceof Date ? v : new Date(v));
export const dateOrNull = (v: Ts | null | undefined): Date | null => (v === null || v === undefined ? null : date(v));
