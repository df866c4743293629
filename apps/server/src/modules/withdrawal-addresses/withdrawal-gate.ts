import { CONFIRM_LINK_TTL_MS } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import type { Said } from '@harvest/shared/said';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { forbidden, type AppError } from '../../lib/errors.ts';
import { timeText } from '../../mail/templates.ts';
import { lockHolds, withdrawalLockOf, type LockColumns } from './withdrawal-lock.ts';
import * as q from './withdrawal-addresses.queries.ts';

type Gate = LockColumns & { withdrawalsFrozen: boolean };

/**
 * Why Withdraw All may not pay `wallet` (null: it may): withdrawals frozen, or with the lock on a wallet that is not
 * an active address of the book (403 `address_not_active`, saying when it becomes usable).
 */
function refusal(ctx: AppContext, gate: Gate, entry: q.AddressRow | undefined, now: Date): AppError | null {
  if (gate.withdrawalsFrozen) return forbidden(MSG.withdrawalsFrozen(ctx.config.SUPPORT_EMAIL), 'withdrawals_frozen');
  if (!lockHolds(withdrawalLockOf(gate, now, ctx.config.addressLockRequired))) return null;
  const notActive = (text: string | Said) => forbidden(text, 'address_not_active');
  if (!entry) return notActive(MSG.addressNotInBook(ctx.config.WITHDRAWAL_ADDRESS_COOLDOWN_HOURS));
  const shown = (d: Date) => timeText(d, ctx.config.PLATFORM_TIMEZONE);
  if (!entry.confirmedAt) {
    const usable = new Date(Math.max(entry.usableAt.getTime(), now.getTime()));
    return now.getTime() - entry.createdAt.getTime() > CONFIRM_LINK_TTL_MS
      ? notActive(MSG.addressUnconfirmedExpired)
      : notActive(MSG.addressUnconfirmed(usable, shown(usable)));
  }
  const left = entry.usableAt.getTime() - now.getTime();
  return left > 0 ? notActive(MSG.addressCoolingDown(entry.usableAt, shown(entry.usableAt), left)) : null;
}

/** The early answer, from the request's user row and an unlocked read of the book: before any secret is checked. */
export async function checkWithdrawalGate(ctx: AppContext, user: Gate & { id: string }, wallet: string) {
  const now = ctx.clock.now();
  const needsEntry = !user.withdrawalsFrozen && lockHolds(withdrawalLockOf(user, now, ctx.config.addressLockRequired));
  const entry = needsEntry ? await q.findBookEntry(ctx.db, user.id, wallet) : undefined;
  const refused = refusal(ctx, user, entry, now);
  if (refused) throw refused;
}

/**
 * The same rule inside Withdraw All's transaction, on locked rows: the users row (a freeze or lock change waits, or
 * is seen) and the book entry (a removal waits, or is seen). Either way one order holds.
 */
export async function lockWithdrawalGate(tx: Db, ctx: AppContext, userId: string, wallet: string) {
  const now = ctx.clock.now();
  const gate = await q.lockWithdrawalGate(tx, userId);
  if (!gate) throw forbidden(MSG.forbidden);
  const lockOn = lockHolds(withdrawalLockOf(gate, now, ctx.config.addressLockRequired));
  const entry = lockOn ? await q.lockBookEntry(tx, userId, wallet) : undefined;
  const refused = refusal(ctx, gate, entry, now);
  if (refused) throw refused;
}
