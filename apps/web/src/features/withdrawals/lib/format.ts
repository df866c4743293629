import { HASH_SHOWN_CHARS } from '@harvest/shared/constants';
import { formatUsdc } from '@harvest/shared/money';
import type { WithdrawalStatus } from '@harvest/shared/schemas/withdrawals';

/** Spec: pending shows Pending, approved (or completed) shows Completed, rejected shows Rejected. */
export function statusLabel(status: WithdrawalStatus | 'completed'): 'Pending' | 'Completed' | 'Rejected' {
  if (status === 'approved' || status === 'completed') return 'Completed';
  if (status === 'rejected') return 'Rejected';
  return 'Pending';
}

export const STATUS_STYLE: Record<ReturnType<typeof statusLabel>, string> = {
  Pending: 'bg-amber-100 text-amber-800',
  Completed: 'bg-emerald-100 text-emerald-800',
  Rejected: 'bg-rose-100 text-rose-800',
};

/** Transaction hashes are shown cut to 20 characters (spec section 9). */
export const shortHash = (hash: string) =>
  hash.length > HASH_SHOWN_CHARS ? `${hash.slice(0, HASH_SHOWN_CHARS)}...` : hash;

export const usd = (v: number) => `${formatUsdc(v, 2)} USDC`;
/** Exact amounts (fees to the micro-USDC) where rounding to cents would hide them. */
export const usdExact = (v: number) =>
  `${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })} USDC`;

export const dateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
