import { z } from 'zod';
import { MSG } from '../messages.ts';

/** The current login password, asked again before the second factor changes (a session alone is not enough). */
const currentPassword = z
  .string({ error: MSG.currentPasswordRequiredForChange })
  .min(1, MSG.currentPasswordRequiredForChange)
  .max(200, MSG.currentPasswordWrong);

export const twoFactorSetupBody = z.strictObject({ password: currentPassword });
export const twoFactorSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const twoFactorEnableBody = z.strictObject({
  password: currentPassword,
  code: z
    .string({ error: MSG.totpRequired })
    .trim()
    .regex(/^\d{6}$/, MSG.totpRequired),
});
export const twoFactorEnableResponse = z.object({
  message: z.string(),
  token: z.string(),
  recoveryCodes: z.array(z.string()),
});
export const twoFactorDisableBody = z.strictObject({
  password: currentPassword,
  code: z.string().trim().max(32),
});
export const twoFactorDisableResponse = z.object({ message: z.string(), token: z.string() });
