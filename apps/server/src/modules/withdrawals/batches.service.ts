import { getAddress } from 'viem';
import { MSG } from '@harvest/shared/messages';
import { microToText, microToUsdc } from '@harvest/shared/money';
import type { PayoutBatch } from '@harvest/shared/schemas/withdrawals';
import type { AppContext } from '../../context.ts';
import { inTransaction, type OnceKey } from '../../db/tx.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import * as bq from './batches.queries.ts';
import { checkPayees } from './payees.service.ts';
import type { WithdrawalRow } from './withdrawals.queries.ts';

/** The Safe{Wallet} Transaction Builder version whose file format the export follows. */
const TX_BUILDER_VERSION = '1.18.0';

/** Whether a batch holds its pending withdrawals in payment: open, or cancelled after a download and inside its grace. */
export function inPayment(b: { batchStatus: string | null; graceUntil: Date | null }, now: Date): boolean {
  return b.batchStatus === 'open' || (b.batchStatus === 'cancelled' && b.graceUntil !== null && b.graceUntil > now);
}

/** One USDC transfer a batch file asks for: to a wallet, the net amounts of one withdrawal or one request. */
export interface BatchTransfer {
  to: string;
  value: bigint;
  withdrawalIds: string[];
}

/** Per withdrawal, or per request (its withdrawals added up: one request has one wallet, decision 0008). */
export function batchTransfers(rows: WithdrawalRow[], grouped: boolean): BatchTransfer[] {
  if (!grouped) return rows.map((w) => ({ to: w.walletAddress, value: w.netAmount, withdrawalIds: [w.id] }));
  const byRequest = new Map<string, BatchTransfer>();
  for (const w of rows) {
    const t = byRequest.get(w.requestId) ?? { to: w.walletAddress, value: 0n, withdrawalIds: [] };
    t.value += w.netAmount;
    t.withdrawalIds.push(w.id);
    byRequest.set(w.requestId, t);
  }
  return [...byRequest.values()];
}

function toDto(b: bq.BatchRow, f: bq.BatchFigures | undefined): PayoutBatch {
  const withdrawals = f?.withdrawals ?? 0;
  return {
    _id: b.id,
    status: b.status === 'cancelled' || b.status === 'completed' ? b.status : 'open',
    grouped: b.grouped,
    token: b.token,
    createdAt: b.createdAt.toISOString(),
    closedAt: b.closedAt ? b.closedAt.toISOString() : null,
    withdrawals,
    pending: f?.pending ?? 0,
    transfers: b.grouped ? (f?.requests ?? 0) : withdrawals,
    total: microToUsdc(BigInt(f?.total ?? 0)),
    paid: microToUsdc(BigInt(f?.paid ?? 0)),
    frozen: f?.frozen ?? 0,
    refused: f?.refused ?? 0,
    downloadedAt: b.downloadedAt ? b.downloadedAt.toISOString() : null,
    graceUntil: b.graceUntil ? b.graceUntil.toISOString() : null,
  };
}

export async function listBatches(ctx: AppContext): Promise<PayoutBatch[]> {
  return (await bq.listBatches(ctx.db, 50)).map((r) => toDto(r.batch, r.figures));
}

async function batchView(ctx: AppContext, id: string): Promise<PayoutBatch> {
  const found = (await bq.listBatches(ctx.db, 1_000)).find((r) => r.batch.id === id);
  if (!found) throw notFound();
  return toDto(found.batch, found.figures);
}

/**
 * Exports selected pending withdrawals as a payout batch: each of them is "in payment" until it is decided or the
 * batch is cancelled, so a second export leaves it out. All or nothing: a withdrawal that changed meanwhile, of an
 * account whose withdrawals are frozen, or to a wallet the token refuses (read on chain now) refuses the batch.
 */
/**
 * With four-eyes on, a withdrawal above FOUR_EYES_WITHDRAWAL_USDC is completed only by an approval by hash that a
 * second staff member approves: a batch or a chosen payout, one person's decision, may not complete it.
 */
export function refuseOneSignature(ctx: AppContext, rows: { netAmount: bigint }[]): void {
  if (ctx.config.fourEyes && rows.some((w) => w.netAmount > ctx.config.fourEyesWithdrawalMicro))
    throw conflict(MSG.fourEyesByHashOnly(ctx.config.fourEyesWithdrawalMicro));
}

export async function createBatch(
  ctx: AppContext,
  admin: AuthUser,
  input: { withdrawalIds: string[]; grouped: boolean },
  ip: string,
  key?: OnceKey | null,
): Promise<PayoutBatch> {
  const ids = [...new Set(input.withdrawalIds)];
  refuseOneSignature(ctx, await bq.payeesOf(ctx.db, ids));
  const payout = ctx.config.PAYOUT_ADDRESS;
  if (!payout) throw conflict(MSG.batchNeedsPayout);
  // The payee marks checkPayees may write are not the batch: the request's key commits with the batch below.
  const payees = await checkPayees(ctx, await bq.payeesOf(ctx.db, ids));
  if ('error' in payees) throw new AppError('upstream_error', MSG.batchChainUnreachable);
  const batch = await inTransaction(
    ctx.db,
    async (tx) => {
      const now = ctx.clock.now();
      await bq.lockOwners(tx, ids);
      const b = await bq.insertBatch(tx, {
        grouped: input.grouped,
        token: ctx.config.USDC_CONTRACTS[0]!.toLowerCase(),
        createdBy: admin.id,
        createdAt: now,
      });
      const taken = await bq.takeIntoBatch(tx, b.id, ids, now);
      if (taken.length !== ids.length) {
        const why = await bq.whyNotTaken(tx, ids);
        if (why.frozen > 0) throw new AppError('withdrawals_frozen', MSG.batchHasFrozen);
        if (why.refused > 0) throw new AppError('payee_refused', MSG.batchPayeeRefused);
        throw conflict(MSG.batchUnavailable);
      }
      const transfers = batchTransfers(taken, input.grouped);
      await writeAudit(tx, {
        adminId: admin.id,
        action: 'payout_batch_create',
        targetType: 'payout_batch',
        targetId: b.id,
        after: {
          withdrawals: taken.length,
          transfers: transfers.length,
          total: microToText(transfers.reduce((n, t) => n + t.value, 0n)),
          grouped: input.grouped,
        },
        at: ctx.clock.now(),
        ip,
      });
      return b;
    },
    key,
  );
  return batchView(ctx, batch.id);
}

