import type { Hex, Log, PublicClient } from 'viem';

type Viem = typeof import('viem');
let viemModule: Promise<Viem> | undefined;
/**
 * viem is loaded on the first read, not at startup: a server without CHAIN_RPC_URL never loads it
 * (about 16 MB of resident memory, docs/BENCHMARKS.md).
 */
const loadViem = (): Promise<Viem> => (viemModule ??= import('viem'));

/**
 * The one adapter to the chain's JSON-RPC node (docs/decisions/0019). Every read goes through one
 * viem client per configuration (built once with the app), with one timeout and retry policy, a
 * check that the node serves the configured chain, and typed results: an outcome the caller must
 * decide on (a receipt not found, a reverted transaction) is a value, never a thrown error, and a
 * node that cannot be asked is `{ ok: false }` so nothing is decided from it.
 *
 * Modules read facts here and keep their rules to themselves (deposits/deposit-check.ts,
 * withdrawals/payout-check.ts).
 */

/** One policy for every read: a slow or failing node costs at most about 2 x 8 s per read. */
export const CHAIN_READ_POLICY = { timeoutMs: 8_000, retryCount: 1, retryDelayMs: 250 } as const;

export interface ChainSettings {
  rpcUrl: string;
  /** The chain the node must serve (CHAIN_ID); another one is never trusted. */
  chainId: number;
  /** Token contracts accepted as USDC (USDC_CONTRACTS). */
  usdcContracts: string[];
}

/** Why a read has no answer. Nothing may be decided from it: ask again later. */
export type ChainUnavailable =
  | { kind: 'unreachable'; message: string }
  | { kind: 'wrong_chain'; expected: number; actual: number }
  | { kind: 'truncated'; message: string };

export type ChainRead<T> = { ok: true; value: T } | { ok: false; error: ChainUnavailable };

/**
 * One ERC-20 Transfer log, as every reader sees it (a receipt's logs today; block-range log
 * queries read the same shape). Addresses are lowercase; `blockHash` lets a reader notice a
 * re-organisation (the same block number with another hash).
 */
export interface TransferLog {
  token: string;
  from: string;
  to: string;
  value: bigint;
  logIndex: number;
  txHash: string;
  blockNumber: bigint;
  blockHash: string;
  /** The token is one of the configured USDC contracts. */
  usdc: boolean;
}

/** What the watcher needs of a block to check that the chain it reads is one chain (lowercase hashes). */
export interface BlockHeader {
  hash: string;
  parentHash: string;
}

/** A transaction's receipt: absent (not mined, or unknown to this node), or mined with its Transfer logs. */
export type Receipt =
  | { found: false }
  | {
      found: true;
      status: 'success' | 'reverted';
      blockNumber: bigint;
      blockHash: string;
      transfers: TransferLog[];
    };

export interface Chain {
  readonly chainId: number;
  /** The receipt of a transaction and every ERC-20 Transfer log in it. */
  receipt(txHash: string): Promise<ChainRead<Receipt>>;
  /** The number of the newest block (never cached: confirmations count up with it). */
  headBlock(): Promise<ChainRead<bigint>>;
  /** Block `n` on the node's current chain (its hash and its parent's); null when the node has no such block. */
  block(n: bigint): Promise<ChainRead<BlockHeader | null>>;
  /**
   * Every Transfer log of the configured USDC contracts in blocks `fromBlock..toBlock` (one
   * eth_getLogs call: the caller keeps the range within what providers allow). With `to` or `from`, only
   * transfers to or from those addresses (a topic filter: keep each list to a few hundred).
   */
  usdcTransfers(fromBlock: bigint, toBlock: bigint, only?: TransferFilter): Promise<ChainRead<TransferLog[]>>;
  /**
   * USDC (summed over the configured contracts) held by each address, in micro-USDC, read with
   * JSON-RPC batches of balanceOf calls (not one HTTP request per address); at `blockNumber` when given.
   */
  usdcBalances(addresses: string[], blockNumber?: bigint): Promise<ChainRead<Map<string, bigint>>>;
  /** One token's balance of each address (micro-units), in JSON-RPC batches (the sweep plan, per token). */
  tokenBalances(token: string, addresses: string[]): Promise<ChainRead<Map<string, bigint>>>;
  /**
   * What signing an EIP-3009 authorization for a token needs: its EIP-712 domain name and version, and whether it
   * has `transferWithAuthorization` at all (native USDC does; bridged USDC.e does not).
   */
  tokenInfo(token: string): Promise<ChainRead<TokenInfo>>;
  /**
   * The addresses among these that the token refuses to transfer to (native USDC's `isBlacklisted`), or null when the
   * token has no such list (bridged USDC.e, most test tokens).
   */
  refusedBy(token: string, addresses: string[]): Promise<ChainRead<Set<string> | null>>;
  /**
   * Whether `signature` is `address`'s EIP-191 signature of `message`: recovered for a key, asked of the contract
   * (EIP-1271 `isValidSignature`) for a contract wallet such as a Safe.
   */
  verifiesMessage(address: string, message: string, signature: string): Promise<ChainRead<boolean>>;
  /**
   * A contract wallet's owners (lower case) and how many must sign, read as a Safe exposes them (`getOwners`,
   * `getThreshold`); null for a key's address or a contract without them.
   */
  walletOwners(address: string): Promise<ChainRead<{ owners: string[]; threshold: number } | null>>;
}

