import type { DepositStatus, DepositType } from '@harvest/shared/schemas/deposits';

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
