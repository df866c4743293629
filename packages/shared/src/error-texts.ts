import type { ErrorCode } from './errors.ts';

/**
 * What each error code means, in a sentence: said (translated) in a language other than English when the server's
 * own text is not in the catalogue (docs/decisions/0075). English always shows the server's text instead (the
 * spec), so these are never shown in English. Loaded only with another language.
 */
export const CODE_TEXT: Record<ErrorCode, string> = {
  validation: 'Some of what you entered is not valid. Check it and try again.',
  insufficient_funds: 'Insufficient balance',
  no_funds: 'No available funds to withdraw',
  weekday_only: 'This is only available Monday through Friday.',
  too_early: 'This is not possible yet. Please wait and try again later.',
  invalid_code: 'Invalid or expired verification code',
  chain_mismatch: 'The transaction on the blockchain does not match what was entered.',
  unauthorized: 'Please sign in to continue',
  session_expired: 'Your session has expired. Please sign in again.',
  session_revoked: 'This session was signed out from another device. Please sign in again.',
  invalid_credentials: 'Invalid email or password',
  wrong_password: 'The password is incorrect.',
  two_factor_required: 'Enter the 6-digit code from your authenticator app',
  two_factor_invalid: 'Invalid authentication code',
  passkey_required: 'Confirm this with your passkey.',
  passkey_invalid: 'The passkey confirmation was not accepted. Try again.',
  address_proof_invalid:
    'The wallet signature does not prove this address. Sign a new message with the wallet that owns it.',
  forbidden: 'You do not have permission to do this',
  blocked: 'Your account has been blocked. Please contact support.',
  admin_two_factor_required:
    'Administrator actions require two-factor authentication. Turn it on in your profile and sign in again.',
  not_found: 'Not found',
  request_timeout: 'The request took too long to arrive. Please try again.',
  conflict: 'This changed in the meantime. Refresh and try again.',
  in_payment: 'This withdrawal is in a payout batch, which decides it. Cancel the batch first.',
  batch_downloaded: 'The file of this batch was downloaded: confirm it was not executed before cancelling.',
  payee_refused: 'USDC refuses transfers to this wallet address: it cannot be paid there.',
  tier_changed: 'This tier changed. Review it and try again.',
  balance_changed: 'The balance changed in the meantime. Review and try again.',
  idempotency_in_progress: 'This request is still being processed. Please wait a moment.',
  payload_too_large: 'Request body is too large',
  headers_too_large: 'Request headers are too large',
  unsupported_media_type: 'The request could not be read. Please try again.',
  idempotency_mismatch: 'This Idempotency-Key was used with a different request',
  rate_limited: 'Too many requests. Please try again later.',
  internal: 'Something went wrong. Please try again later.',
  upstream_error: 'The blockchain node cannot be reached right now. Please try again in a few minutes.',
  unavailable: 'This is not available right now. Please try again later.',
  overloaded: 'The server is busy. Please try again in a moment.',
  invalid_link: 'This link is invalid, already used or expired.',
  address_not_active: 'Withdrawals go only to an active address of your address book.',
  withdrawals_frozen: 'Withdrawals are frozen on this account. Contact support to have the freeze lifted.',
  withdrawal_limit: 'This withdrawal would go over a withdrawal limit.',
  withdrawal_hold: 'Withdrawals are on hold after a security change on your account.',
  forbidden_role: 'Your staff role does not allow this',
  own_proposal: 'You proposed this: a different staff member must approve it',
  proposal_closed: 'This proposal was already decided, expired, or changed since it was proposed.',
  last_owner: 'The last owner cannot be removed or demoted',
};
