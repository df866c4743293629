import { MSG } from '@harvest/shared/messages';
import type { Said } from '@harvest/shared/said';
import type { DepositFailureKind } from '@harvest/shared/schemas/deposits';
import type { TransferLog } from '../../chain/chain.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction, type OnceKey } from '../../db/tx.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { ensureDepositAddress, perInvestorAddresses } from '../deposit-addresses/deposit-addresses.service.ts';
import { checkDeposit, type ChainCheck } from './deposit-check.ts';
import { confirmAndCredit, failPending } from './deposits.credit.ts';
import * as q from './deposits.queries.ts';
import type { DepositRow } from './deposits.queries.ts';
import { depositsIn } from './watcher-credit.ts';
import type { WatchedInsert } from './watcher.queries.ts';
import { isHashTaken } from './deposits.queries.ts';

/** What the chain says of a claimed deposit, applied to it: the background re-check and the claim checks. */

/** A transaction not visible on chain is retried this often before it is failed as not found. */
export const NOT_FOUND_ATTEMPTS = 10;
/** Wait between two not-found checks (so the grace period is about 10 minutes). */
export const NOT_FOUND_RETRY_MS = 60_000;
/** How long one instance holds a claimed deposit while it asks the chain. */
export const CHECK_LEASE_MS = 2 * 60_000;
/** Deposits claimed per background pass. */
export const CHECK_BATCH = 50;

/** A transfer to another address than the investor's own, as a deposit's stored reason. */
const notYours = (to: string[], yours: string) => MSG.depositNotYourAddress(to, yours);

/**
 * Applies one chain answer to a deposit, under its row lock and only while it is still the
 * pending deposit that was checked (an admin may have approved it, or it may have changed).
 * Checked against the investor's own address (DEPOSIT_XPUB), a match takes the transfer's facts
 * from the chain and is credited by the chain watcher like any transfer it reads.
 */
async function applyCheck(
  ctx: AppContext,
  checked: DepositRow,
  result: ChainCheck,
  own: string | null,
  key?: OnceKey | null,
): Promise<DepositRow> {
  const now = ctx.clock.now();
  const required = ctx.config.DEPOSIT_CONFIRMATIONS;
  try {
    return await inTransaction(
      ctx.db,
      async (tx) => {
        const d = await q.lockDeposit(tx, checked.id);
        if (!d) throw notFound();
        const unchanged =
          d.status === 'pending' &&
          d.txHash === checked.txHash &&
          d.amount === checked.amount &&
          d.fromAddress === checked.fromAddress;
        if (!unchanged) return d;
        const fail = async (reason: string | Said, kind: DepositFailureKind) =>
          (await failPending(ctx, tx, d.id, { reason, kind, processedAt: now })) ?? d;
        switch (result.kind) {
          case 'rpc_error':
            // Nothing is decided while the node cannot be asked: the next pass retries.
            ctx.log.warn({ depositId: d.id, err: result.message }, 'deposit check: chain RPC unavailable');
            return (await q.updateDeposit(tx, d.id, { nextCheckAt: now })) ?? d;
          case 'not_found': {
            const attempts = d.checkAttempts + 1;
            if (attempts >= NOT_FOUND_ATTEMPTS)
              return fail(MSG.depositNotFoundOnChain(ctx.config.CHAIN_ID), 'not_found');
            return (
              (await q.updateDeposit(tx, d.id, {
                checkAttempts: attempts,
                nextCheckAt: new Date(now.getTime() + NOT_FOUND_RETRY_MS),
              })) ?? d
            );
          }
          case 'mismatch':
            return fail(result.reason, result.why);
          case 'match': {
            const t = result.transfer;
            if (own)
              return (
                (await q.updateDeposit(tx, d.id, {
                  ...chainFacts(t),
                  confirmations: result.confirmations,
                  checkAttempts: 0,
                  nextCheckAt: null,
                })) ?? d
              );
            if (result.confirmations >= required) {
              const credited = await confirmAndCredit(ctx, tx, d.id, {
                processedAt: now,
                logIndex: t.logIndex,
                confirmations: result.confirmations,
              });
              return credited ?? d;
            }
            return (
              (await q.updateDeposit(tx, d.id, {
                logIndex: t.logIndex,
                confirmations: result.confirmations,
                checkAttempts: 0,
                nextCheckAt: now,
              })) ?? d
            );
          }
        }
      },
      key,
    );
  } catch (err) {
    // The same transfer log is already held by another deposit: this one can never be credited.
    if (isHashTaken(err)) {
      const failed = await inTransaction(
        ctx.db,
        (tx) =>
          failPending(ctx, tx, checked.id, { reason: MSG.depositHashTaken, kind: 'hash_taken', processedAt: now }),
        key,
      );
      return failed ?? (await q.findDeposit(ctx.db, checked.id)) ?? checked;
    }
    throw err;
  }
}

