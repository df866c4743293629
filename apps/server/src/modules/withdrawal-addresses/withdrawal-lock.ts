import type { WithdrawalLock } from '@harvest/shared/schemas/user';

/** The lock as a users row holds it. */
export interface LockColumns {
  withdrawalLock: boolean;
  withdrawalLockEndsAt: Date | null;
}

/**
 * The lock in force at `now`: the platform's rule (WITHDRAWAL_ADDRESS_LOCK=required) wins; a lock turned off
 * holds until its end time (the cool-down after the e-mailed confirmation), then it is off.
 */
export function withdrawalLockOf(u: LockColumns, now: Date, required: boolean): WithdrawalLock {
  if (required) return { status: 'on', endsAt: null, required: true };
  if (!u.withdrawalLock) return { status: 'off', endsAt: null, required: false };
  if (!u.withdrawalLockEndsAt) return { status: 'on', endsAt: null, required: false };
  if (u.withdrawalLockEndsAt.getTime() > now.getTime())
    return { status: 'turning_off', endsAt: u.withdrawalLockEndsAt.toISOString(), required: false };
  return { status: 'off', endsAt: null, required: false };
}

/** Whether Withdraw All must pay to an active address of the book. */
export const lockHolds = (lock: WithdrawalLock) => lock.status !== 'off';
