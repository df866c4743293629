import { msg } from '@harvest/shared/i18n';
import type { DepositStatus, DepositType } from '@harvest/shared/schemas/deposits';

export const STATUS_LABEL: Record<DepositStatus, string> = {
  pending: msg('Pending'),
  confirmed: msg('Confirmed'),
  failed: msg('Failed'),
};
export const STATUS_STYLE: Record<DepositStatus, string> = {
  pending: 'bg-amber-100 text-amber-800',
  confirmed: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-rose-100 text-rose-800',
};
export const TYPE_LABEL: Record<DepositType, string> = {
  demo: msg('Demo'),
  real: msg('On-chain'),
  admin_credit: msg('Admin credit'),
};
