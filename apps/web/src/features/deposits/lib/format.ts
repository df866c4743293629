import { HASH_SHOWN_CHARS } from '@harvest/shared/constants';
import type { DepositStatus, DepositType } from '@harvest/shared/schemas/deposits';

/** Transaction hashes are cut to 20 characters on the deposit tab (spec section 9). */
export const cutHash = (hash: string | null, chars = HASH_SHOWN_CHARS) =>
  !hash ? '—' : hash.length > chars ? `${hash.slice(0, chars)}...` : hash;

export const STATUS_LABEL: Record<DepositStatus, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  failed: 'Failed',
};
export const STATUS_STYLE: Record<DepositStatus, string> = {
  pending: 'bg-amber-100 text-amber-800',
  confirmed: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-rose-100 text-rose-800',
};
export const TYPE_LABEL: Record<DepositType, string> = { demo: 'Demo', real: 'On-chain', admin_credit: 'Admin credit' };

export const usdcText = (v: number) =>
  `${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })} USDC`;
export const dateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
