/**
 * "Send from my wallet" (an EIP-1193 browser wallet sends the USDC transfer to the investor's own deposit
 * address). Apart from TEXT so that only the Deposit tab's chunk carries them, not the first load.
 */
export const WALLET_TEXT = {
  rejected: 'You rejected the request in your wallet. Nothing was sent.',
  wrongChain: 'Your wallet could not switch to the Polygon network. Switch it to Polygon in your wallet and try again.',
  noAccount: 'Your wallet did not share an account. Unlock it and try again.',
  insufficientUsdc: 'Your wallet does not hold enough USDC on Polygon for this deposit.',
  insufficientGas: 'Your wallet does not hold enough POL to pay the network fee.',
  failed: 'Your wallet could not send the transfer. Nothing was credited; please try again.',
  sentNotSubmitted: 'Your transfer was sent. It will show up below by itself once the chain watcher finds it.',
} as const;
