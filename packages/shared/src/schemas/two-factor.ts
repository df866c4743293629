import * as z from 'zod/mini';
import { TEXT } from '../texts.ts';

/** The current login password, asked again before the second factor changes (a session alone is not enough). */
const currentPassword = z
  .string({ error: TEXT.currentPasswordRequiredForChange })
  .check(z.minLength(1, TEXT.currentPasswordRequiredForChange), z.maxLength(200, TEXT.currentPasswordWrong));

export const twoFactorSetupBody = z.strictObject({ password: currentPassword });
export const twoFactorSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const twoFactorEnableBody = z.strictObject({
  password: currentPassword,
  code: z.string({ error: TEXT.totpRequired }).check(z.trim(), z.regex(/^\d{6}$/, TEXT.totpRequired)),
});
export const twoFactorEnableResponse = z.object({
  message: z.string(),
  token: z.string(),
  recoveryCodes: z.array(z.string()),
});
export const twoFactorDisableBody = z.strictObject({
  password: currentPassword,
  code: z.string().check(z.trim(), z.maxLength(32)),
});
export const twoFactorDisableResponse = z.object({ message: z.string(), token: z.string() });
