import { MSG } from '@harvest/shared/messages';
import { microToUsdc } from '@harvest/shared/money';
import type { Reconciliation, Solvency } from '@harvest/shared/schemas/solvency';
import { unavailableText } from '../../chain/chain.ts';
import { DEMO_DEPOSIT_ADDRESS } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { queueMails } from '../../mail/outbox.ts';
import { AppError, conflict, notFound, tooMany } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { allAddresses } from '../deposit-addresses/deposit-addresses.queries.ts';
import { DEPOSIT_WATCHER } from '../deposit-addresses/deposit-addresses.service.ts';
import { findCursor } from '../deposits/watcher.queries.ts';
import { lastRun } from '../reconciliation/reconciliation.queries.ts';
import { lastSweep, unexplainedOutflow } from '../withdrawals/payouts.queries.ts';
import { readSweepPlan, type SweepPlan } from './sweep-plan.ts';
import { completeRun, runningRun, startRun, toReconciliationDto } from '../reconciliation/reconciliation.service.ts';
import * as q from './solvency.queries.ts';

/** An administrator's "Refresh now" reads every platform address: at most once in this many ms. */
export const REFRESH_EVERY_MS = 10_000;
/** Readings older than three missed background refreshes (every 5 minutes) are stale: the node has not answered. */
export const READINGS_STALE_MS = 15 * 60_000;

/** The platform's addresses whose USDC counts as assets: investors' deposit addresses, DEPOSIT_ADDRESS (unless the demo one), PAYOUT_ADDRESS, TREASURY_ADDRESS. */
export async function platformAddresses(ctx: AppContext): Promise<{ address: string; kind: q.BalanceKind }[]> {
  const out: { address: string; kind: q.BalanceKind }[] = (await allAddresses(ctx.db)).map((a) => ({
    address: a.address,
    kind: 'deposit',
  }));
  const shared = ctx.config.DEPOSIT_ADDRESS.toLowerCase();
  if (shared !== DEMO_DEPOSIT_ADDRESS.toLowerCase()) out.push({ address: shared, kind: 'shared' });
  if (ctx.config.PAYOUT_ADDRESS) out.push({ address: ctx.config.PAYOUT_ADDRESS.toLowerCase(), kind: 'payout' });
  if (ctx.config.TREASURY_ADDRESS) out.push({ address: ctx.config.TREASURY_ADDRESS.toLowerCase(), kind: 'treasury' });
  return out;
}

async function readAndSave(
  ctx: AppContext,
  addresses: { address: string; kind: q.BalanceKind }[],
): Promise<{ addresses: number } | { error: string }> {
  if (!ctx.chain) return { addresses: 0 };
  const read = await ctx.chain.usdcBalances(addresses.map((a) => a.address));
  if (!read.ok) return { error: unavailableText(read.error) };
  await q.saveBalances(
    ctx.db,
    addresses.map((a) => ({ ...a, balance: read.value.get(a.address) ?? 0n })),
    ctx.clock.now(),
  );
  return { addresses: addresses.length };
}

/**
 * Reads the USDC of every platform address (JSON-RPC batches) and caches it: the solvency view answers
 * from the cache, never one chain call per address per request. At start, every few minutes, and when an
 * administrator asks.
 */
export async function refreshOnchainBalances(ctx: AppContext): Promise<{ addresses: number } | { error: string }> {
  return readAndSave(ctx, await platformAddresses(ctx));
}

/**
 * Reads again the addresses whose USDC just changed (deposit addresses credited or swept, the payout address after a
 * payout, the treasury after a sweep); not before every address has been read once (a partial reading would show a
 * coverage that is not one).
 */
export async function refreshBalancesOf(
  ctx: AppContext,
  addresses: { address: string; kind: q.BalanceKind }[],
): Promise<{ addresses: number } | { error: string }> {
  if (addresses.length === 0 || !(await q.anyBalanceRead(ctx.db))) return { addresses: 0 };
  return readAndSave(ctx, addresses);
}

const readingAge = (ms: number) => ({
  seconds: Math.max(0, Math.floor(ms / 1000)),
  stale: ms > READINGS_STALE_MS,
  staleAfterSeconds: READINGS_STALE_MS / 1000,
});

export async function solvency(ctx: AppContext): Promise<Solvency> {
  const treasuryAddress = ctx.config.TREASURY_ADDRESS?.toLowerCase() ?? null;
  const [liabilities, totals, cursor, run, alarms, sweep, lost] = await Promise.all([
    q.userLiabilities(ctx.db),
    q.onchainTotals(ctx.db),
    findCursor(ctx.db, DEPOSIT_WATCHER),
    lastRun(ctx.db),
    q.openAlarms(ctx.db),
    treasuryAddress ? lastSweep(ctx.db, treasuryAddress) : undefined,
    unexplainedOutflow(ctx.db, treasuryAddress),
  ]);
  const total = (...kinds: string[]) => totals.filter((t) => kinds.includes(t.kind)).reduce((n, t) => n + t.total, 0n);
  const deposit = total('deposit', 'shared');
  const payout = total('payout');
  const treasury = total('treasury');
  const oldest = totals.reduce<Date | null>((o, t) => (o === null || t.oldest < o ? t.oldest : o), null);
  return {
    liabilities: microToUsdc(liabilities),
    assets: {
      depositAddresses: microToUsdc(deposit),
      payoutAddress: microToUsdc(payout),
      treasury: microToUsdc(treasury),
    },
    // Integer arithmetic to 4 decimals (1.2345 = 123.45 %), then a number; none before a reading.
    coverage:
      oldest && liabilities > 0n ? Number(((deposit + payout + treasury) * 10_000n) / liabilities) / 10_000 : null,
    lastSweep: sweep
      ? {
          blockNumber: Number(sweep.blockNumber),
          addresses: sweep.addresses,
          total: microToUsdc(BigInt(sweep.total)),
          at: sweep.at.toISOString(),
        }
      : null,
    asOf: oldest ? oldest.toISOString() : null,
    readingAge: oldest ? readingAge(ctx.clock.now().getTime() - oldest.getTime()) : null,
    watcher: cursor
      ? {
          checkedAt: cursor.checkedAt ? cursor.checkedAt.toISOString() : null,
          headBlock: cursor.headBlock === null ? null : Number(cursor.headBlock),
          cursorBlock: Number(cursor.blockNumber),
        }
      : null,
    reconciliation: run ? toReconciliationDto(run) : null,
    alarms: alarms.map((a) => ({
      _id: a.id,
      kind: a.kind,
      detail: a.detail,
      blockNumber: a.blockNumber === null ? null : Number(a.blockNumber),
      createdAt: a.createdAt.toISOString(),
    })),
    unexplainedOutflow: {
      payoutWallet: microToUsdc(lost.payoutWallet),
      depositAddresses: microToUsdc(lost.depositAddresses),
    },
  };
}

