import * as z from 'zod/mini';
import { checksumMatches } from '../address.ts';
import { TEXT } from '../texts.ts';
import { EVM_ADDRESS, requiredText } from './common.ts';

/*
 * Step-up with a passkey (apart from the passkey schemas so that the sign-in page does not load the address checks).
 */

/** What a step-up assertion can confirm; its challenge is bound to the purpose and the exact payload. */
export const STEP_UP_PURPOSES = ['withdraw_all', 'add_address', 'lock_off', 'approve_proposal'] as const;
export type StepUpPurpose = (typeof STEP_UP_PURPOSES)[number];

const address = z.pipe(
  requiredText(TEXT.walletRequired, 200),
  z
    .string()
    .check(z.regex(EVM_ADDRESS, TEXT.invalidWallet), z.refine(checksumMatches, TEXT.walletChecksum), z.toLowerCase()),
);

/** The investor's step-up requests: the server works out the payload (Withdraw All's total and list) itself. */
export const stepUpBody = z.discriminatedUnion('purpose', [
  z.strictObject({ purpose: z.literal('withdraw_all'), walletAddress: address }),
  z.strictObject({ purpose: z.literal('add_address'), address }),
  z.strictObject({ purpose: z.literal('lock_off') }),
  z.strictObject({ purpose: z.literal('approve_proposal'), proposalId: z.string().check(z.maxLength(64)) }),
]);
export type StepUpInput = z.input<typeof stepUpBody>;
