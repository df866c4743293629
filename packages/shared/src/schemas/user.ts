import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants.ts';
import { MSG } from '../messages.ts';
import { idSchema, isoDate, requiredText } from './common.ts';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const userSchema = z.object({
  _id: z.string(),
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  isAdmin: z.boolean(),
  isBlocked: z.boolean(),
  depositAddress: z.string(),
  withdrawalWallet: z.string().nullable(),
  invitationCode: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  createdAt: isoDate,
});
export type User = z.infer<typeof userSchema>;

/** Another person as lists name them (the spec's populated userId: firstName, lastName, email). */
export const userRefSchema = userSchema.pick({ _id: true, firstName: true, lastName: true, email: true });
export type UserRef = z.infer<typeof userRefSchema>;

export const meResponse = z.object({ user: userSchema });
/** A password change answers a fresh token: older sessions end, this device stays signed in. */
export const profileResponse = z.object({ user: userSchema, token: z.string().optional() });
export const updateEmailResponse = z.object({ message: z.string(), user: userSchema });

export const profileBody = z
  .strictObject({
    firstName: requiredText(MSG.firstNameRequired, 100),
    lastName: requiredText(MSG.lastNameRequired, 100),
    currentPassword: z.string().max(200).optional(),
    newPassword: z.string().max(200).optional(),
    confirmPassword: z.string().max(200).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.newPassword) return;
    if (v.confirmPassword !== undefined && v.confirmPassword !== v.newPassword) {
      ctx.addIssue({ code: 'custom', message: MSG.newPasswordsMismatch, path: ['confirmPassword'] });
      return;
    }
    if (v.newPassword.length < MIN_PASSWORD_LENGTH) {
      ctx.addIssue({ code: 'custom', message: MSG.newPasswordTooShort, path: ['newPassword'] });
      return;
    }
    if (!v.currentPassword)
      ctx.addIssue({ code: 'custom', message: MSG.currentPasswordRequired, path: ['currentPassword'] });
  });
export type ProfileInput = z.input<typeof profileBody>;

export const updateEmailBody = z.strictObject({
  newEmail: requiredText(MSG.invalidEmail, 254)
    .pipe(z.string().regex(EMAIL_RE, MSG.invalidEmail))
    .transform((s) => s.toLowerCase()),
  /** The current login password: a session alone cannot move the account to another address. */
  password: z
    .string({ error: MSG.currentPasswordRequiredForChange })
    .min(1, MSG.currentPasswordRequiredForChange)
    .max(200, MSG.currentPasswordWrong),
});
export type UpdateEmailInput = z.input<typeof updateEmailBody>;

export const invitationResponse = z.object({ code: z.string() });

export const idParams = z.strictObject({ id: idSchema });
export const toggleBlockResponse = z.object({ message: z.string(), user: userSchema });