const SAFE_OWNERS_ABI = [
  {
    type: 'function',
    name: 'getOwners',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address[]' }],
  },
  {
    type: 'function',
    name: 'getThreshold',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const;

/** Senders or recipients a log query is narrowed to. */
export interface TransferFilter {
  to?: string[];
  from?: string[];
}

export interface TokenInfo {
  address: string;
  name: string;
  version: string | null;
  decimals: number;
  eip3009: boolean;
}

/** Native USDC's blacklist read: a payout to a listed address reverts (and a whole Safe batch with it). */
export const BLACKLIST_ABI = [
  {
    type: 'function',
    name: 'isBlacklisted',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;

/** EIP-3009 (native USDC): the reads the server makes, and the call `npm run sweep:submit` sends. */
export const EIP3009_ABI = [
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'validAfter', type: 'uint256' },
      { name: 'validBefore', type: 'uint256' },
      { name: 'nonce', type: 'bytes32' },
      { name: 'v', type: 'uint8' },
      { name: 'r', type: 'bytes32' },
      { name: 's', type: 'bytes32' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'authorizationState',
    stateMutability: 'view',
    inputs: [
      { name: 'authorizer', type: 'address' },
      { name: 'nonce', type: 'bytes32' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  { type: 'function', name: 'version', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'string' }] },
] as const;

/** balanceOf calls per JSON-RPC batch request. */
export const BALANCE_BATCH_SIZE = 500;

/** keccak256('Transfer(address,address,uint256)'): the event's first topic (chain.test.ts checks it). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const WORD = /^0x[0-9a-fA-F]{64}$/;

/**
 * One raw ERC-20 Transfer log (topics: signature, from, to; data: the value), checked for exactly
 * that shape; anything else (an ERC-721 Transfer with the value indexed, a removed log) is not one.
 */
export function decodeRawTransfer(
  l: {
    address: string;
    topics: readonly (string | null)[];
    data: string;
    logIndex: string | null;
    transactionHash: string | null;
    blockNumber: string | null;
    blockHash: string | null;
    removed?: boolean;
  },
  usdcContracts: ReadonlySet<string>,
): TransferLog[] {
  const [sig, from, to] = l.topics;
  if (l.removed || l.topics.length !== 3 || lower(sig ?? '') !== TRANSFER_TOPIC) return [];
  if (!from || !to || !WORD.test(from) || !WORD.test(to) || !WORD.test(l.data)) return [];
  if (!l.transactionHash || !l.blockHash || l.blockNumber === null || l.logIndex === null) return [];
  return [
    {
      token: lower(l.address),
      from: `0x${lower(from.slice(26))}`,
      to: `0x${lower(to.slice(26))}`,
      value: BigInt(l.data),
      logIndex: Number(l.logIndex),
      txHash: lower(l.transactionHash),
      blockNumber: BigInt(l.blockNumber),
      blockHash: lower(l.blockHash),
      usdc: usdcContracts.has(lower(l.address)),
    },
  ];
}

const lower = (s: string) => s.toLowerCase();

/** Confirmations of a block at `head`: the block itself and every block on top of it. */
export function confirmationsAt(head: bigint, blockNumber: bigint): number {
  return head >= blockNumber ? Number(head - blockNumber + 1n) : 0;
}

/** A node's answer that the transaction does not exist (some nodes answer an error instead of null). */
function isNotFound(
  { TransactionReceiptNotFoundError, BaseError, HttpRequestError, RpcRequestError }: Viem,
  err: unknown,
): boolean {
  if (err instanceof TransactionReceiptNotFoundError) return true;
  if (!(err instanceof BaseError) || err.walk((e) => e instanceof HttpRequestError)) return false;
  const rpc = err.walk((e) => e instanceof RpcRequestError);
  return rpc instanceof RpcRequestError && /not (be )?found/i.test(rpc.details || rpc.message);
}

/** A contract call that reverted or answered nothing (the function is not there), as opposed to a node that failed. */
function isMissingFunction(
  { BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError }: Viem,
  err: unknown,
): boolean {
  return (
    err instanceof BaseError &&
    Boolean(err.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError))
  );
}

const firstLine = ({ BaseError }: Viem, err: unknown) =>
  err instanceof BaseError
    ? err.shortMessage
    : err instanceof Error
      ? (err.message.split('\n')[0] ?? 'RPC error')
      : 'RPC error';

function decodeTransfers(
  { parseEventLogs, erc20Abi }: Viem,
  logs: Log[],
  usdcContracts: ReadonlySet<string>,
): TransferLog[] {
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs, strict: true }).flatMap((l) =>
    l.transactionHash && l.blockHash && l.blockNumber !== null && l.logIndex !== null
      ? [
          {
            token: lower(l.address),
            from: lower(l.args.from),
            to: lower(l.args.to),
            value: l.args.value,
            logIndex: l.logIndex,
            txHash: lower(l.transactionHash),
            blockNumber: l.blockNumber,
            blockHash: lower(l.blockHash),
            usdc: usdcContracts.has(lower(l.address)),
          },
        ]
      : [],
  );
}

function clientsOf(
  { createPublicClient, http }: Viem,
  s: ChainSettings,
): { client: PublicClient; batchClient: PublicClient } {
  const client: PublicClient = createPublicClient({
    transport: http(s.rpcUrl, {
      timeout: CHAIN_READ_POLICY.timeoutMs,
      retryCount: CHAIN_READ_POLICY.retryCount,
      retryDelay: CHAIN_READ_POLICY.retryDelayMs,
    }),
  });
  // Balance reads go out as JSON-RPC batches: concurrent calls on this client share one request.
  const batchClient: PublicClient = createPublicClient({
    transport: http(s.rpcUrl, {
      timeout: CHAIN_READ_POLICY.timeoutMs,
      retryCount: CHAIN_READ_POLICY.retryCount,
      retryDelay: CHAIN_READ_POLICY.retryDelayMs,
      batch: { batchSize: BALANCE_BATCH_SIZE, wait: 0 },
    }),
  });
  return { client, batchClient };
}

export function createChain(s: ChainSettings): Chain {
  let clients: { viem: Viem; client: PublicClient; batchClient: PublicClient } | undefined;
  const usdc: ReadonlySet<string> = new Set(s.usdcContracts.map(lower));
  let chainVerified = false;

  /** Runs one read under the policy: the chain id is checked once, every failure becomes a value. */
  async function read<T>(
    fn: (c: PublicClient, viem: Viem, batchClient: PublicClient) => Promise<T>,
  ): Promise<ChainRead<T>> {
    const viem = await loadViem();
    clients ??= { viem, ...clientsOf(viem, s) };
    const { client, batchClient } = clients;
    try {
      if (!chainVerified) {
        const actual = await client.getChainId();
        if (actual !== s.chainId) return { ok: false, error: { kind: 'wrong_chain', expected: s.chainId, actual } };
        chainVerified = true;
      }
      return { ok: true, value: await fn(client, viem, batchClient) };
    } catch (err) {
      return { ok: false, error: { kind: 'unreachable', message: firstLine(viem, err) } };
    }
  }

  return {
    chainId: s.chainId,
    receipt: (txHash) =>
      read(async (c, viem): Promise<Receipt> => {
        try {
          const r = await c.getTransactionReceipt({ hash: txHash as Hex });
          return {
            found: true,
            status: r.status,
            blockNumber: r.blockNumber,
            blockHash: lower(r.blockHash),
            transfers: decodeTransfers(viem, r.logs, usdc),
          };
        } catch (err) {
          if (isNotFound(viem, err)) return { found: false };
          throw err;
        }
      }),
    headBlock: () => read((c) => c.getBlockNumber({ cacheTime: 0 })),
    verifiesMessage: (address, message, signature) =>
      read((c) => c.verifyMessage({ address: address as Hex, message, signature: signature as Hex })),
    walletOwners: (address) =>
      read(async (c) => {
        const code = await c.getCode({ address: address as Hex });
        if (!code || code === '0x') return null;
        // The node answered: a call that fails now is a contract without the Safe's functions.
        const [owners, threshold] = await Promise.all([
          c.readContract({ address: address as Hex, abi: SAFE_OWNERS_ABI, functionName: 'getOwners' }),
          c.readContract({ address: address as Hex, abi: SAFE_OWNERS_ABI, functionName: 'getThreshold' }),
        ]).catch(() => [null, null] as const);
        return owners === null ? null : { owners: owners.map(lower), threshold: Number(threshold) };
      }),
    block: (n) =>
      read(async (c) => {
        // One round trip: a block past the node's head is answered null (viem: BlockNotFoundError).
        try {
          const b = await c.getBlock({ blockNumber: n });
          return b.hash ? { hash: lower(b.hash), parentHash: lower(b.parentHash) } : null;
        } catch (err) {
          if (err instanceof Error && err.name === 'BlockNotFoundError') return null;
          throw err;
        }
      }),
    usdcTransfers: (fromBlock, toBlock, only) =>
      read(async (c, { toHex, pad }) => {
        // Raw eth_getLogs and a fixed-shape decode: viem's generic ABI decoding was 10x slower
        // than the node itself at a few hundred transfers per block (docs/decisions/0080).
        const topic = (list?: string[]): Hex[] | null => list?.map((a) => pad(a as Hex)) ?? null;
        const topics: (Hex | Hex[] | null)[] = only?.to
          ? [TRANSFER_TOPIC, topic(only.from), topic(only.to)]
          : only?.from
            ? [TRANSFER_TOPIC, topic(only.from)]
            : [TRANSFER_TOPIC];
        const logs = await c.request({
          method: 'eth_getLogs',
          params: [
            {
              address: s.usdcContracts as Hex[],
              topics,
              fromBlock: toHex(fromBlock),
              toBlock: toHex(toBlock),
            },
          ],
        });
        return logs.flatMap((l) => decodeRawTransfer(l, usdc));
      }),
    tokenBalances: (token, addresses) =>
      read(async (_c, { erc20Abi }, batchClient) => {
        const out = new Map<string, bigint>();
        for (let i = 0; i < addresses.length; i += BALANCE_BATCH_SIZE) {
          const chunk = addresses.slice(i, i + BALANCE_BATCH_SIZE);
          const values = await Promise.all(
            chunk.map((a) =>
              batchClient.readContract({
                address: token as Hex,
                abi: erc20Abi,
                functionName: 'balanceOf',
                args: [a as Hex],
              }),
            ),
          );
          chunk.forEach((a, j) => out.set(lower(a), values[j] ?? 0n));
        }
        return out;
      }),
    tokenInfo: (token) =>
      read(async (c, { erc20Abi }) => {
        const address = token as Hex;
        const [name, decimals] = await Promise.all([
          c.readContract({ address, abi: erc20Abi, functionName: 'name' }),
          c.readContract({ address, abi: erc20Abi, functionName: 'decimals' }),
        ]);
        // A token without the function reverts (or answers nothing): not an EIP-3009 token.
        const probe = async <T>(fn: () => Promise<T>): Promise<T | null> => {
          try {
            return await fn();
          } catch {
            return null;
          }
        };
        const state = await probe(() =>
          c.readContract({
            address,
            abi: EIP3009_ABI,
            functionName: 'authorizationState',
            args: ['0x0000000000000000000000000000000000000000', `0x${'00'.repeat(32)}`],
          }),
        );
        const version = await probe(() => c.readContract({ address, abi: EIP3009_ABI, functionName: 'version' }));
        return { address: lower(token), name, version, decimals, eip3009: state !== null };
      }),
    refusedBy: (token, addresses) =>
      read(async (c, viem, batchClient) => {
        const ask = (client: PublicClient, a: string) =>
          client.readContract({
            address: token as Hex,
            abi: BLACKLIST_ABI,
            functionName: 'isBlacklisted',
            args: [a as Hex],
          });
        // A token without the list reverts (or answers nothing): nothing is refused. An RPC failure still throws.
        try {
          await ask(c, '0x0000000000000000000000000000000000000000');
        } catch (err) {
          if (isMissingFunction(viem, err)) return null;
          throw err;
        }
        const refused = new Set<string>();
        for (let i = 0; i < addresses.length; i += BALANCE_BATCH_SIZE) {
          const chunk = addresses.slice(i, i + BALANCE_BATCH_SIZE);
          const flags = await Promise.all(chunk.map((a) => ask(batchClient, a)));
          chunk.forEach((a, j) => flags[j] && refused.add(lower(a)));
        }
        return refused;
      }),
    usdcBalances: (addresses, blockNumber) =>
      read(async (_c, { erc20Abi }, batchClient) => {
        const out = new Map<string, bigint>();
        for (let i = 0; i < addresses.length; i += BALANCE_BATCH_SIZE) {
          const chunk = addresses.slice(i, i + BALANCE_BATCH_SIZE);
          const calls = chunk.flatMap((a) =>
            s.usdcContracts.map(async (token) => {
              const v = await batchClient.readContract({
                address: token as Hex,
                abi: erc20Abi,
                functionName: 'balanceOf',
                args: [a as Hex],
                blockNumber,
              });
              out.set(lower(a), (out.get(lower(a)) ?? 0n) + v);
            }),
          );
          await Promise.all(calls);
        }
        return out;
      }),
  };
}

/** A sentence for logs and error texts: why the chain could not be asked. */
export function unavailableText(e: ChainUnavailable): string {
  if (e.kind === 'wrong_chain') return `CHAIN_RPC_URL serves chain ${e.actual}, but CHAIN_ID is ${e.expected}`;
  if (e.kind === 'truncated') return `the node's log answer was cut short: ${e.message}`;
  return `chain RPC unavailable: ${e.message}`;
}

/**
 * `usdcTransfers`, checked for an answer cut short: a provider that caps its answer drops the newest logs
 * without saying so. After the last block answered nothing may come (asked again), and that block asked alone
 * must hold no more logs than the answer gave it; otherwise the read is `truncated` (ask for fewer blocks).
 * A provider that cannot answer one block whole is not detected here (the reconciliation sees what it lost).
 */
export async function completeTransfers(
  chain: Chain,
  fromBlock: bigint,
  toBlock: bigint,
  only?: TransferFilter,
): Promise<ChainRead<TransferLog[]>> {
  const first = await chain.usdcTransfers(fromBlock, toBlock, only);
  if (!first.ok || first.value.length === 0) return first;
  const last = first.value.reduce((m, l) => (l.blockNumber > m ? l.blockNumber : m), fromBlock);
  const cut = (message: string): ChainRead<TransferLog[]> => ({ ok: false, error: { kind: 'truncated', message } });
  if (last < toBlock) {
    const after = await chain.usdcTransfers(last + 1n, toBlock, only);
    if (!after.ok) return after;
    if (after.value.length > 0) return cut(`blocks ${fromBlock}-${toBlock} stopped at block ${last}`);
  }
  const whole = await chain.usdcTransfers(last, last, only);
  if (!whole.ok) return whole;
  if (whole.value.length > first.value.filter((l) => l.blockNumber === last).length)
    return cut(`blocks ${fromBlock}-${toBlock} stopped inside block ${last}`);
  return first;
}
