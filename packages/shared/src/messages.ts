import { microToText } from './money.ts';

const NETWORK = 'Polygon';

/** "2h 5m" style remaining time, rounded up to the minute. */
export function timeLeftText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h}h ${m}m` : `${m}m`;
}

/**
 * Every text a person reads from the API or the screens, in one place (docs/decisions/0004): the
 * spec's words (docs/product-spec.md sections 5 and 8) and the texts it leaves open. Server and web
 * import the same constant, so a rewording happens here once. Clients never match on these texts:
 * they switch on the error code (packages/shared/src/errors.ts).
 */
export const MSG = {
  // ---------------------------------------------------------------- the spec's validation texts (section 5)
  loginRequired: 'Email and password are required',
  signupAllRequired: 'All fields are required, including verification code',
  passwordsMismatch: 'Passwords do not match',
  passwordTooShort: 'Password must be at least 6 characters',
  withdrawalPasswordTooShort: 'Withdrawal password must be at least 6 characters',
  invalidEmail: 'Invalid email format',
  emailFirst: 'Please enter email first',
  newPasswordsMismatch: 'New passwords do not match',
  newPasswordTooShort: 'New password must be at least 6 characters',
  depositRequired: 'Please fill all required fields',
  minDeposit: 'Minimum deposit is $0.5 USDC',
  failedDepositRequired: 'Please fill transaction hash and amount',
  walletRequired: 'Please enter your wallet address',
  noFunds: 'No available funds to withdraw',
  weekdayInvest: 'Investments are only available Monday through Friday. Please try again on a weekday.',
  weekendComplete: 'Earnings cannot be completed on weekends. Please wait until Monday.',
  txHashRequired: 'Please enter transaction hash',
  validAmount: 'Please enter a valid amount (0 or greater)',
  emailExists: 'Email already exists. Please use a different email.',

  // ---------------------------------------------------------------- fallbacks when the server sent no text (section 8)
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  somethingWrong: 'Something went wrong. Please try again later.',
  unexpectedResponse: 'Unexpected response from server',
  profileFailed: 'Failed to update profile',
  withdrawFailed: 'Failed to request withdrawal',
  completeFailed: 'Failed to complete cycle',
  startFailed: 'Failed to start earning',
  depositFailed: 'Deposit submission failed',
  updateFailed: 'Update failed',
  investFailed: 'Investment failed',
  invitationFailed: 'Failed to generate invitation code',
  approveWithdrawalFailed: 'Failed to approve withdrawal',
  rejectWithdrawalFailed: 'Failed to reject withdrawal',
  fetchWithdrawalsFailed: 'Failed to fetch withdrawals',
  approveDepositFailed: 'Failed to approve deposit',
  balanceUpdateFailed: 'Failed to update balance',
  analyticsFailed: 'Failed to load analytics',
  appError: 'Unexpected Application Error!',
  chunkFailed: 'Loading chunk failed',

  // ---------------------------------------------------------------- requests in general
  invalidRequest: 'Invalid request',
  invalidRequestBody: 'Invalid request body',
  invalidCharacter: 'The request contains an invalid character',
  noBodyAllowed: 'This call takes no request body',
  payloadTooLarge: 'Request body is too large',
  tooManyRequests: 'Too many requests. Please try again later.',
  internal: 'Something went wrong. Please try again later.',
  notFound: 'Not found',
  invalidTxHash: 'Invalid transaction hash: expected 0x followed by 64 hex characters',
  invalidWallet: 'Invalid wallet address: expected 0x followed by 40 hex characters',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  idempotencyBusy: 'A request with this Idempotency-Key is already being processed',
  idempotencyStillRunning: 'A request with this Idempotency-Key is still being processed',
  idempotencyMismatch: 'This Idempotency-Key was used with a different request',
  idempotencyReplayed: 'This request was already processed',
  alreadyRecorded: 'This operation has already been recorded',
  insufficientBalance: 'Insufficient balance',

  // ---------------------------------------------------------------- accounts, sessions, second factor
  invalidCredentials: 'Invalid email or password',
  blocked: 'Your account has been blocked. Please contact support.',
  unauthorized: 'Please sign in to continue',
  sessionExpired: 'Your session has expired. Please sign in again.',
  forbidden: 'You do not have permission to do this',
  invalidInvitation: 'Invalid invitation code',
  invalidCode: 'Invalid or expired verification code',
  codeTooManyTries: 'Too many wrong codes. Please wait 15 minutes, then request a new verification code.',
  codeResendWait: 'Please wait a minute before requesting another code',
  codeSent: 'Verification code sent to your email',
  mailUnavailable: 'E-mail delivery is not configured. Please try again later.',
  mailFailed: 'Could not send the e-mail. Please try again later.',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  invalidPhone: 'Invalid phone number',
  withdrawalPasswordSame: 'Withdrawal password must be different from your login password',
  currentPasswordRequired: 'Current password is required to change your password',
  currentPasswordWrong: 'Current password is incorrect',
  currentPasswordRequiredForChange: 'Enter your current password to confirm this change',
  passwordTooCommon: 'This password is too common. Choose another.',
  adminOnlyEmail: 'Only administrators can change their email',
  emailUpdated: 'Email updated',
  signedOut: 'Signed out',
  cannotBlockAdmin: 'Administrators cannot be blocked',
  userBlocked: 'User blocked',
  userUnblocked: 'User unblocked',
  requestTimeout: 'The request took too long to arrive. Please try again.',
  headersTooLarge: 'Request headers are too large',
  badRequest: 'Bad request',
  totpRequired: 'Enter the 6-digit code from your authenticator app',
  totpInvalid: 'Invalid authentication code',
  twoFactorAlreadyOn: 'Two-factor authentication is already on',
  twoFactorNotOn: 'Two-factor authentication is not on',
  twoFactorSetupFirst: 'Start the set-up first',
  twoFactorOn: 'Two-factor authentication is on',
  twoFactorOff: 'Two-factor authentication is off',
  adminNeeds2fa:
    'Administrator actions require two-factor authentication. Turn it on in your profile and sign in again.',

  // ---------------------------------------------------------------- deposits
  invalidDepositAmount: 'Invalid amount: enter a number of USDC with at most 6 decimals',
  depositHashTaken: 'This transaction hash has already been submitted for a deposit',
  depositAlreadyProcessed: 'This deposit has already been processed',
  depositNotPending: 'Only pending deposits can be approved',
  depositNotFailed: 'Only failed deposits can be corrected',
  depositSubmitted: 'Deposit submitted. It will be credited once it is confirmed.',
  depositConfirmed: 'Deposit confirmed and credited to your balance',
  depositApproved: 'Deposit approved and credited',
  depositResubmitted: 'Deposit updated and submitted for verification again',
  depositFailedNoReason: 'Deposit failed',
  balanceUpdated: 'Balance updated successfully',
  balanceNoteDefault: 'Admin balance update',
  noteTooLong: 'Note must be at most 500 characters',
  /** Why the chain refused a deposit, in words the owner can act on ("failed, with the reason"). */
  depositReverted:
    'The transaction failed (reverted) on chain, so no USDC was transferred. Send a new transaction and submit its hash.',
  depositNotFoundOnChain: (chainId: number) =>
    `Transaction not found on the ${NETWORK} network (chain ${chainId}). Check the hash, and that you sent it on ${NETWORK}, then correct this deposit.`,
  depositWrongToken: (contracts: string[]) =>
    `This transaction does not transfer USDC on ${NETWORK}${contracts.length ? ` (token contract ${contracts.join(', ')})` : ''}. Only USDC on the ${NETWORK} network is accepted: check the network and token.`,
  depositWrongRecipient: (to: string[], depositAddress: string) =>
    `Wrong recipient: this transaction sent USDC to ${to.join(', ')}, not to the platform deposit address ${depositAddress}.`,
  depositWrongSender: (from: string[], entered: string) =>
    `Wrong sender: the USDC in this transaction came from ${from.join(', ')}, not from the address you entered (${entered}). Enter the address you sent from.`,
  depositWrongAmount: (chain: bigint[], entered: bigint) =>
    `Amount differs: the chain shows ${chain.map((v) => `${microToText(v)} USDC`).join(', ')} for this transfer, but you entered ${microToText(entered)} USDC. Correct the amount to ${microToText(chain[0] ?? 0n)}.`,
  /** Per-investor deposit addresses (DEPOSIT_XPUB): found on chain by the watcher. */
  depositBelowMinimum: 'Below the minimum deposit',
  depositDroppedByReorg: 'Transaction dropped by a chain reorganisation',
  depositNotYourAddress: (to: string[], yours: string) =>
    `This transfer went to ${to.join(', ')}, not to your deposit address ${yours}. Only transfers to your own deposit address can be submitted.`,
  depositNotOnChainYet: (chainId: number) =>
    `This transaction is not on the ${NETWORK} network (chain ${chainId}) yet. Deposits to your address show up by themselves once mined; try again in a minute if it does not.`,
  depositChainUnavailable: 'The blockchain node cannot be reached right now. Please try again in a few minutes.',

  // ---------------------------------------------------------------- tiers, investments, cycles
  chooseTier: 'Please choose an investment tier',
  noSuchTier: 'No active investment tier has this amount. Please choose one of the listed tiers.',
  investInsufficientBalance: 'Insufficient balance. Please deposit USDC before investing.',
  invested: 'Investment successful',
  weekdayStart: 'Earning cycles can only be started Monday through Friday. Please try again on a weekday.',
  cycleRunning: 'An earning cycle is already running for this investment.',
  alreadyToday: 'This investment already started a cycle today. Please start the next cycle tomorrow.',
  started: 'Earning cycle started. Come back in 8 hours to complete it.',
  notRunning: 'No earning cycle is running for this investment. Please start earning first.',
  cooldown: (ms: number) =>
    `The next cycle becomes available 48 hours after your approved withdrawal: ${timeLeftText(ms)} left.`,
  cycleNotFinished: (ms: number) => `This cycle is not finished yet: ${timeLeftText(ms)} left.`,
  cycleCompleted: (grossUsdc: string) => `Cycle completed: ${grossUsdc} USDC earned.`,

  // ---------------------------------------------------------------- withdrawals and payouts
  withdrawalPasswordRequired: 'Please enter your withdrawal password',
  withdrawalPasswordWrong: 'Withdrawal password is incorrect',
  withdrawalRequested: (items: number, gross: string, fee: string, net: string) =>
    `Withdrawal request submitted for ${items === 1 ? '1 item' : `${items} items`}: ${gross} USDC gross, ${fee} USDC fee, ${net} USDC to be paid. Withdrawals may take up to 48 hours to process.`,
  withdrawalNotPending: 'This withdrawal has already been processed',
  withdrawalApproved: 'Withdrawal approved',
  withdrawalRejected: 'Withdrawal rejected',
  hashUsedElsewhere: 'This transaction hash was already used for another withdrawal request',
  hashOtherWallet: 'This transaction hash was already used for a payout to another wallet',
  notesTooLong: 'Notes must be at most 1000 characters',
  /** The chain does not prove the payout (approve with CHAIN_RPC_URL configured). */
  payoutNotFound: 'Payout transaction not found on chain',
  payoutReverted: 'Payout transaction failed (reverted) on chain',
  payoutWrongToken: 'Payout transaction is not a USDC transfer',
  payoutWrongSender: 'Payout was not sent from the platform payout address',
  payoutWrongRecipient: "Payout was not sent to the withdrawal's wallet address",
  payoutShort: 'Payout amount is less than the net amount to pay',
  payoutAddressMissing: 'Payout address is not configured on the server',
  payoutChainUnreachable: 'Could not reach the blockchain to verify the payout. Please try again.',

  // ---------------------------------------------------------------- back office
  invalidPeriod: 'Period must be one of 7, 14, 30 or 90 days',
  tierNameRequired: 'Tier name is required',
  tierNameTooLong: 'Tier name must be at most 100 characters',
  tierAmountInvalid: 'Tier amount must be a USDC amount greater than 0 with at most 6 decimals',
  tierRateInvalid: 'Daily rate must be a percentage greater than 0 and at most 100, with at most 4 decimals',
  tierNothingToChange: 'Nothing to change',
  invalidStatusFilter: 'Unknown status filter',
  usersFailed: 'Failed to load users',
  dashboardFailed: 'Failed to load admin dashboard',
  referralsFailed: 'Failed to load referral network',
  tierSaveFailed: 'Failed to save tier',
  auditFailed: 'Failed to load audit log',
  exportFailed: 'Failed to download the export',
} as const;
