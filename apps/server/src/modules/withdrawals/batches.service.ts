import { getAddress } from 'viem';
import { MSG } from '@harvest/shared/messages';
import { microToText, microToUsdc } from '@harvest/shared/money';
import type { PayoutBatch } from '@harvest/shared/schemas/withdrawals';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import * as bq from './batches.queries.ts';
import type { WithdrawalRow } from './withdrawals.queries.ts';

/** The Safe{Wallet} Transaction Builder version whose file format the export follows. */
const TX_BUILDER_VERSION = '1.18.0';

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

function toDto(
  b: bq.BatchRow,
  f: { withdrawals: number; pending: number; requests: number; total: string } | undefined,
): PayoutBatch {
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
 * batch is cancelled, so a second export leaves it out. All or nothing: one that changed meanwhile refuses the batch.
 */
export async function createBatch(
  ctx: AppContext,
  admin: AuthUser,
  input: { withdrawalIds: string[]; grouped: boolean },
  ip: string,
): Promise<PayoutBatch> {
  const payout = ctx.config.PAYOUT_ADDRESS;
  if (!payout) throw conflict(MSG.batchNeedsPayout);
  const ids = [...new Set(input.withdrawalIds)];
  const batch = await inTransaction(ctx.db, async (tx) => {
    const b = await bq.insertBatch(tx, {
      grouped: input.grouped,
      token: ctx.config.USDC_CONTRACTS[0]!.toLowerCase(),
      createdBy: admin.id,
      createdAt: ctx.clock.now(),
    });
    const taken = await bq.takeIntoBatch(tx, b.id, ids);
    if (taken.length !== ids.length) throw conflict(MSG.batchUnavailable);
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
      ip,
    });
    return b;
  });
  return batchView(ctx, batch.id);
}

/** Cancels an open batch: its pending withdrawals can be exported again (audited). */
export async function cancelBatch(ctx: AppContext, admin: AuthUser, id: string, ip: string): Promise<PayoutBatch> {
  await inTransaction(ctx.db, async (tx) => {
    const b = await bq.cancelBatch(tx, id, admin.id, ctx.clock.now());
    if (!b) {
      if (!(await bq.findBatch(tx, id))) throw notFound();
      throw conflict(MSG.batchNotOpen);
    }
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'payout_batch_cancel',
      targetType: 'payout_batch',
      targetId: id,
      ip,
    });
  });
  return batchView(ctx, id);
}

/**
 * The files that pay an open batch's still pending withdrawals: a Safe{Wallet} Transaction Builder batch (one USDC
 * `transfer` call each, from PAYOUT_ADDRESS) or a CSV of address and amount for other wallets. Downloads are
 * audited (they carry wallets and amounts).
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
  const transfers = batchTransfers(await bq.pendingOfBatch(ctx.db, id), b.grouped);
  await writeAudit(ctx.db, {
    adminId: admin.id,
    action: 'payout_batch_download',
    targetType: 'payout_batch',
    targetId: id,
    after: { format, transfers: transfers.length },
    ip,
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