/**
 * Cancels an open batch (audited). Its file never downloaded: its pending withdrawals can be exported again at once.
 * Downloaded: the payout wallet may still execute it, so the administrator must confirm it was not and will not be
 * (in a Safe: a rejection of that nonce), and its withdrawals stay in payment for BATCH_CANCEL_GRACE_HOURS, during
 * which a payout found on chain still completes them; only then can they be rejected or exported again.
 */
export async function cancelBatch(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  input: { confirmNotExecuted?: boolean | undefined },
  ip: string,
): Promise<{ batch: PayoutBatch; grace: boolean }> {
  const grace = await inTransaction(ctx.db, async (tx) => {
    const found = await bq.lockBatch(tx, id);
    if (!found) throw notFound();
    if (found.status !== 'open') throw conflict(MSG.batchNotOpen);
    if (found.downloadedAt && !input.confirmNotExecuted) throw new AppError('batch_downloaded', MSG.batchCancelConfirm);
    const now = ctx.clock.now();
    const graceUntil = found.downloadedAt ? new Date(now.getTime() + ctx.config.batchCancelGraceMs) : null;
    const b = await bq.cancelBatch(tx, id, { by: admin.id, at: now, graceUntil });
    if (!b) throw conflict(MSG.batchNotOpen);
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'payout_batch_cancel',
      targetType: 'payout_batch',
      targetId: id,
      after: {
        downloadedAt: found.downloadedAt?.toISOString() ?? null,
        confirmedNotExecuted: Boolean(found.downloadedAt),
        inPaymentUntil: graceUntil?.toISOString() ?? null,
      },
      at: ctx.clock.now(),
      ip,
    });
    return graceUntil !== null;
  });
  return { batch: await batchView(ctx, id), grace };
}

/**
 * The files that pay an open batch's still pending withdrawals (never a frozen account's, nor to a wallet the token
 * refuses): a Safe{Wallet} Transaction Builder batch (one USDC `transfer` call each, from PAYOUT_ADDRESS) or a CSV of
 * address and amount for other wallets. Downloads are audited (they carry wallets and amounts); the first one makes a
 * cancel need the administrator's confirmation that the file was not executed.
 */
export async function batchFile(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  format: 'safe' | 'csv',
  ip: string,
): Promise<{ name: string; type: string; body: string }> {
  const b = await bq.findBatch(ctx.db, id);
  if (!b) throw notFound();
  if (b.status !== 'open') throw conflict(MSG.batchNotOpen);
  const payable = await bq.payableOfBatch(ctx.db, id);
  // Read again now: an address blacklisted since the export would revert the whole file.
  const payees = await checkPayees(ctx, payable);
  if ('error' in payees) throw new AppError('upstream_error', MSG.batchChainUnreachable);
  const transfers = batchTransfers(
    payable.filter((w) => !payees.refused.has(w.walletAddress)),
    b.grouped,
  );
  await inTransaction(ctx.db, async (tx) => {
    if (!(await bq.markDownloaded(tx, id, ctx.clock.now()))) throw conflict(MSG.batchNotOpen);
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'payout_batch_download',
      targetType: 'payout_batch',
      targetId: id,
      after: { format, transfers: transfers.length, total: microToText(transfers.reduce((n, t) => n + t.value, 0n)) },
      at: ctx.clock.now(),
      ip,
    });
  });
  const stamp = b.createdAt.toISOString().slice(0, 10);
  if (format === 'csv')
    return {
      name: `payout-batch-${stamp}-${id.slice(0, 8)}.csv`,
      type: 'text/csv; charset=utf-8',
      body: `address,amount\n${transfers.map((t) => `${getAddress(t.to)},${microToText(t.value)}`).join('\n')}\n`,
    };
  const total = transfers.reduce((n, t) => n + t.value, 0n);
  const file = {
    version: '1.0',
    chainId: String(ctx.config.CHAIN_ID),
    createdAt: b.createdAt.getTime(),
    meta: {
      name: `Harvest Farm payouts ${stamp}`,
      description: `Payout batch ${id}: ${transfers.length} USDC transfer(s), ${microToText(total)} USDC in all`,
      txBuilderVersion: TX_BUILDER_VERSION,
      createdFromSafeAddress: getAddress(ctx.config.PAYOUT_ADDRESS ?? b.token),
      createdFromOwnerAddress: '',
    },
    transactions: transfers.map((t) => ({
      to: getAddress(b.token),
      value: '0',
      data: null,
      contractMethod: {
        inputs: [
          { internalType: 'address', name: 'to', type: 'address' },
          { internalType: 'uint256', name: 'value', type: 'uint256' },
        ],
        name: 'transfer',
        payable: false,
      },
      contractInputsValues: { to: getAddress(t.to), value: t.value.toString() },
    })),
  };
  return {
    name: `payout-batch-${stamp}-${id.slice(0, 8)}.safe.json`,
    type: 'application/json; charset=utf-8',
    body: `${JSON.stringify(file, null, 2)}\n`,
  };
}
