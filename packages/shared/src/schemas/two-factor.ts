import { z } from 'zod';
import { MSG } from '../messages.ts';

export const twoFactorSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const twoFactorCodeBody = z.strictObject({
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
  password: z.string().min(1).max(200),
  code: z.string().trim().max(32),
});
export const twoFactorDisableResponse = z.object({ message: z.string(), token: z.string() });
