import { confirmationsAt, unavailableText, type Chain, type TransferLog } from '../../chain/chain.ts';
import { MSG } from '@harvest/shared/messages';
import type { Said } from '@harvest/shared/said';
import type { DepositFailureKind } from '@harvest/shared/schemas/deposits';

/**
 * What the chain says about a submitted deposit transaction.
 * - match: a successful transaction carries the expected USDC Transfer (log index given);
 *   `confirmations` counts the transfer's block and every block on top of it.
 * - not_found: no receipt (yet): a just-broadcast transaction may not be visible.
 * - mismatch: the transaction exists and can never be this deposit; `reason` says why.
 * - rpc_error: the node could not be asked; nothing is decided.
 */
export type ChainCheck =
  | { kind: 'match'; transfer: TransferLog; confirmations: number }
  | { kind: 'not_found' }
  | { kind: 'mismatch'; why: DepositFailureKind; reason: string | Said }
  | { kind: 'rpc_error'; message: string };

export interface DepositClaim {
  txHash: string;
  fromAddress: string;
  amount: bigint;
}

const distinct = (values: string[]) => [...new Set(values)];

/**
 * Checks a claim against the chain: a successful transaction with a USDC Transfer from the
 * claimed sender to the deposit address of exactly the claimed amount. Each way it can fail has
 * its own reason, in words the owner can act on.
 */
export async function checkDeposit(
  chain: Chain,
  claim: DepositClaim,
  depositAddress: string,
  wrongRecipient: (to: string[], depositAddress: string) => Said = MSG.depositWrongRecipient,
): Promise<ChainCheck> {
  const read = await chain.receipt(claim.txHash);
  if (!read.ok) return { kind: 'rpc_error', message: unavailableText(read.error) };
  const receipt = read.value;
  if (!receipt.found) return { kind: 'not_found' };
  if (receipt.status !== 'success') return { kind: 'mismatch', why: 'reverted', reason: MSG.depositReverted };

  const to = depositAddress.toLowerCase();
  const usdc = receipt.transfers.filter((t) => t.usdc);
  if (usdc.length === 0) {
    const toUs = receipt.transfers.filter((t) => t.to === to);
    return {
      kind: 'mismatch',
      why: 'wrong_token',
      reason: MSG.depositWrongToken(distinct((toUs.length ? toUs : receipt.transfers).map((t) => t.token))),
    };
  }
  const toUs = usdc.filter((t) => t.to === to);
  if (toUs.length === 0)
    return {
      kind: 'mismatch',
      why: 'wrong_recipient',
      reason: wrongRecipient(distinct(usdc.map((t) => t.to)), to),
    };
  const fromSender = toUs.filter((t) => t.from === claim.fromAddress.toLowerCase());
  if (fromSender.length === 0)
    return {
      kind: 'mismatch',
      why: 'wrong_sender',
      reason: MSG.depositWrongSender(distinct(toUs.map((t) => t.from)), claim.fromAddress.toLowerCase()),
    };
  const exact = fromSender.find((t) => t.value === claim.amount);
  if (!exact)
    return {
      kind: 'mismatch',
      why: 'wrong_amount',
      reason: MSG.depositWrongAmount(
        fromSender.map((t) => t.value),
        claim.amount,
      ),
    };

  const head = await chain.headBlock();
  if (!head.ok) return { kind: 'rpc_error', message: unavailableText(head.error) };
  return { kind: 'match', transfer: exact, confirmations: confirmationsAt(head.value, receipt.blockNumber) };
}
