import { microToDisplay, microToText } from './money.ts';
import { said } from './said.ts';
import { TEXT } from './texts.ts';
import { timeLeftText } from './time-left.ts';

export { timeLeftText };

const NETWORK = 'Polygon';

/**
 * Every text a person reads from the API or the screens, in one place (docs/decisions/0004): the web's
 * texts (`TEXT`, texts.ts) plus the ones only the server answers. Server code imports MSG; the web and
 * the shared schemas import TEXT, so a page's first load stays small (docs/decisions/0022).
 */
export const MSG = {
  ...TEXT,
  // ---------------------------------------------------------------- requests in general
  invalidRequest: 'Invalid request',
  invalidRequestBody: 'Invalid request body',
  invalidCharacter: 'The request contains an invalid character',
  noBodyAllowed: 'This call takes no request body',
  payloadTooLarge: 'Request body is too large',
  tooManyRequests: 'Too many requests. Please try again later.',
  overloaded: 'The server is busy. Please try again in a moment.',
  internal: 'Something went wrong. Please try again later.',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  idempotencyBusy: 'A request with this Idempotency-Key is already being processed',
  idempotencyStillRunning: 'A request with this Idempotency-Key is still being processed',
  idempotencyMismatch: 'This Idempotency-Key was used with a different request',
  idempotencyReplayed: 'This request was already processed',
  alreadyRecorded: 'This operation has already been recorded',
  insufficientBalance: 'Insufficient balance',
  forbidden: 'You do not have permission to do this',
  invalidInvitation: 'Invalid invitation code',
  invalidCode: 'Invalid or expired verification code',
  codeTooManyTries: 'Too many wrong codes. Please wait 15 minutes, then request a new verification code.',
  codeResendWait: 'Please wait a minute before requesting another code',
  codeSent: 'Verification code sent to your email',
  mailUnavailable: 'E-mail delivery is not configured. Please try again later.',
  mailFailed: 'Could not send the e-mail. Please try again later.',
  passwordTooCommon: 'This password is too common. Choose another.',
  passwordChangesLimit: (ms: number) =>
    said(
      'Too many password changes on this account. Please try again in {left}.',
      { left: ms },
      `Too many password changes on this account. Please try again in ${timeLeftText(ms)}.`,
    ),
  mailboxTaken:
    'This mailbox already has an account (addresses that differ only by a +tag, or by dots at Gmail, are one mailbox). Sign in with it instead.',
  adminOnlyEmail: 'Only administrators can change their email',
  emailUpdated: 'Email updated',
  withdrawalPasswordChanged: 'Withdrawal password changed',
  signedOut: 'Signed out',
  cannotBlockAdmin: 'Administrators cannot be blocked',
  userBlocked: 'User blocked',
  userUnblocked: 'User unblocked',
  requestTimeout: 'The request took too long to arrive. Please try again.',
  headersTooLarge: 'Request headers are too large',
  badRequest: 'Bad request',
  totpInvalid: 'Invalid authentication code',
  totpUsed: 'This code was already used. Wait for the next code from your authenticator app.',
  twoFactorAlreadyOn: 'Two-factor authentication is already on',
  twoFactorNotOn: 'Two-factor authentication is not on',
  twoFactorSetupFirst: 'Start the set-up first',
  twoFactorOn: 'Two-factor authentication is on',
  twoFactorOff: 'Two-factor authentication is off',
  // ---------------------------------------------------------------- passkeys and wallet proofs
  passkeyAdded: 'Passkey added',
  passkeyRemoved: 'Passkey removed',
  passkeyNotAccepted: 'This passkey was not accepted. Try again.',
  passkeyUnknown: 'This passkey is not registered with any account here.',
  passkeyRegistrationFailed: 'The passkey could not be registered. Try again.',
  passkeyAlreadyAdded: 'This passkey is already registered',
  passkeyRequired: 'Confirm this with your passkey.',
  passkeyStepUpInvalid:
    'The passkey confirmation was not made for this request, or it expired or was already used. Confirm again.',
  passkeyTooMany: 'An account can have at most 10 passkeys',
  addressProofInvalid:
    'The wallet signature does not prove this address. Sign a new message with the wallet that owns it.',
  addressProofRequired: 'Only addresses proven with their wallet can be added. Use Prove with my wallet.',
  adminNeeds2fa:
    'Administrator actions require two-factor authentication. Turn it on in your profile and sign in again.',
  depositHashTaken: 'This transaction hash has already been submitted for a deposit',
  depositAlreadyProcessed: 'This deposit has already been processed',
  depositNotPending: 'Only pending deposits can be approved',
  depositNotFailed: 'Only failed deposits can be corrected',
  payoutMatchedByHand: 'Approved by hand with this transaction before it was read from the chain',
  payoutNoMatch: 'No pending withdrawal to this wallet adds up to this amount',
  payoutSeveralMatches: (n: number) =>
    said(
      '{n} sets of pending withdrawals to this wallet add up to this amount: choose the one it paid',
      { n },
      `${n} sets of pending withdrawals to this wallet add up to this amount: choose the one it paid`,
    ),
  payoutAlreadySettled: 'This payout was already settled',
  batchUnavailable:
    'Some of these withdrawals are no longer pending or are already in a payout batch. Refresh and select again.',
  batchCreated: (n: number) =>
    said(
      n === 1 ? 'Payout batch of {n} withdrawal created' : 'Payout batch of {n} withdrawals created',
      { n },
      `Payout batch of ${n} withdrawal${n === 1 ? '' : 's'} created`,
    ),
  batchNotOpen: 'This payout batch is no longer open',
  batchCancelled: 'Payout batch cancelled: its pending withdrawals can be exported again',
  batchHasFrozen:
    'Some of these withdrawals belong to accounts whose withdrawals are frozen: they cannot be paid. Refresh and select again.',
  batchPayeeRefused:
    'USDC refuses transfers to the wallet of some of these withdrawals (its issuer blocked the address): they cannot be paid there. Refresh and select again.',
  batchChainUnreachable: 'Could not reach the blockchain to check the wallets of this batch. Please try again.',
  batchCancelConfirm:
    "This batch's file was downloaded, so the payout wallet may still execute it. Confirm that it was not and will not be executed (in a Safe: reject that transaction's nonce), then cancel.",
  batchCancelledGrace:
    'Payout batch cancelled: its withdrawals stay in payment for the grace period, and a payout read on chain until then still completes them.',
  withdrawalInPayment:
    'This withdrawal is in a payout batch, which decides it: a payout read on chain completes it. Cancel the batch first to reject it or to approve it by another hash.',
  withdrawalInPaymentGrace:
    "This withdrawal's batch was cancelled after its file was downloaded: it stays in payment until the grace period ends, and a payout read on chain until then still completes it.",
  withdrawalAccountFrozen: "This account's withdrawals are frozen: lift the freeze before paying it.",
  withdrawalPayeeRefused:
    'USDC refuses transfers to this wallet address (its issuer blocked it): this withdrawal cannot be paid there. Reject it so that the investor can choose another address.',
  payoutHeldFrozen:
    "Held: the account's withdrawals are frozen, and this transfer left the payout wallet anyway. Investigate before assigning it.",
  notMeWithdrawalRejected:
    'Cancelled: you reported the sign-in or address that requested it as not yours. The money is back in your account.',
  batchNeedsPayout: 'PAYOUT_ADDRESS is not set: a payout batch needs the address that pays it.',
  payoutAssigned: 'Withdrawals approved with this payout',
  payoutDismissed: 'Payout removed from the list',
  payoutOneWallet: 'One payout pays withdrawals to one wallet: choose withdrawals to the same wallet.',
  solvencyNoChain: 'No blockchain node is configured (CHAIN_RPC_URL): there is nothing to read.',
  porTooFewInvestors: 'A proof of reserves needs at least 2 investors: nothing was published.',
  porNoSnapshot: 'No proof of reserves has been published yet.',
  porNotIncluded: 'You are not in this proof of reserves: your account was opened after it was taken.',
  solvencyRefreshTooSoon: (seconds: number) =>
    said(
      seconds === 1
        ? 'The balances were read a moment ago. Try again in {n} second.'
        : 'The balances were read a moment ago. Try again in {n} seconds.',
      { n: seconds },
      `The balances were read a moment ago. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    ),
  reconciliationRunning: 'A reconciliation is already running. Its result will show here when it ends.',
  reconciliationStarted: 'Reconciliation started. Its result will show here when it ends.',
  chainAlarmAcknowledged: 'Alarm acknowledged',
  depositNotCorrectable: (reason: string | null) =>
    said(
      reason
        ? 'This transfer was read from the blockchain, so it cannot be corrected ({reason}). Send a new deposit to your deposit address instead.'
        : 'This transfer was read from the blockchain, so it cannot be corrected. Send a new deposit to your deposit address instead.',
      reason ? { reason } : {},
      `This transfer was read from the blockchain, so it cannot be corrected${reason ? ` (${reason})` : ''}. Send a new deposit to your deposit address instead.`,
    ),
  depositSubmitted: 'Deposit submitted. It will be credited once it is confirmed.',
  depositConfirmed: 'Deposit confirmed and credited to your balance',
  depositApproved: 'Deposit approved and credited',
  depositResubmitted: 'Deposit updated and submitted for verification again',
  depositFailedNoReason: 'Deposit failed',
  depositRejected: 'Deposit rejected',
  depositDismissed: 'Deposit removed from the failed deposits list',
  depositNotDismissable: 'Only failed deposits can be dismissed',
  balanceUpdated: 'Balance updated successfully',
  /** Update Balance with `expectedBalance`: the balance moved after the administrator read it. */
  balanceChanged: (current: bigint) =>
    said(
      'The balance changed to {amount}\u00a0USDC. Review and try again.',
      { amount: String(current) },
      `The balance changed to ${microToDisplay(current)}\u00a0USDC. Review and try again.`,
    ),
  /** Why the chain refused a deposit, in words the owner can act on ("failed, with the reason"). */
  depositReverted:
    'The transaction failed (reverted) on chain, so no USDC was transferred. Send a new transaction and submit its hash.',
  depositNotFoundOnChain: (chainId: number) =>
    said(
      'Transaction not found on the Polygon network (chain {chainId}). Check the hash, and that you sent it on Polygon, then correct this deposit.',
      { chainId: String(chainId) },
      `Transaction not found on the ${NETWORK} network (chain ${chainId}). Check the hash, and that you sent it on ${NETWORK}, then correct this deposit.`,
    ),
  depositWrongToken: (contracts: string[]) =>
    said(
      contracts.length
        ? 'This transaction does not transfer USDC on Polygon (token contract {contracts}). Only USDC on the Polygon network is accepted: check the network and token.'
        : 'This transaction does not transfer USDC on Polygon. Only USDC on the Polygon network is accepted: check the network and token.',
      contracts.length ? { contracts: contracts.join(', ') } : {},
      `This transaction does not transfer USDC on ${NETWORK}${contracts.length ? ` (token contract ${contracts.join(', ')})` : ''}. Only USDC on the ${NETWORK} network is accepted: check the network and token.`,
    ),
  depositWrongRecipient: (to: string[], depositAddress: string) =>
    said(
      'Wrong recipient: this transaction sent USDC to {to}, not to the platform deposit address {address}.',
      { to: to.join(', '), address: depositAddress },
      `Wrong recipient: this transaction sent USDC to ${to.join(', ')}, not to the platform deposit address ${depositAddress}.`,
    ),
  depositWrongSender: (from: string[], entered: string) =>
    said(
      'Wrong sender: the USDC in this transaction came from {from}, not from the address you entered ({entered}). Enter the address you sent from.',
      { from: from.join(', '), entered },
      `Wrong sender: the USDC in this transaction came from ${from.join(', ')}, not from the address you entered (${entered}). Enter the address you sent from.`,
    ),
  /** `chain` is a list of amounts, said as the chain reads them; `amount` the one to enter. */
  depositWrongAmount: (chain: bigint[], entered: bigint) =>
    said(
      'Amount differs: the chain shows {chain} for this transfer, but you entered {entered} USDC. Correct the amount to {amount}.',
      {
        chain: chain.map((v) => `${microToText(v)} USDC`).join(', '),
        entered: microToText(entered),
        amount: String(chain[0] ?? 0n),
      },
      `Amount differs: the chain shows ${chain.map((v) => `${microToText(v)} USDC`).join(', ')} for this transfer, but you entered ${microToText(entered)} USDC. Correct the amount to ${microToText(chain[0] ?? 0n)}.`,
    ),
  /** Per-investor deposit addresses (DEPOSIT_XPUB): found on chain by the watcher. */
  depositBelowMinimum: 'Below the minimum deposit',
  depositDroppedByReorg: 'Transaction dropped by a chain reorganisation',
  depositNotYourAddress: (to: string[], yours: string) =>
    said(
      'This transfer went to {to}, not to your deposit address {yours}. Only transfers to your own deposit address can be submitted.',
      { to: to.join(', '), yours },
      `This transfer went to ${to.join(', ')}, not to your deposit address ${yours}. Only transfers to your own deposit address can be submitted.`,
    ),
  depositNotOnChainYet: (chainId: number) =>
    said(
      'This transaction is not on the Polygon network (chain {chainId}) yet. Deposits to your address show up by themselves once mined; try again in a minute if it does not.',
      { chainId: String(chainId) },
      `This transaction is not on the ${NETWORK} network (chain ${chainId}) yet. Deposits to your address show up by themselves once mined; try again in a minute if it does not.`,
    ),
  depositChainUnavailable: 'The blockchain node cannot be reached right now. Please try again in a few minutes.',
  noSuchTier: 'No active investment tier has this amount. Please choose one of the listed tiers.',
  tierAmbiguous: 'More than one tier has this amount. Please choose the tier you want on the Tiers tab.',
  investInsufficientBalance: 'Insufficient balance. Please deposit USDC before investing.',
  invested: 'Investment successful',
  cycleRunning: 'An earning cycle is already running for this investment.',
  alreadyToday: 'This investment already started a cycle today. Please start the next cycle tomorrow.',
  started: 'Earning cycle started. Come back in 8 hours to complete it.',
  notRunning: 'No earning cycle is running for this investment. Please start earning first.',
  cooldown: (ms: number) =>
    said(
      'The next cycle becomes available 48 hours after your approved withdrawal: {left} left.',
      { left: ms },
      `The next cycle becomes available 48 hours after your approved withdrawal: ${timeLeftText(ms)} left.`,
    ),
  cycleNotFinished: (ms: number) =>
    said(
      'This cycle is not finished yet: {left} left.',
      { left: ms },
      `This cycle is not finished yet: ${timeLeftText(ms)} left.`,
    ),
  cycleCompleted: (gross: bigint) =>
    said(
      'Cycle completed: {amount}\u00a0USDC earned.',
      { amount: String(gross) },
      `Cycle completed: ${microToDisplay(gross)}\u00a0USDC earned.`,
    ),
  withdrawalRequested: (n: number, gross: bigint, fee: bigint, net: bigint) =>
    said(
      n === 1
        ? 'Withdrawal request submitted for 1 item: {gross}\u00a0USDC gross, {fee}\u00a0USDC fee, {net}\u00a0USDC to be paid. Withdrawals may take up to 48 hours to process.'
        : 'Withdrawal request submitted for {n} items: {gross}\u00a0USDC gross, {fee}\u00a0USDC fee, {net}\u00a0USDC to be paid. Withdrawals may take up to 48 hours to process.',
      { n, gross: String(gross), fee: String(fee), net: String(net) },
      `Withdrawal request submitted for ${n === 1 ? '1 item' : `${n} items`}: ${microToDisplay(gross)}\u00a0USDC gross, ${microToDisplay(fee)}\u00a0USDC fee, ${microToDisplay(net)}\u00a0USDC to be paid. Withdrawals may take up to 48 hours to process.`,
    ),
  withdrawalNotPending: 'This withdrawal has already been processed',
  withdrawalApproved: 'Withdrawal approved',
  withdrawalRejected: 'Withdrawal rejected',
  hashUsedElsewhere: 'This transaction hash was already used for another withdrawal request',
  hashOtherWallet: 'This transaction hash was already used for a payout to another wallet',
  /** The chain does not prove the payout (approve with CHAIN_RPC_URL configured). */
  payoutNotFound: 'Payout transaction not found on chain',
  payoutReverted: 'Payout transaction failed (reverted) on chain',
  payoutWrongToken: 'Payout transaction is not a USDC transfer',
  payoutWrongSender: 'Payout was not sent from the platform payout address',
  payoutWrongRecipient: "Payout was not sent to the withdrawal's wallet address",
  payoutShort: 'Payout amount is less than the net amount to pay',
  payoutAddressMissing: 'Payout address is not configured on the server',
  payoutChainUnreachable: 'Could not reach the blockchain to verify the payout. Please try again.',
  tierNothingToChange: 'Nothing to change',
  /** Investors buy a tier by its amount: two active tiers of one amount would leave the choice to chance. */
  tierAmountTaken: (name: string) =>
    said(
      'The active tier {name} already has this amount. Choose another amount, or deactivate {name} first.',
      { name },
      `The active tier ${name} already has this amount. Choose another amount, or deactivate ${name} first.`,
    ),
  /** A back-office list cursor the server did not make (docs/decisions/0036-keyset-paging.md). */
  invalidCursor: 'This page link is no longer valid: go back to the first page',

  // ---------------------------------------------------------------- account security
  addressAdded: (hours: number) =>
    said(
      'Address added. Confirm it from the link we e-mailed you within 1 hour; it becomes usable {hours} hours after it was added.',
      { hours },
      `Address added. Confirm it from the link we e-mailed you within 1 hour; it becomes usable ${hours} hours after it was added.`,
    ),
  addressAddedProven: (hours: number) =>
    said(
      'Address added, proven by its wallet; it becomes usable {hours} hours after it was added.',
      { hours },
      `Address added, proven by its wallet; it becomes usable ${hours} hours after it was added.`,
    ),
  addressExists: 'This address is already in your address book',
  addressBookFull: (n: number) =>
    said(
      'Your address book holds at most {n} addresses. Remove one first.',
      { n },
      `Your address book holds at most ${n} addresses. Remove one first.`,
    ),
  addressConfirmed: 'Address confirmed',
  addressRemoved: 'Address removed',
  addressGone: 'This address was removed from your address book. Add it again to use it.',
  linkInvalid: 'This link is invalid, already used or expired.',
  linkOtherAccount: 'This link was sent to another account. Sign in with the account it was sent to.',
  addressNotInBook: (hours: number) =>
    said(
      'With the withdrawal address lock on, withdrawals go only to an address of your address book. Add this address in Profile: it becomes usable {hours} hours after you add it, once you confirm it.',
      { hours },
      `With the withdrawal address lock on, withdrawals go only to an address of your address book. Add this address in Profile: it becomes usable ${hours} hours after you add it, once you confirm it.`,
    ),
  /** `shown`: `at` as the English says it (in the platform's time zone). */
  addressUnconfirmed: (at: Date, shown: string) =>
    said(
      'This address is not confirmed yet: open the link we e-mailed you. Once confirmed it becomes usable at {at}.',
      { at: at.toISOString() },
      `This address is not confirmed yet: open the link we e-mailed you. Once confirmed it becomes usable at ${shown}.`,
    ),
  addressUnconfirmedExpired: 'This address was never confirmed and its link has expired: remove it and add it again.',
  addressCoolingDown: (at: Date, shown: string, ms: number) =>
    said(
      'This address becomes usable at {at} (in {left}).',
      { at: at.toISOString(), left: ms },
      `This address becomes usable at ${shown} (in ${timeLeftText(ms)}).`,
    ),
  withdrawalsFrozen: (support: string) =>
    said(
      'Withdrawals are frozen on this account. Contact {support} to have the freeze lifted.',
      { support },
      `Withdrawals are frozen on this account. Contact ${support} to have the freeze lifted.`,
    ),
  lockOn: 'Withdrawal address lock is on: withdrawals go only to active addresses of your address book.',
  lockAlreadyOff: 'The withdrawal address lock is already off.',
  lockAlreadyTurningOff: (at: Date, shown: string) =>
    said(
      'The withdrawal address lock is already turning off: it ends at {at}.',
      { at: at.toISOString() },
      `The withdrawal address lock is already turning off: it ends at ${shown}.`,
    ),
  lockOffRequested: (hours: number) =>
    said(
      'We e-mailed you a link to confirm. The lock turns off {hours} hours after you confirm it.',
      { hours },
      `We e-mailed you a link to confirm. The lock turns off ${hours} hours after you confirm it.`,
    ),
  lockOffConfirmed: (at: Date, shown: string) =>
    said(
      'Confirmed: the withdrawal address lock turns off at {at}.',
      { at: at.toISOString() },
      `Confirmed: the withdrawal address lock turns off at ${shown}.`,
    ),
  lockRequired:
    'This platform requires the withdrawal address book for every withdrawal: the lock cannot be turned off.',
  sessionRevoked: 'Session signed out',
  sessionsRevoked: (n: number) =>
    said(
      n === 1 ? '1 other session signed out' : '{n} other sessions signed out',
      { n },
      `${n} other session${n === 1 ? '' : 's'} signed out`,
    ),
  notMeDone:
    'Your account is secured: every session is signed out, its passkeys are removed and withdrawals are frozen. Sign in, change your password, and contact support to lift the freeze.',
  adminSessionsRevoked: (n: number) =>
    said(
      n === 1 ? '1 session signed out' : '{n} sessions signed out',
      { n },
      `${n} session${n === 1 ? '' : 's'} signed out`,
    ),
  adminWithdrawalsFrozen: 'Withdrawals frozen',
  adminWithdrawalsUnfrozen: 'Withdrawals unfrozen',
  // ---------------------------------------------------------------- withdrawal limits and holds
  withdrawalPolicySaved: 'Withdrawal limits saved',
  overLimit: (window: 'day' | 'month', amount: bigint, limit: bigint, at: Date, shown: string) =>
    window === 'day'
      ? said(
          'This withdrawal of {amount}\u00a0USDC would go over your limit of {limit}\u00a0USDC per 24 hours: possible again on {at}.',
          { amount: amount.toString(), limit: limit.toString(), at: at.toISOString() },
          `This withdrawal of ${microToDisplay(amount)}\u00a0USDC would go over your limit of ${microToDisplay(limit)}\u00a0USDC per 24 hours: possible again on ${shown}.`,
        )
      : said(
          'This withdrawal of {amount}\u00a0USDC would go over your limit of {limit}\u00a0USDC per 30 days: possible again on {at}.',
          { amount: amount.toString(), limit: limit.toString(), at: at.toISOString() },
          `This withdrawal of ${microToDisplay(amount)}\u00a0USDC would go over your limit of ${microToDisplay(limit)}\u00a0USDC per 30 days: possible again on ${shown}.`,
        ),
  aboveLimit: (window: 'day' | 'month', amount: bigint, limit: bigint, support: string) =>
    window === 'day'
      ? said(
          'This withdrawal of {amount}\u00a0USDC is more than your limit of {limit}\u00a0USDC per 24 hours. Contact {support} to withdraw it.',
          { amount: amount.toString(), limit: limit.toString(), support },
          `This withdrawal of ${microToDisplay(amount)}\u00a0USDC is more than your limit of ${microToDisplay(limit)}\u00a0USDC per 24 hours. Contact ${support} to withdraw it.`,
        )
      : said(
          'This withdrawal of {amount}\u00a0USDC is more than your limit of {limit}\u00a0USDC per 30 days. Contact {support} to withdraw it.',
          { amount: amount.toString(), limit: limit.toString(), support },
          `This withdrawal of ${microToDisplay(amount)}\u00a0USDC is more than your limit of ${microToDisplay(limit)}\u00a0USDC per 30 days. Contact ${support} to withdraw it.`,
        ),
  overPlatformLimit: (at: Date, shown: string) =>
    said(
      'Withdrawals on the platform have reached their limit for the last 24 hours: possible again on {at}.',
      { at: at.toISOString() },
      `Withdrawals on the platform have reached their limit for the last 24 hours: possible again on ${shown}.`,
    ),
  abovePlatformLimit: (amount: bigint, support: string) =>
    said(
      'This withdrawal of {amount}\u00a0USDC is more than the platform allows in 24 hours. Contact {support} to withdraw it.',
      { amount: amount.toString(), support },
      `This withdrawal of ${microToDisplay(amount)}\u00a0USDC is more than the platform allows in 24 hours. Contact ${support} to withdraw it.`,
    ),
  withdrawalHold: (hours: number, at: Date, shown: string) =>
    said(
      'Withdrawals are on hold for {hours} hours after a security change on your account: possible again on {at}.',
      { hours, at: at.toISOString() },
      `Withdrawals are on hold for ${hours} hours after a security change on your account: possible again on ${shown}.`,
    ),
  // ---------------------------------------------------------------- staff roles and four-eyes
  forbiddenRole: 'Your staff role does not allow this',
  proposalSent: 'Sent for approval: a second staff member must approve it before it takes effect',
  proposalApproved: 'Approved: the change is made',
  proposalRejected: 'Proposal rejected',
  proposalOwn: 'You proposed this: a different staff member must approve it',
  proposalAboutYou: 'This is about your own account: a different staff member must approve it',
  proposalDecided: 'This proposal was already decided',
  proposalExpired: 'This proposal expired after 24 hours. Propose it again if it is still needed.',
  proposalAlreadyOpen: 'This is already waiting for approval in Approvals',
  proposalChanged: 'This changed since it was proposed. Review it and propose again.',
  lastOwner: 'The last owner cannot be removed or demoted',
  fourEyesByHashOnly: (limit: bigint) =>
    said(
      'A withdrawal above {amount}\u00a0USDC needs two staff members: approve it by hash in Pending, then have it approved in Approvals.',
      { amount: String(limit) },
      `A withdrawal above ${microToDisplay(limit)}\u00a0USDC needs two staff members: approve it by hash in Pending, then have it approved in Approvals.`,
    ),
  ownRole: 'You cannot change your own role',
  roleChanged: 'Role changed',
  staffRemoved: 'Staff member removed',
  staffInvited: (email: string) => said('Invitation sent to {email}', { email }, `Invitation sent to ${email}`),
  staffJoined: 'Welcome to the team. Sign in with your e-mail and new password.',
} as const;
