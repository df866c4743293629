import { microToUsdc } from '@harvest/shared/money';
import type { Solvency } from '@harvest/shared/schemas/solvency';
import { unavailableText } from '../../chain/chain.ts';
import { DEMO_DEPOSIT_ADDRESS } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { allAddresses } from '../deposit-addresses/deposit-addresses.queries.ts';
import * as q from './solvency.queries.ts';

/** The platform's addresses whose USDC counts as assets: investors' deposit addresses, DEPOSIT_ADDRESS (unless the demo one), PAYOUT_ADDRESS. */
export async function platformAddresses(ctx: AppContext): Promise<{ address: string; kind: q.BalanceKind }[]> {
  const out: { address: string; kind: q.BalanceKind }[] = (await allAddresses(ctx.db)).map((a) => ({
    address: a.address,
    kind: 'deposit',
  }));
  const shared = ctx.config.DEPOSIT_ADDRESS.toLowerCase();
  if (shared !== DEMO_DEPOSIT_ADDRESS.toLowerCase()) out.push({ address: shared, kind: 'shared' });
  if (ctx.config.PAYOUT_ADDRESS) out.push({ address: ctx.config.PAYOUT_ADDRESS.toLowerCase(), kind: 'payout' });
  return out;
}

/**
 * Reads the USDC of every platform address (JSON-RPC batches) and caches it: the solvency view
 * answers from the cache, never one chain call per address per request. Run by the background job.
 */
export async function refreshOnchainBalances(ctx: AppContext): Promise<{ addresses: number } | { error: string }> {
  if (!ctx.chain) return { addresses: 0 };
  const addresses = await platformAddresses(ctx);
  const read = await ctx.chain.usdcBalances(addresses.map((a) => a.address));
  if (!read.ok) return { error: unavailableText(read.error) };
  const readAt = ctx.clock.now();
  await q.saveBalances(
    ctx.db,
    addresses.map((a) => ({ ...a, balance: read.value.get(a.address) ?? 0n })),
    readAt,
  );
  return { addresses: addresses.length };
}

export async function solvency(ctx: AppContext): Promise<Solvency> {
  const [liabilities, totals] = await Promise.all([q.userLiabilities(ctx.db), q.onchainTotals(ctx.db)]);
  const total = (...kinds: string[]) => totals.filter((t) => kinds.includes(t.kind)).reduce((n, t) => n + t.total, 0n);
  const deposit = total('deposit', 'shared');
  const payout = total('payout');
  const oldest = totals.reduce<Date | null>((o, t) => (o === null || t.oldest < o ? t.oldest : o), null);
  return {
    liabilities: microToUsdc(liabilities),
    assets: { depositAddresses: microToUsdc(deposit), payoutAddress: microToUsdc(payout) },
    // Integer arithmetic to 4 decimals (1.2345 = 123.45 %), then a number.
    coverage: liabilities > 0n ? Number(((deposit + payout) * 10_000n) / liabilities) / 10_000 : null,
    asOf: oldest ? oldest.toISOString() : null,
  };
}
