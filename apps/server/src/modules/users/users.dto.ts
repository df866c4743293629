import { DEFAULT_LOCALE, isLocale } from '@harvest/shared/i18n';
import type { User, UserRef } from '@harvest/shared/schemas/user';
import type { AuthUser } from '../../plugins/auth.ts';

/** The public shape of a user: never hashes, secrets or token versions. */
export function toUserDto(u: AuthUser, depositAddress: string): User {
  return {
    _id: u.id,
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    phone: u.phoneCountryCode && u.phoneNumber ? `${u.phoneCountryCode} ${u.phoneNumber}` : null,
    isAdmin: u.isAdmin,
    isBlocked: u.isBlocked,
    depositAddress,
    withdrawalWallet: u.withdrawalWallet,
    invitationCode: u.invitationCode,
    twoFactorEnabled: u.totpEnabled,
    locale: isLocale(u.locale) ? u.locale : DEFAULT_LOCALE,
    createdAt: u.createdAt.toISOString(),
  };
}

/** Another person as lists name them (the spec's populated userId). */
export function toUserRef(u: { id: string; firstName: string; lastName: string; email: string }): UserRef {
  return { _id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email };
}
