import * as z from 'zod/mini';
import { MAX_LENGTH, MIN_PASSWORD_LENGTH } from '../constants.ts';
import { TEXT, tooLongText } from '../texts.ts';
import { emailLookalikeError, hasInvisible } from '../lookalikes.ts';
import { atMost, requiredText } from './common.ts';
import type { Said } from '../said.ts';
import { msg } from '../i18n.ts';
import { EMAIL, localeSchema, newEmail, userSchema } from './user.ts';

export { EMAIL };
const PHONE = /^\+(\d{1,4})\s*([0-9][0-9 ()-]{3,19})$/;

/** `locale`: the language of the verification e-mail (the one the signup page shows). */
export const sendCodeBody = z.strictObject({ email: newEmail(TEXT.emailFirst), locale: z.optional(localeSchema) });

const password = (required: string, tooLong: string | Said) =>
  z
    .string({ error: required })
    .check(
      z.minLength(1, required),
      typeof tooLong === 'string'
        ? z.maxLength(MAX_LENGTH.password, tooLong)
        : atMost<string>(MAX_LENGTH.password, tooLong),
    );

/**
 * A random id the browser keeps for itself (never the token): a sign-in from an id the account has not seen
 * is a new device (an alert e-mail). Optional; without it the device is known by its user agent and network.
 */
const deviceId = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/, TEXT.invalidDeviceId));

export const loginBody = z.strictObject({
  email: requiredText(TEXT.loginRequired, MAX_LENGTH.email, tooLongText(msg('Email'), MAX_LENGTH.email)).check(
    z.toLowerCase(),
  ),
  password: password(TEXT.loginRequired, TEXT.invalidCredentials),
  /** Authenticator code (or a recovery code) once two-factor sign-in is on. */
  totpCode: z.optional(z.string().check(z.trim(), z.maxLength(MAX_LENGTH.authCode))),
  deviceId: z.optional(deviceId),
});

const req = TEXT.signupAllRequired;
/** Required, and at most the field's limit (a text that says which field and the limit). */
const field = (name: string, max: number) => requiredText(req, max, tooLongText(name, max));
/** The registration form's fields, each only required and within its limit (the rules come after, in registerBody). */
export const registerFields = z.strictObject({
  invitationCode: field(msg('Invitation code'), MAX_LENGTH.invitationCode),
  firstName: field(msg('First name'), MAX_LENGTH.name),
  lastName: field(msg('Last name'), MAX_LENGTH.name),
  email: field(msg('Email'), MAX_LENGTH.email),
  phone: field(msg('Phone number'), MAX_LENGTH.phone),
  password: password(req, tooLongText(msg('Password'), MAX_LENGTH.password)),
  confirmPassword: password(req, tooLongText(msg('Password'), MAX_LENGTH.password)),
  withdrawalPassword: password(req, tooLongText(msg('Withdrawal password'), MAX_LENGTH.password)),
  verificationCode: field(msg('Verification code'), MAX_LENGTH.verificationCode),
  /** The language the signup page showed: the new account's (its e-mails and statements). */
  locale: z.optional(localeSchema),
  deviceId: z.optional(deviceId),
});

/**
 * Two stages so the messages come in the spec's order: first every field present
 * ('All fields are required...'), then the rules, each reported alone.
 */
export const registerBody = z.pipe(
  registerFields.check(
    z.superRefine((v, ctx) => {
      const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path], input: v });
      if (v.password !== v.confirmPassword) return fail(TEXT.passwordsMismatch, 'confirmPassword');
      if (v.password.length < MIN_PASSWORD_LENGTH) return fail(TEXT.passwordTooShort, 'password');
      if (v.withdrawalPassword.length < MIN_PASSWORD_LENGTH)
        return fail(TEXT.withdrawalPasswordTooShort, 'withdrawalPassword');
      if (!EMAIL.test(v.email)) return fail(TEXT.invalidEmail, 'email');
      const lookalike = emailLookalikeError(v.email);
      if (lookalike) return fail(lookalike, 'email');
      for (const f of ['firstName', 'lastName'] as const) if (hasInvisible(v[f])) return fail(TEXT.nameInvisible, f);
      if (!PHONE.test(v.phone)) return fail(TEXT.invalidPhone, 'phone');
      if (v.withdrawalPassword === v.password) return fail(TEXT.withdrawalPasswordSame, 'withdrawalPassword');
    }),
  ),
  z.transform((v) => {
    const m = PHONE.exec(v.phone);
    return {
      ...v,
      email: v.email.toLowerCase(),
      phoneCountryCode: `+${m?.[1] ?? ''}`,
      phoneNumber: (m?.[2] ?? '').replace(/[^0-9]/g, ''),
    };
  }),
);

export const authResponse = z.object({ token: z.string(), user: userSchema });

export type RegisterInput = z.input<typeof registerBody>;
export type LoginInput = z.input<typeof loginBody>;
export type AuthResponse = z.infer<typeof authResponse>;
