import type { AppContext } from '../../context.ts';
import { createDeriver, type AddressDeriver } from './derive.ts';
import * as q from './deposit-addresses.queries.ts';

/** The chain watcher's cursor name (chain_cursors.name). */
export const DEPOSIT_WATCHER = 'deposits';

const derivers = new Map<string, AddressDeriver>();
function deriver(xpub: string): AddressDeriver {
  let d = derivers.get(xpub);
  if (!d) derivers.set(xpub, (d = createDeriver(xpub)));
  return d;
}

/** Per-investor addresses are on when DEPOSIT_XPUB is set (it wins over DEPOSIT_ADDRESS). */
export const perInvestorAddresses = (ctx: AppContext) => Boolean(ctx.config.DEPOSIT_XPUB);

/**
 * The user's own deposit address, handed out on first use: the next investor number from the
 * sequence, the address of that child of DEPOSIT_XPUB, and the block from which it counts (decision 0068).
 * Null without DEPOSIT_XPUB.
 */
export async function ensureDepositAddress(ctx: AppContext, userId: string): Promise<string | null> {
  const xpub = ctx.config.DEPOSIT_XPUB;
  if (!xpub) return null;
  const existing = await q.findAddressOf(ctx.db, userId);
  if (existing) return existing.address;
  const childIndex = await q.nextChildIndex(ctx.db);
  const inserted = await q.insertAddress(ctx.db, {
    userId,
    childIndex,
    address: deriver(xpub).address(childIndex),
    // The watcher's next block (it has read every block before it), or where it will start on a new platform.
    fromBlock: (await q.watcherNextBlock(ctx.db, DEPOSIT_WATCHER)) ?? ctx.config.depositStartBlock,
    createdAt: ctx.clock.now(),
  });
  if (inserted) return inserted.address;
  // Another request handed one out first; the number drawn here stays unused (never reused).
  const winner = await q.findAddressOf(ctx.db, userId);
  if (!winner) throw new Error('deposit address vanished');
  return winner.address;
}

/** The address this user sends USDC to: their own (DEPOSIT_XPUB) or the shared DEPOSIT_ADDRESS. */
export async function depositAddressFor(ctx: AppContext, userId: string): Promise<string> {
  return (await ensureDepositAddress(ctx, userId)) ?? ctx.config.DEPOSIT_ADDRESS;
}