/** "Refresh now": every balance read again at once (at most once per REFRESH_EVERY_MS), audited. */
export async function adminRefresh(ctx: AppContext, admin: AuthUser, ip: string): Promise<Solvency> {
  if (!ctx.chain) throw conflict(MSG.solvencyNoChain);
  const window = await ctx.counters.hit('solvency-refresh', REFRESH_EVERY_MS);
  if (window.count > 1) throw tooMany(MSG.solvencyRefreshTooSoon(Math.ceil(window.ttlMs / 1000)), window.ttlMs / 1000);
  const r = await refreshOnchainBalances(ctx);
  await writeAudit(ctx.db, {
    adminId: admin.id,
    action: 'solvency_refresh',
    targetType: 'platform',
    targetId: 'solvency',
    after: 'error' in r ? { error: r.error } : { addresses: r.addresses },
    at: ctx.clock.now(),
    ip,
  });
  if ('error' in r) throw new AppError('upstream_error', MSG.depositChainUnavailable);
  return solvency(ctx);
}

/**
 * "Reconcile now": a run of the reconciliation against the chain, in the background of this instance (the
 * panel shows it running, then its result). One at a time; audited.
 */
export async function adminReconcile(ctx: AppContext, admin: AuthUser, ip: string): Promise<Reconciliation> {
  const chain = ctx.chain;
  if (!chain) throw conflict(MSG.solvencyNoChain);
  const deps = { db: ctx.db, chain, config: ctx.config, now: () => ctx.clock.now() };
  if (await runningRun(deps)) throw conflict(MSG.reconciliationRunning);
  const run = await inTransaction(ctx.db, async (tx) => {
    const started = await startRun({ db: tx, now: deps.now }, 'admin', admin.id);
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'chain_reconcile',
      targetType: 'platform',
      targetId: started.id,
      at: ctx.clock.now(),
      ip,
    });
    return started;
  });
  completeRun(deps, run).then(
    ({ result }) => {
      if (result && result.differences.length > 0)
        ctx.log.error(
          { differences: result.differences.length, run: run.id },
          'chain reconciliation found differences',
        );
    },
    (err: unknown) => ctx.log.error({ err, run: run.id }, 'chain reconciliation run failed'),
  );
  return toReconciliationDto(run);
}

/**
 * Raises a chain alarm in the caller's transaction (unless the same one is open): the Solvency panel lists it, the
 * `chain_alarms_open` gauge counts it, and every administrator is e-mailed at once.
 */
export async function raiseAlarm(
  tx: Tx,
  ctx: AppContext,
  alarm: { kind: string; detail: string; blockNumber: bigint | null; at: Date },
): Promise<void> {
  if (!(await q.insertAlarm(tx, alarm))) return;
  const admins = await q.adminIds(tx);
  await queueMails(
    tx,
    ctx,
    admins.map((userId) => ({
      userId,
      event: { kind: 'chain_alarm' as const, alarm: alarm.kind, detail: alarm.detail, at: alarm.at },
    })),
  );
}

/** An administrator has looked at a chain alarm: it leaves the panel and the open-alarms gauge; audited. */
export async function acknowledgeAlarm(ctx: AppContext, admin: AuthUser, id: string, ip: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const alarm = await q.acknowledgeAlarm(tx, id, admin.id, ctx.clock.now());
    if (!alarm) throw notFound(MSG.notFound);
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'chain_alarm_acknowledge',
      targetType: 'chain_alarm',
      targetId: id,
      before: { kind: alarm.kind, detail: alarm.detail },
      at: ctx.clock.now(),
      ip,
    });
  });
}

/** The sweep plan an administrator downloads for the offline signer (the same as `npm run deposits:sweep-plan -- --json`), audited. */
export async function adminSweepPlan(ctx: AppContext, admin: AuthUser, ip: string): Promise<SweepPlan> {
  const chain = ctx.chain;
  if (!chain) throw conflict(MSG.solvencyNoChain);
  const plan = await readSweepPlan(ctx.db, chain, ctx.config, { now: ctx.clock.now() });
  if ('error' in plan) throw new AppError('upstream_error', plan.error);
  await writeAudit(ctx.db, {
    adminId: admin.id,
    action: 'sweep_plan_download',
    targetType: 'platform',
    targetId: 'sweep-plan',
    after: { addresses: plan.addresses.length, totals: plan.totals },
    at: ctx.clock.now(),
    ip,
  });
  return plan;
}
