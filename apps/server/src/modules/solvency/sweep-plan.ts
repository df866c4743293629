import { microToUsdc } from '@harvest/shared/money';
import { unavailableText, type Chain, type ChainRead, type TokenInfo } from '../../chain/chain.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { allAddresses } from '../deposit-addresses/deposit-addresses.queries.ts';

/**
 * What sweeping the deposit addresses needs, as a file the operator carries to the offline machine that signs
 * (`npm run sweep:sign`, decision 0072): for each address its child index under DEPOSIT_XPUB and its balance of each
 * configured USDC contract, and each token's EIP-712 domain and whether it takes EIP-3009 authorizations. Amounts
 * are micro-units as decimal text (JSON has no big integers). Nothing secret is in it.
 */
export interface SweepPlan {
  kind: 'harvest-farm-sweep-plan';
  version: 1;
  chainId: number;
  createdAt: string;
  block: string | null;
  xpub: string;
  treasury: string | null;
  tokens: TokenInfo[];
  addresses: { childIndex: number; address: string; balances: Record<string, string> }[];
  /** Addresses handed out in all (the plan lists those holding something). */
  addressCount: number;
  totals: Record<string, string>;
}

function must<T>(r: ChainRead<T>): T {
  if (!r.ok) throw new Error(unavailableText(r.error));
  return r.value;
}

/** Reads the plan from the chain (JSON-RPC batches per token); every address with `all`, else those holding USDC. */
export async function readSweepPlan(
  db: Db,
  chain: Chain,
  config: Config,
  opts: { all?: boolean; now: Date },
): Promise<SweepPlan | { error: string }> {
  if (!config.DEPOSIT_XPUB)
    return { error: 'DEPOSIT_XPUB is not set: there are no deposit addresses of their own to sweep.' };
  try {
    const addresses = await allAddresses(db);
    const head = await chain.headBlock();
    const tokens: TokenInfo[] = [];
    const balances = new Map<string, Map<string, bigint>>();
    for (const token of config.USDC_CONTRACTS) {
      tokens.push(must(await chain.tokenInfo(token)));
      balances.set(
        token.toLowerCase(),
        must(
          await chain.tokenBalances(
            token,
            addresses.map((a) => a.address),
          ),
        ),
      );
    }
    const totals: Record<string, string> = {};
    const rows = addresses.flatMap((a) => {
      const held: Record<string, string> = {};
      for (const t of tokens) {
        const v = balances.get(t.address)?.get(a.address) ?? 0n;
        held[t.address] = v.toString();
        totals[t.address] = (BigInt(totals[t.address] ?? 0) + v).toString();
      }
      const any = Object.values(held).some((v) => v !== '0');
      return any || opts.all ? [{ childIndex: a.childIndex, address: a.address, balances: held }] : [];
    });
    return {
      kind: 'harvest-farm-sweep-plan',
      version: 1,
      chainId: config.CHAIN_ID,
      createdAt: opts.now.toISOString(),
      block: head.ok ? head.value.toString() : null,
      xpub: config.DEPOSIT_XPUB,
      treasury: config.TREASURY_ADDRESS?.toLowerCase() ?? null,
      tokens,
      addresses: rows,
      addressCount: addresses.length,
      totals,
    };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** The printed plan: one tab-separated line per address and token, then the totals and what needs the manual way. */
export function sweepPlanLines(plan: SweepPlan): string[] {
  const symbol = (t: TokenInfo) => `${t.name}${t.eip3009 ? '' : ' (no EIP-3009: manual procedure)'}`;
  const holding = plan.addresses.filter((a) => Object.values(a.balances).some((v) => v !== '0'));
  return [
    `Sweep plan: USDC on chain ${plan.chainId}${plan.block !== null ? ` at block ${plan.block}` : ''}, to ${plan.treasury ?? '(TREASURY_ADDRESS not set)'}`,
    'child\tpath (under DEPOSIT_XPUB)\taddress\ttoken\tUSDC',
    ...plan.addresses.flatMap((a) => {
      const held = plan.tokens.filter((t) => a.balances[t.address] !== '0');
      const line = (t: TokenInfo | undefined) =>
        `${a.childIndex}\t.../${a.childIndex}\t${a.address}\t${t?.address ?? '-'}\t${t ? microToUsdc(BigInt(a.balances[t.address] ?? 0)) : 0}`;
      return held.length > 0 ? held.map(line) : [line(undefined)];
    }),
    ...plan.tokens.map(
      (t) => `Total ${symbol(t)} ${t.address}: ${microToUsdc(BigInt(plan.totals[t.address] ?? 0))} USDC`,
    ),
    `${holding.length} of ${plan.addressCount} deposit addresses hold USDC`,
  ];
}
