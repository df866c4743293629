import { unavailableText } from '../../chain/chain.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { queueMails } from '../../mail/outbox.ts';
import * as bq from './batches.queries.ts';

type Payee = { id: string; userId: string; walletAddress: string; netAmount: bigint; payeeRefusedAt: Date | null };

/**
 * Whether the payout token pays these withdrawals' wallets: native USDC refuses transfers to addresses its issuer
 * blacklisted, and one such transfer reverts a whole Safe batch. Marks the refused ones (each owner is mailed once:
 * choose another address) and clears the mark of those no longer refused. Answers the refused wallets; an empty set
 * without a chain or when the token keeps no such list; `error` when the chain could not be asked.
 */
export async function checkPayees(
  ctx: AppContext,
  rows: Payee[],
): Promise<{ refused: Set<string> } | { error: string }> {
  const token = ctx.config.USDC_CONTRACTS[0];
  if (!ctx.chain || !token || rows.length === 0) return { refused: new Set() };
  const read = await ctx.chain.refusedBy(token, [...new Set(rows.map((r) => r.walletAddress))]);
  if (!read.ok) return { error: unavailableText(read.error) };
  const refused = read.value ?? new Set<string>();
  const now = ctx.clock.now();
  const mark = rows.filter((r) => refused.has(r.walletAddress) && !r.payeeRefusedAt).map((r) => r.id);
  const clear = rows.filter((r) => !refused.has(r.walletAddress) && r.payeeRefusedAt).map((r) => r.id);
  if (mark.length > 0 || clear.length > 0)
    await inTransaction(ctx.db, async (tx) => {
      const marked = await bq.markPayeesRefused(tx, mark, now);
      await bq.clearPayeesRefused(tx, clear);
      await queueMails(
        tx,
        ctx,
        marked.map((w) => ({
          userId: w.userId,
          event: { kind: 'withdrawal_unpayable' as const, net: w.netAmount, wallet: w.walletAddress, at: now },
        })),
      );
    });
  return { refused };
}
