/**
 * Stable machine codes of every error the API answers, and the HTTP status each one has.
 * Clients switch on `code`; people read `error` (the spec's words). Rewording a message never
 * changes a code, so a screen that reacts to an error (the Blocked screen, the second-factor
 * prompt, an expired session) keeps working.
 */
export const ERROR_STATUS = {
  /** Input that breaks a rule: a missing field, a bad format, a value out of range. */
  validation: 400,
  /** The account cannot pay for this (balance below the tier amount). */
  insufficient_funds: 400,
  /** Nothing to withdraw. */
  no_funds: 400,
  /** Investing, starting or completing is for Monday to Friday only. */
  weekday_only: 400,
  /** Too early: the cycle has not ended yet, or the 48-hour wait after a payout runs. */
  too_early: 400,
  /** An e-mail verification code that is wrong, expired or used up. */
  invalid_code: 400,
  /** A proof read from the chain does not match (wrong token, sender, recipient, amount). */
  chain_mismatch: 400,
  /** An e-mailed link (confirm an address, confirm the lock off, "this wasn't me") that is unknown, used or expired. */
  invalid_link: 400,
  /** No session token, or one that is not ours. */
  unauthorized: 401,
  /** The session ended (expired, logged out, password changed): sign in again. */
  session_expired: 401,
  /** The session was signed out from another device (a sign-out of it, of every other one, "this wasn't me"). */
  session_revoked: 401,
  /** Wrong e-mail or password at sign-in. */
  invalid_credentials: 401,
  /** The current password (or withdrawal password) given to confirm an action is wrong. */
  wrong_password: 401,
  /** Sign-in needs the authenticator code. */
  two_factor_required: 401,
  /** The authenticator or recovery code is wrong. */
  two_factor_invalid: 401,
  /** This account has a passkey: the request needs a passkey assertion made for exactly it. */
  passkey_required: 401,
  /** The passkey assertion is wrong, expired, already used or made for another request. */
  passkey_invalid: 401,
  /** The wallet's signature does not prove the address (another key, another address, a used or expired message). */
  address_proof_invalid: 400,
  /** Not allowed for this user. */
  forbidden: 403,
  /** The account is blocked: only the Blocked screen and logout remain. */
  blocked: 403,
  /** Administrator actions need a session signed in with the second factor. */
  admin_two_factor_required: 403,
  /** With the withdrawal address lock on, Withdraw All pays only to an active address of the book. */
  address_not_active: 403,
  /** Withdrawals of this account are frozen ("this wasn't me", or an administrator): only an administrator lifts it. */
  withdrawals_frozen: 403,
  /** Withdraw All would go over a withdrawal limit (the investor's per 24 h or 30 days, or the platform's). */
  withdrawal_limit: 403,
  /** Withdrawals are held for SECURITY_HOLD_HOURS after a security change on the account. */
  withdrawal_hold: 403,
  /** The staff member's role does not allow this (packages/shared/src/staff.ts). */
  forbidden_role: 403,
  /** Four-eyes: the proposer cannot approve their own proposal. */
  own_proposal: 403,
  /** No such thing, or not yours. */
  not_found: 404,
  /** The request took too long to arrive. */
  request_timeout: 408,
  /** The state changed first (already decided, already running, already taken). */
  conflict: 409,
  /** A withdrawal in a payout batch is decided by the batch: cancel the batch first (or wait for its grace to end). */
  in_payment: 409,
  /** A batch whose file was downloaded is cancelled only once the administrator confirms it was not executed. */
  batch_downloaded: 409,
  /** The token refuses transfers to the wallet (USDC's blacklist): it cannot be paid there. */
  payee_refused: 409,
  /** The tier was changed or deactivated after the investor saw it: show the tiers again. */
  tier_changed: 409,
  /** Update Balance: the balance is no longer the one the administrator saw. */
  balance_changed: 409,
  /** Four-eyes: the proposal was already decided, expired, or what it showed has changed since. */
  proposal_closed: 409,
  /** The platform keeps at least one owner. */
  last_owner: 409,
  /** A request with this Idempotency-Key is still being processed. */
  idempotency_in_progress: 409,
  /** The request body is over the size limit. */
  payload_too_large: 413,
  /** The request headers are over the size limit. */
  headers_too_large: 431,
  /** The body is not JSON (Content-Type). */
  unsupported_media_type: 415,
  /** This Idempotency-Key was used with another request. */
  idempotency_mismatch: 422,
  /** Too many requests or too many wrong secrets: wait for Retry-After. */
  rate_limited: 429,
  /** Unexpected: logged on the server, no detail for the client. */
  internal: 500,
  /** A service we depend on (the chain's RPC node) answered badly or not at all. */
  upstream_error: 502,
  /** Not available right now (e-mail delivery, a missing setting). */
  unavailable: 503,
  /** The server is behind on its work: a polled read is refused before it would be answered late; ask again after Retry-After. */
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
