import * as z from 'zod/mini';

/**
 * GET /api/user/deposit-settings: how the Deposit tab works for this server. `ownAddress`: deposits go to
 * the investor's own address and are found on chain (DEPOSIT_XPUB), otherwise to the shared one and are
 * claimed with the form. `chainId` and `usdcContract` let a browser wallet send the transfer.
 */
export const depositSettingsResponse = z.object({
  ownAddress: z.boolean(),
  chainId: z.number(),
  usdcContract: z.nullable(z.string()),
  requiredConfirmations: z.number(),
});
export type DepositSettings = z.infer<typeof depositSettingsResponse>;
