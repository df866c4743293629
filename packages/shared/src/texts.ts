import { said } from './said.ts';

/**
 * The texts the web app shows and the shared schemas report (the spec's words, docs/product-spec.md
 * sections 5 and 8, and the texts it leaves open): a small module, so a page's first load does not
 * carry the server's catalogue. `MSG` (messages.ts) is TEXT plus the texts only the server answers;
 * both are one catalogue (docs/decisions/0004, 0022). Clients never match on these texts: they
 * switch on the error code (packages/shared/src/errors.ts).
 */
export const TEXT = {
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
  notFound: 'Not found',
  invalidTxHash: 'Invalid transaction hash: expected 0x followed by 64 hex characters',
  rejectReasonRequired: 'Please enter the reason for rejecting this deposit',
  rejectReasonTooLong: 'Reason must be at most 500 characters',
  rejectDepositFailed: 'Failed to reject deposit',
  dismissDepositFailed: 'Failed to dismiss deposit',
  invalidWallet: 'Invalid wallet address: expected 0x followed by 40 hex characters',
  walletChecksum: 'This address has a typo: its checksum does not match',
  batchEmpty: 'Select at least one pending withdrawal',
  batchTooLarge: (n: number) =>
    said('A batch holds at most {n} withdrawals', { n }, `A batch holds at most ${n} withdrawals`),
  batchGroupedRequired: 'Choose one transfer per withdrawal or per request',

  // ---------------------------------------------------------------- accounts, sessions, second factor
  invalidCredentials: 'Invalid email or password',
  blocked: 'Your account has been blocked. Please contact support.',
  unauthorized: 'Please sign in to continue',
  sessionExpired: 'Your session has expired. Please sign in again.',
  sessionEndedElsewhere: 'This session was signed out from another device. Please sign in again.',
  signedOutElsewhere: 'You signed out in another tab. Please sign in again.',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  invalidPhone: 'Invalid phone number',
  nameInvisible: 'Names cannot contain invisible or text-direction characters',
  emailInvisible: 'This email address contains invisible or text-direction characters',
  emailMixedScripts:
    'This email address mixes alphabets (for example a Cyrillic letter among Latin ones). Type it in one alphabet.',
  withdrawalPasswordSame: 'Withdrawal password must be different from your login password',
  currentPasswordRequired: 'Current password is required to change your password',
  currentPasswordWrong: 'Current password is incorrect',
  currentPasswordRequiredForChange: 'Enter your current password to confirm this change',
  totpRequired: 'Enter the 6-digit code from your authenticator app',
  invalidDeviceId: 'Invalid device id',

  // ---------------------------------------------------------------- deposits
  invalidDepositAmount: 'Invalid amount: enter a number of USDC with at most 6 decimals',
  amountTooLarge: 'Amount must be at most 1,000,000,000 USDC',
  amountTooPrecise: 'Amount must have at most 6 decimals',
  balanceNoteDefault: 'Admin balance update',
  noteTooLong: 'Note must be at most 500 characters',

  // ---------------------------------------------------------------- tiers, investments, cycles
  chooseTier: 'Please choose an investment tier',
  tierChanged: 'This tier changed. Review it and try again.',
  weekdayStart: 'Earning cycles can only be started Monday through Friday. Please try again on a weekday.',

  // ---------------------------------------------------------------- withdrawals and payouts
  withdrawalPasswordRequired: 'Please enter your withdrawal password',
  withdrawalPasswordWrong: 'Withdrawal password is incorrect',
  notesTooLong: 'Notes must be at most 1000 characters',

  // ---------------------------------------------------------------- back office
  invalidPeriod: 'Period must be one of 7, 14, 30 or 90 days',
  tierNameRequired: 'Tier name is required',
  tierNameTooLong: 'Tier name must be at most 100 characters',
  tierAmountInvalid: 'Tier amount must be a USDC amount greater than 0 with at most 6 decimals',
  tierRateInvalid: 'Daily rate must be a percentage greater than 0 and at most 100, with at most 4 decimals',
  invalidStatusFilter: 'Unknown status filter',
  usersFailed: 'Failed to load users',
  dashboardFailed: 'Failed to load admin dashboard',
  referralsFailed: 'Failed to load referral network',
  tierSaveFailed: 'Failed to save tier',
  auditFailed: 'Failed to load audit log',
  exportFailed: 'Failed to download the export',

  // ---------------------------------------------------------------- statements
  statementDate: 'Dates must be real calendar days written as YYYY-MM-DD',
  statementOrder: 'The start date must be on or before the end date',
  statementTooLong: 'A statement covers at most 366 days',
  statementFormat: 'Format must be json, csv or pdf',
  statementFailed: 'Failed to load the statement',
  statementDownloadFailed: 'Failed to download the statement',

  // ---------------------------------------------------------------- full history
  historyPageInvalid: 'Page must be a whole number of at least 1',
  historySearchInvalid: 'Search must be a text of at most 100 characters',
  // ---------------------------------------------------------------- preferences
  preferencesEmpty: 'Choose a setting to change',
  // ---------------------------------------------------------------- withdrawal limits
  withdrawalLimitInvalid: 'A limit must be a USDC amount greater than 0 with at most 6 decimals, or empty for no limit',
  withdrawalPolicyFailed: 'Failed to save withdrawal limits',
  // ---------------------------------------------------------------- passkeys and wallet proofs
  passkeyNameRequired: 'Please enter a name for this passkey',
} as const;

/** A text over its field's limit (MAX_LENGTH): "First name must be at most 100 characters". */
export const tooLongText = (field: string, max: number) =>
  said('{field} must be at most {max} characters', { field, max }, `${field} must be at most ${max} characters`);
