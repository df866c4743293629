import { unavailableText, type Chain } from '../../chain/chain.ts';

/**
 * What the chain proves about a payout hash:
 * - paid: `value` is the sum (micro-USDC) of the transaction's USDC Transfer logs from the payout
 *   address to the wallet; the caller compares it with what the hash has to cover;
 * - refused: the transaction can never prove this payout (why: an administrator can act on it);
 * - unavailable: the node could not be asked (or serves another chain); nothing is decided.
 */
export type PayoutCheck =
  | { kind: 'paid'; value: bigint }
  | { kind: 'refused'; why: 'not_found' | 'reverted' | 'not_usdc' | 'wrong_sender' | 'wrong_recipient' }
  | { kind: 'unavailable'; message: string };

export async function checkPayout(
  chain: Chain,
  txHash: string,
  payoutAddress: string,
  wallet: string,
): Promise<PayoutCheck> {
  const read = await chain.receipt(txHash);
  if (!read.ok) return { kind: 'unavailable', message: unavailableText(read.error) };
  const receipt = read.value;
  if (!receipt.found) return { kind: 'refused', why: 'not_found' };
  if (receipt.status !== 'success') return { kind: 'refused', why: 'reverted' };
  const usdc = receipt.transfers.filter((t) => t.usdc);
  if (usdc.length === 0) return { kind: 'refused', why: 'not_usdc' };
  const fromPayout = usdc.filter((t) => t.from === payoutAddress.toLowerCase());
  if (fromPayout.length === 0) return { kind: 'refused', why: 'wrong_sender' };
  const toWallet = fromPayout.filter((t) => t.to === wallet.toLowerCase());
  if (toWallet.length === 0) return { kind: 'refused', why: 'wrong_recipient' };
  return { kind: 'paid', value: toWallet.reduce((s, t) => s + t.value, 0n) };
}
