import * as z from 'zod/mini';
import { MAX_LENGTH, MIN_PASSWORD_LENGTH } from '../constants.ts';
import { TEXT, tooLongText } from '../texts.ts';
import { emailLookalikeError, hasInvisible } from '../lookalikes.ts';
import { atMost, idSchema, isoDate, requiredText } from './common.ts';
import { LOCALES, msg } from '../i18n.ts';
import { ROLES } from '../staff.ts';

// The withdrawal lock lives here, not in security.ts: `me` is on the first load, and security.ts brings viem's checksum.
export const WITHDRAWAL_LOCK_STATUSES = ['off', 'on', 'turning_off'] as const;
export const withdrawalLockSchema = z.object({
  status: z.enum(WITHDRAWAL_LOCK_STATUSES),
  /** `turning_off`: when the lock ends. */
  endsAt: z.nullable(isoDate),
  /** The platform requires the lock of everyone (WITHDRAWAL_ADDRESS_LOCK=required): it cannot be turned off. */
  required: z.boolean(),
});
export type WithdrawalLock = z.infer<typeof withdrawalLockSchema>;

/** One of the platform's languages (packages/shared/src/i18n.ts). */
export const localeSchema = z.enum(LOCALES);

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail address for a new account or an address change: the format, then no look-alike tricks. */
export const newEmail = (required: string) =>
  z.pipe(
    requiredText(required, MAX_LENGTH.email, tooLongText(msg('Email'), MAX_LENGTH.email)),
    z.string().check(
      z.regex(EMAIL, TEXT.invalidEmail),
      z.refine((e) => emailLookalikeError(e) === null, {
        error: (issue) => emailLookalikeError(String(issue.input)) ?? TEXT.invalidEmail,
      }),
      z.toLowerCase(),
    ),
  );
/** A first or last name: required, and nothing invisible that makes it look like another name. */
export const personName = (required: string, label: string) =>
  requiredText(required, MAX_LENGTH.name, tooLongText(label, MAX_LENGTH.name)).check(
    z.refine((n) => !hasInvisible(n), TEXT.nameInvisible),
  );

export const userSchema = z.object({
  _id: z.string(),
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  isAdmin: z.boolean(),
  /** A staff member's role (packages/shared/src/staff.ts); null for investors. */
  role: z.nullable(z.enum(ROLES)),
  /** Money decisions need two staff members (FOUR_EYES=on): Profile says so. */
  fourEyes: z.boolean(),
  isBlocked: z.boolean(),
  depositAddress: z.string(),
  withdrawalWallet: z.nullable(z.string()),
  invitationCode: z.nullable(z.string()),
  twoFactorEnabled: z.boolean(),
  /** The language the person reads the app, their e-mails and statements in. */
  locale: localeSchema,
  /** Withdraw All pays only to active addresses of the book. */
  withdrawalLock: withdrawalLockSchema,
  /** Withdrawals are frozen ("this wasn't me", or an administrator): Withdraw All is refused until an administrator lifts it. */
  withdrawalsFrozen: z.boolean(),
  /** An e-mail when a running cycle becomes ready to complete (Profile; off by default). */
  cycleReminders: z.boolean(),
  createdAt: isoDate,
});
export type User = z.infer<typeof userSchema>;

/** Another person as lists name them (the spec's populated userId: firstName, lastName, email). */
export const userRefSchema = z.pick(userSchema, { _id: true, firstName: true, lastName: true, email: true });
export type UserRef = z.infer<typeof userRefSchema>;

/** The platform settings screens need: its clock (PLATFORM_TIMEZONE), whether deposits are demo ones, its explorer. */
export const platformInfoSchema = z.object({
  timeZone: z.string(),
  /** No chain is configured: deposits are demo deposits an administrator confirms by hand. */
  demoDeposits: z.boolean(),
  /** Block explorer (EXPLORER_URL) hashes and addresses link to: `<url>/tx/<hash>`, `<url>/address/<address>`; absent: none. */
  explorerUrl: z.optional(z.string()),
});
export type PlatformInfo = z.infer<typeof platformInfoSchema>;

