import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants.ts';
import { MSG } from '../messages.ts';
import { requiredText } from './common.ts';
import { userSchema } from './user.ts';

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+(\d{1,4})\s*([0-9][0-9 ()-]{3,19})$/;

export const sendCodeBody = z.strictObject({
  email: requiredText(MSG.emailFirst, 254)
    .pipe(z.string().regex(EMAIL, MSG.invalidEmail))
    .transform((s) => s.toLowerCase()),
});

export const loginBody = z.strictObject({
  email: requiredText(MSG.loginRequired, 254).transform((s) => s.toLowerCase()),
  password: z.string({ error: MSG.loginRequired }).min(1, MSG.loginRequired).max(200, MSG.invalidCredentials),
  /** Authenticator code (or a recovery code) once two-factor sign-in is on. */
  totpCode: z.string().trim().max(32).optional(),
});

const req = MSG.signupAllRequired;
/**
 * Two stages so the messages come in the spec's order: first every field present
 * ('All fields are required...'), then the rules, each reported alone.
 */
export const registerBody = z
  .strictObject({
    invitationCode: requiredText(req, 64),
    firstName: requiredText(req, 100),
    lastName: requiredText(req, 100),
    email: requiredText(req, 254),
    phone: requiredText(req, 30),
    password: z.string({ error: req }).min(1, req).max(200, req),
    confirmPassword: z.string({ error: req }).min(1, req).max(200, req),
    withdrawalPassword: z.string({ error: req }).min(1, req).max(200, req),
    verificationCode: requiredText(req, 12),
  })
  .superRefine((v, ctx) => {
    const fail = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (v.password !== v.confirmPassword) return fail(MSG.passwordsMismatch, 'confirmPassword');
    if (v.password.length < MIN_PASSWORD_LENGTH) return fail(MSG.passwordTooShort, 'password');
    if (v.withdrawalPassword.length < MIN_PASSWORD_LENGTH)
      return fail(MSG.withdrawalPasswordTooShort, 'withdrawalPassword');
    if (!EMAIL.test(v.email)) return fail(MSG.invalidEmail, 'email');
    if (!PHONE.test(v.phone)) return fail(MSG.invalidPhone, 'phone');
    if (v.withdrawalPassword === v.password) return fail(MSG.withdrawalPasswordSame, 'withdrawalPassword');
  })
  .transform((v) => {
    const m = PHONE.exec(v.phone);
    return {
      ...v,
      email: v.email.toLowerCase(),
      phoneCountryCode: `+${m?.[1] ?? ''}`,
      phoneNumber: (m?.[2] ?? '').replace(/[^0-9]/g, ''),
    };
  });

export const authResponse = z.object({ token: z.string(), user: userSchema });

export type RegisterInput = z.input<typeof registerBody>;
export type LoginInput = z.input<typeof loginBody>;
export type AuthResponse = z.infer<typeof authResponse>;
