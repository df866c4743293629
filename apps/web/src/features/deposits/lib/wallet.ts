import { createPublicClient, createWalletClient, custom, erc20Abi, type Address, type Hex } from 'viem';
import { WALLET_TEXT } from '@harvest/shared/wallet-texts';

/**
 * "Send from my wallet" (docs/decisions/0038): the investor's EIP-1193 browser wallet
 * sends the USDC `transfer` to their own deposit address. Loaded only when the button is pressed
 * (dynamic import), so viem's wallet code never weighs on the first load.
 */

/** The part of an EIP-1193 provider (window.ethereum) this needs. */
export interface Eip1193 {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

/** A refusal the investor can act on, in words for the screen. */
export class WalletError extends Error {}

/** The error and every `cause` under it (viem wraps the provider's error a few levels deep). */
function chainOf(err: unknown): { name?: unknown; code?: unknown; message?: unknown }[] {
  const out: { name?: unknown; code?: unknown; message?: unknown }[] = [];
  let e: unknown = err;
  for (let i = 0; e && typeof e === 'object' && i < 12; i++) {
    out.push(e as { name?: unknown; code?: unknown; message?: unknown });
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

const rejected = (err: unknown) => chainOf(err).some((e) => e.code === 4001 || e.name === 'UserRejectedRequestError');
const noFunds = (err: unknown) =>
  chainOf(err).some(
    (e) =>
      e.name === 'InsufficientFundsError' || (typeof e.message === 'string' && /insufficient funds/i.test(e.message)),
  );

/** What the screen says for a failure of the wallet or of the node behind it. */
export function walletErrorText(err: unknown): string {
  if (err instanceof WalletError) return err.message;
  if (rejected(err)) return WALLET_TEXT.rejected;
  if (noFunds(err)) return WALLET_TEXT.insufficientGas;
  return WALLET_TEXT.failed;
}

/**
 * Asks the wallet for its account, switches it to `chainId`, checks its USDC balance and sends
 * `amount` (micro-USDC, the token's 6 decimals) to `to`. Returns the transaction hash and the sender.
 */
export async function sendFromWallet(
  provider: Eip1193,
  opts: { chainId: number; token: Address; to: Address; amount: bigint },
): Promise<{ hash: Hex; from: Address }> {
  const transport = custom(provider);
  const wallet = createWalletClient({ transport });
  const [from] = await wallet.requestAddresses();
  if (!from) throw new WalletError(WALLET_TEXT.noAccount);
  if ((await wallet.getChainId()) !== opts.chainId) {
    try {
      await wallet.switchChain({ id: opts.chainId });
    } catch (err) {
      if (rejected(err)) throw new WalletError(WALLET_TEXT.rejected);
      throw new WalletError(WALLET_TEXT.wrongChain);
    }
    if ((await wallet.getChainId()) !== opts.chainId) throw new WalletError(WALLET_TEXT.wrongChain);
  }
  const reader = createPublicClient({ transport });
  const held = await reader.readContract({
    address: opts.token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [from],
  });
  if (held < opts.amount) throw new WalletError(WALLET_TEXT.insufficientUsdc);
  const hash = await wallet.writeContract({
    account: from,
    chain: null,
    address: opts.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [opts.to, opts.amount],
  });
  return { hash, from };
}

/**
 * Waits (through the wallet's own node) until the transfer is in a block, so the submitted hash is
 * found at once; false when it is not within `timeoutMs` (the chain watcher finds it later anyway).
 */
export async function waitMined(provider: Eip1193, hash: Hex, timeoutMs = 60_000): Promise<boolean> {
  const reader = createPublicClient({ transport: custom(provider) });
  try {
    await reader.waitForTransactionReceipt({ hash, timeout: timeoutMs, pollingInterval: 1_000 });
    return true;
  } catch {
    return false;
  }
}