export const meResponse = z.object({ user: userSchema, platform: z.optional(platformInfoSchema) });
export type Me = z.infer<typeof meResponse>;
/** A password change answers a fresh token: older sessions end, this device stays signed in. */
export const profileResponse = z.object({ user: userSchema, token: z.optional(z.string()) });
export const updateEmailResponse = z.object({ message: z.string(), user: userSchema });

const optionalPassword = z.optional(
  z.string().check(atMost<string>(MAX_LENGTH.password, tooLongText(msg('Password'), MAX_LENGTH.password))),
);
export const profileBody = z
  .strictObject({
    firstName: personName(TEXT.firstNameRequired, msg('First name')),
    lastName: personName(TEXT.lastNameRequired, msg('Last name')),
    currentPassword: optionalPassword,
    newPassword: optionalPassword,
    confirmPassword: optionalPassword,
    /** With the authenticator on, a password change asks for its code too (never less than the sign-in). */
    totpCode: z.optional(z.string().check(z.trim(), z.maxLength(MAX_LENGTH.authCode))),
  })
  .check(
    z.superRefine((v, ctx) => {
      const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path], input: v });
      if (!v.newPassword) return;
      if (v.confirmPassword !== undefined && v.confirmPassword !== v.newPassword)
        return fail(TEXT.newPasswordsMismatch, 'confirmPassword');
      if (v.newPassword.length < MIN_PASSWORD_LENGTH) return fail(TEXT.newPasswordTooShort, 'newPassword');
      if (!v.currentPassword) fail(TEXT.currentPasswordRequired, 'currentPassword');
    }),
  );
export type ProfileInput = z.input<typeof profileBody>;

export const updateEmailBody = z.strictObject({
  newEmail: newEmail(TEXT.invalidEmail),
  /** The current login password: a session alone cannot move the account to another address. */
  password: z
    .string({ error: TEXT.currentPasswordRequiredForChange })
    .check(z.minLength(1, TEXT.currentPasswordRequiredForChange), z.maxLength(200, TEXT.currentPasswordWrong)),
});
export type UpdateEmailInput = z.input<typeof updateEmailBody>;

/**
 * PUT /api/user/withdrawal-password (Profile): the current withdrawal password, the new one twice (the signup's
 * rules: at least 6 characters, not the login password, which the server checks) and, with the authenticator on,
 * its code. It holds withdrawals for SECURITY_HOLD_HOURS.
 */
export const withdrawalPasswordBody = z
  .strictObject({
    currentWithdrawalPassword: z
      .string({ error: TEXT.withdrawalPasswordRequired })
      .check(
        z.minLength(1, TEXT.withdrawalPasswordRequired),
        z.maxLength(MAX_LENGTH.password, TEXT.withdrawalPasswordWrong),
      ),
    newWithdrawalPassword: z
      .string({ error: TEXT.withdrawalPasswordTooShort })
      .check(
        z.minLength(MIN_PASSWORD_LENGTH, TEXT.withdrawalPasswordTooShort),
        atMost<string>(MAX_LENGTH.password, tooLongText(msg('Password'), MAX_LENGTH.password)),
      ),
    confirmWithdrawalPassword: z.string(),
    totpCode: z.optional(z.string().check(z.trim(), z.maxLength(MAX_LENGTH.authCode))),
  })
  .check(
    z.refine((v) => v.confirmWithdrawalPassword === v.newWithdrawalPassword, {
      message: TEXT.newPasswordsMismatch,
      path: ['confirmWithdrawalPassword'],
    }),
  );
export type WithdrawalPasswordInput = z.input<typeof withdrawalPasswordBody>;

export const invitationResponse = z.object({ code: z.string() });

/** PUT /api/user/preferences: the person's language and cycle reminders, kept on the account; one or both. */
export const preferencesBody = z
  .strictObject({ locale: z.optional(localeSchema), cycleReminders: z.optional(z.boolean()) })
  .check(z.refine((v) => v.locale !== undefined || v.cycleReminders !== undefined, TEXT.preferencesEmpty));
export type PreferencesInput = z.infer<typeof preferencesBody>;
export const preferencesResponse = z.object({ user: userSchema });

export const idParams = z.strictObject({ id: idSchema });
export const toggleBlockResponse = z.object({ message: z.string(), user: userSchema });
