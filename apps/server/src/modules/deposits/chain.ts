import {
  createPublicClient,
  erc20Abi,
  http,
  parseEventLogs,
  TransactionReceiptNotFoundError,
  type Hex,
  type PublicClient,
} from 'viem';
import { microToText } from '@harvest/shared/money';
import type { Config } from '../../config.ts';

/**
 * What the chain says about a submitted deposit transaction.
 * - match: a successful transaction carries the expected USDC Transfer (log index given);
 *   `confirmations` counts the transfer's block and every block on top of it.
 * - not_found: no receipt (yet): a just-broadcast transaction may not be visible.
 * - mismatch: the transaction exists and can never be this deposit; `reason` says why.
 * - rpc_error: the node could not be asked; nothing is decided.
 */
export type ChainCheck =
  | { kind: 'match'; logIndex: number; confirmations: number }
  | { kind: 'not_found' }
  | { kind: 'mismatch'; reason: string }
  | { kind: 'rpc_error'; message: string };

export interface DepositClaim {
  txHash: string;
  fromAddress: string;
  amount: bigint;
}

export interface ChainVerifier {
  check(claim: DepositClaim): Promise<ChainCheck>;
}

const NETWORK = 'Polygon';
const short = (a: string) => a.toLowerCase();

/** Reasons a person can act on (DOMAIN.md: "failed, with the reason"). */
export const REASONS = {
  reverted:
    'The transaction failed (reverted) on chain, so no USDC was transferred. Send a new transaction and submit its hash.',
  notFound: (chainId: number) =>
    `Transaction not found on the ${NETWORK} network (chain ${chainId}). Check the hash, and that you sent it on ${NETWORK}, then correct this deposit.`,
  wrongToken: (contracts: string[]) =>
    `This transaction does not transfer USDC on ${NETWORK}${contracts.length ? ` (token contract ${contracts.map(short).join(', ')})` : ''}. Only USDC on the ${NETWORK} network is accepted: check the network and token.`,
  wrongRecipient: (to: string[], depositAddress: string) =>
    `Wrong recipient: this transaction sent USDC to ${to.map(short).join(', ')}, not to the platform deposit address ${short(depositAddress)}.`,
  wrongSender: (from: string[], entered: string) =>
    `Wrong sender: the USDC in this transaction came from ${from.map(short).join(', ')}, not from the address you entered (${short(entered)}). Enter the address you sent from.`,
  wrongAmount: (chain: bigint[], entered: bigint) =>
    `Amount differs: the chain shows ${chain.map((v) => `${microToText(v)} USDC`).join(', ')} for this transfer, but you entered ${microToText(entered)} USDC. Correct the amount to ${microToText(chain[0] ?? 0n)}.`,
} as const;

interface ChainSettings {
  rpcUrl: string;
  chainId: number;
  usdcContracts: string[];
  depositAddress: string;
  timeoutMs?: number;
}

export function createChainVerifier(s: ChainSettings): ChainVerifier {
  const client: PublicClient = createPublicClient({
    transport: http(s.rpcUrl, { retryCount: 0, timeout: s.timeoutMs ?? 10_000 }),
  });
  const allowed = new Set(s.usdcContracts.map((a) => a.toLowerCase()));
  const depositAddress = s.depositAddress.toLowerCase();
  let chainChecked = false;

  async function check(claim: DepositClaim): Promise<ChainCheck> {
    try {
      if (!chainChecked) {
        const id = await client.getChainId();
        if (id !== s.chainId)
          return { kind: 'rpc_error', message: `CHAIN_RPC_URL serves chain ${id}, but CHAIN_ID is ${s.chainId}` };
        chainChecked = true;
      }
      let receipt;
      try {
        receipt = await client.getTransactionReceipt({ hash: claim.txHash as Hex });
      } catch (err) {
        if (err instanceof TransactionReceiptNotFoundError) return { kind: 'not_found' };
        throw err;
      }
      if (receipt.status !== 'success') return { kind: 'mismatch', reason: REASONS.reverted };

      const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
      const usdc = transfers.filter((l) => allowed.has(l.address.toLowerCase()));
      if (usdc.length === 0) {
        const toUs = transfers.filter((l) => l.args.to.toLowerCase() === depositAddress);
        return {
          kind: 'mismatch',
          reason: REASONS.wrongToken([...new Set((toUs.length ? toUs : transfers).map((l) => l.address))]),
        };
      }
      const toUs = usdc.filter((l) => l.args.to.toLowerCase() === depositAddress);
      if (toUs.length === 0)
        return {
          kind: 'mismatch',
          reason: REASONS.wrongRecipient([...new Set(usdc.map((l) => l.args.to))], depositAddress),
        };
      const fromSender = toUs.filter((l) => l.args.from.toLowerCase() === claim.fromAddress.toLowerCase());
      if (fromSender.length === 0)
        return {
          kind: 'mismatch',
          reason: REASONS.wrongSender([...new Set(toUs.map((l) => l.args.from))], claim.fromAddress),
        };
      const exact = fromSender.find((l) => l.args.value === claim.amount);
      if (!exact)
        return {
          kind: 'mismatch',
          reason: REASONS.wrongAmount(
            fromSender.map((l) => l.args.value),
            claim.amount,
          ),
        };

      const head = await client.getBlockNumber({ cacheTime: 0 });
      const confirmations = head >= receipt.blockNumber ? Number(head - receipt.blockNumber + 1n) : 0;
      return { kind: 'match', logIndex: exact.logIndex, confirmations };
    } catch (err) {
      return {
        kind: 'rpc_error',
        message: err instanceof Error ? (err.message.split('\n')[0] ?? 'RPC error') : 'RPC error',
      };
    }
  }

  return { check };
}

const verifiers = new WeakMap<Config, ChainVerifier>();

/** The verifier for this configuration, or null without CHAIN_RPC_URL (demo deposits). */
export function chainVerifier(config: Config): ChainVerifier | null {
  if (!config.CHAIN_RPC_URL) return null;
  let v = verifiers.get(config);
  if (!v) {
    v = createChainVerifier({
      rpcUrl: config.CHAIN_RPC_URL,
      chainId: config.CHAIN_ID,
      usdcContracts: config.USDC_CONTRACTS,
      depositAddress: config.DEPOSIT_ADDRESS,
    });
    verifiers.set(config, v);
  }
  return v;
}