/** Every fact of a deposit that only the chain may give: none of them is ever taken from a request. */
function chainFacts(t: TransferLog) {
  return {
    txHash: t.txHash,
    logIndex: t.logIndex,
    fromAddress: t.from,
    toAddress: t.to,
    amount: t.value,
    blockNumber: t.blockNumber,
    blockHash: t.blockHash,
  };
}

/**
 * Asks the chain about one pending claimed deposit and records the answer: checked against the address
 * its investor may be credited for (their own with DEPOSIT_XPUB, the shared one without).
 */
export async function verifyDeposit(ctx: AppContext, d: DepositRow, key?: OnceKey | null): Promise<DepositRow> {
  if (!ctx.chain || d.type !== 'real' || d.status !== 'pending' || !d.txHash || !d.fromAddress) return d;
  const claim = { txHash: d.txHash, fromAddress: d.fromAddress, amount: d.amount };
  const own = perInvestorAddresses(ctx) ? await ensureDepositAddress(ctx, d.userId) : null;
  const to = own ?? ctx.config.DEPOSIT_ADDRESS;
  const check = await checkDeposit(ctx.chain, claim, to, own ? notYours : undefined);
  return applyCheck(ctx, d, check, own, key);
}

/**
 * The background job's pass (also called directly by tests): claims due pending real deposits
 * with SKIP LOCKED and a lease, so several server instances never check the same one at once.
 */
export async function recheckPendingDeposits(
  ctx: AppContext,
  opts: { batch?: number } = {},
): Promise<{ checked: number; confirmed: number; failed: number }> {
  const out = { checked: 0, confirmed: 0, failed: 0 };
  if (!ctx.chain) return out;
  const now = ctx.clock.now();
  const ids = await inTransaction(ctx.db, (tx) =>
    q.claimDueDeposits(tx, now, new Date(now.getTime() + CHECK_LEASE_MS), opts.batch ?? CHECK_BATCH),
  );
  for (const id of ids) {
    const d = await q.findDeposit(ctx.db, id);
    if (!d) continue;
    const after = await verifyDeposit(ctx, d);
    out.checked++;
    if (after.status === 'confirmed') out.confirmed++;
    if (after.status === 'failed') out.failed++;
  }
  return out;
}

/**
 * A claim checked against the caller's own deposit address (DEPOSIT_XPUB): the deposit the chain watcher
 * would record for that transfer, every fact from the chain's receipt. Anything else is refused with its
 * reason, and nothing changes.
 */
export async function verifyOwnTransfer(
  ctx: AppContext,
  user: AuthUser,
  claim: { txHash: string; amount: bigint; fromAddress: string },
): Promise<WatchedInsert> {
  const chain = ctx.chain;
  const own = await ensureDepositAddress(ctx, user.id);
  if (!chain || !own) throw new Error('verifyOwnTransfer needs a chain and DEPOSIT_XPUB');
  const check = await checkDeposit(chain, claim, own, notYours);
  if (check.kind === 'rpc_error') throw new AppError('upstream_error', MSG.depositChainUnavailable);
  if (check.kind === 'not_found') throw conflict(MSG.depositNotOnChainYet(ctx.config.CHAIN_ID));
  if (check.kind === 'mismatch') throw badRequest(check.reason, 'chain_mismatch');
  const head = check.transfer.blockNumber + BigInt(check.confirmations) - 1n;
  const [row] = await depositsIn(ctx, [check.transfer], head);
  // Before the block from which the address counts: it was not handed out yet.
  if (!row) throw badRequest(MSG.depositNotYourAddress([own], own), 'chain_mismatch');
  return row;
}
