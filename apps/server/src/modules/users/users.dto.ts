import { DEFAULT_LOCALE, isLocale } from '@harvest/shared/i18n';
import { isRole } from '@harvest/shared/staff';
import type { User, UserRef } from '@harvest/shared/schemas/user';
import type { AppContext } from '../../context.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { depositAddressFor } from '../deposit-addresses/deposit-addresses.service.ts';
import { withdrawalLockOf } from '../withdrawal-addresses/withdrawal-lock.ts';

/** The public shape of a user as the API answers it (its deposit address handed out on first use). */
export async function userView(ctx: AppContext, u: AuthUser): Promise<User> {
  return toUserDto(u, await depositAddressFor(ctx, u.id), ctx.clock.now(), ctx.config);
}

/** The public shape of a user: never hashes, secrets or token versions. */
export function toUserDto(
  u: AuthUser,
  depositAddress: string,
  now: Date,
  config: { addressLockRequired: boolean; fourEyes: boolean },
): User {
  return {
    _id: u.id,
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    phone: u.phoneCountryCode && u.phoneNumber ? `${u.phoneCountryCode} ${u.phoneNumber}` : null,
    isAdmin: u.isAdmin,
    role: isRole(u.role) ? u.role : null,
    fourEyes: config.fourEyes,
    isBlocked: u.isBlocked,
    depositAddress,
    withdrawalWallet: u.withdrawalWallet,
    invitationCode: u.invitationCode,
    twoFactorEnabled: u.totpEnabled,
    locale: isLocale(u.locale) ? u.locale : DEFAULT_LOCALE,
    withdrawalLock: withdrawalLockOf(u, now, config.addressLockRequired),
    withdrawalsFrozen: u.withdrawalsFrozen,
    cycleReminders: u.cycleReminders,
    createdAt: u.createdAt.toISOString(),
  };
}

/** Another person as lists name them (the spec's populated userId). */
export function toUserRef(u: { id: string; firstName: string; lastName: string; email: string }): UserRef {
  return { _id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email };
}
