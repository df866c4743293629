/**
 * The texts of the account-security screens (address book, withdrawal lock, sessions, e-mailed links) that the
 * shared schemas report and the web shows. Apart from TEXT, so only the chunks that show them carry them.
 */
export const SECURITY_TEXT = {
  labelRequired: 'Please enter a label for this address',
  labelInvisible: 'Labels cannot contain invisible or text-direction characters',
  addressRequired: 'Please enter the wallet address',
  linkIncomplete: 'This link is incomplete. Open it again from the e-mail.',
  passwordToTurnOff: 'Enter your login password to turn the lock off',
} as const;
