import type { SecurityEventType } from '@harvest/shared/schemas/security';

export interface HoldTrigger {
  type: SecurityEventType;
  /** Only within the hold's hours after a sign-in from a new device (the new-device e-mail's rule). */
  afterNewDevice?: true;
}

/**
 * The security events that hold an investor's withdrawals for SECURITY_HOLD_HOURS from when they happen: the one
 * list, so a new trigger is one line. An address-book change holds only after a new-device sign-in: a thief's new
 * address waits, the owner's own changes from a known device do not.
 */
export const HOLD_TRIGGERS: readonly HoldTrigger[] = [
  { type: 'password_changed' },
  { type: 'withdrawal_password_changed' },
  { type: 'two_factor_disabled' },
  { type: 'email_changed' },
  { type: 'address_added', afterNewDevice: true },
  { type: 'address_removed', afterNewDevice: true },
  // Losing the phishing-proof factor: the last passkey removed, or a password sign-in on a new device after having one.
  { type: 'last_passkey_removed' },
  { type: 'password_sign_in_new_device' },
];
