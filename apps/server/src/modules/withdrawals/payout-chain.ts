import {
  createPublicClient,
  decodeEventLog,
  http,
  parseAbiItem,
  TransactionReceiptNotFoundError,
  type Hex,
  type PublicClient,
} from 'viem';
import { PAYOUT_MSG } from '@harvest/shared/schemas/withdrawals';
import { AppError, badRequest } from '../../lib/errors.ts';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export interface PayoutChainConfig {
  rpcUrl: string;
  usdcContracts: string[];
  payoutAddress: string | undefined;
}

/** What the chain proves about a payout hash: USDC sent from the payout address to a wallet. */
export interface PayoutProof {
  /** Sum (micro-USDC) of the hash's USDC Transfer logs from the payout address to the wallet. */
  value: bigint;
}

export interface PayoutVerifier {
  verify(txHash: string, wallet: string): Promise<PayoutProof>;
}

/**
 * Reads a payout transaction's receipt and finds its USDC transfer to the withdrawal's
 * wallet. Refuses with the reason an admin can act on: not found, reverted, not USDC, not
 * from the payout address, not to the wallet. The amount is compared by the caller, who
 * knows what else the same hash already paid.
 */
export function chainPayoutVerifier(cfg: PayoutChainConfig, client?: PublicClient): PayoutVerifier {
  const rpc = client ?? createPublicClient({ transport: http(cfg.rpcUrl, { timeout: 15_000, retryCount: 1 }) });
  const usdc = new Set(cfg.usdcContracts.map((a) => a.toLowerCase()));
  return {
    async verify(txHash, wallet) {
      if (!cfg.payoutAddress) throw new AppError('unavailable', PAYOUT_MSG.noPayoutAddress);
      const payout = cfg.payoutAddress.toLowerCase();
      let receipt;
      try {
        receipt = await rpc.getTransactionReceipt({ hash: txHash as Hex });
      } catch (err) {
        if (
          err instanceof TransactionReceiptNotFoundError ||
          (err instanceof Error && /not (be )?found/i.test(err.message))
        )
          throw badRequest(PAYOUT_MSG.notFound, 'chain_mismatch');
        throw new AppError('upstream_error', PAYOUT_MSG.unreachable);
      }
      if (receipt.status !== 'success') throw badRequest(PAYOUT_MSG.reverted, 'chain_mismatch');
      const transfers = receipt.logs.flatMap((log) => {
        try {
          const ev = decodeEventLog({ abi: [TRANSFER], data: log.data, topics: log.topics });
          return [
            {
              token: log.address.toLowerCase(),
              from: ev.args.from.toLowerCase(),
              to: ev.args.to.toLowerCase(),
              value: ev.args.value,
            },
          ];
        } catch {
          return [];
        }
      });
      const usdcTransfers = transfers.filter((t) => usdc.has(t.token));
      if (usdcTransfers.length === 0) throw badRequest(PAYOUT_MSG.wrongToken, 'chain_mismatch');
      const fromPayout = usdcTransfers.filter((t) => t.from === payout);
      if (fromPayout.length === 0) throw badRequest(PAYOUT_MSG.wrongSender, 'chain_mismatch');
      const toWallet = fromPayout.filter((t) => t.to === wallet.toLowerCase());
      if (toWallet.length === 0) throw badRequest(PAYOUT_MSG.wrongRecipient, 'chain_mismatch');
      return { value: toWallet.reduce((s, t) => s + t.value, 0n) };
    },
  };
}
