import { msg } from '@harvest/shared/i18n';
import type { WithdrawalStatus } from '@harvest/shared/schemas/withdrawals';

// Said with t() where shown: the labels are catalogue texts.
void [msg('Pending'), msg('Completed'), msg('Rejected')];

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
