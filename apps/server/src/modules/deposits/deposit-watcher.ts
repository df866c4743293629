import { randomUUID } from 'node:crypto';
import { MIN_DEPOSIT_MICRO } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import { formatUsdc, microToUsdc } from '@harvest/shared/money';
import {
  completeTransfers,
  unavailableText,
  type BlockHeader,
  type ChainRead,
  type TransferLog,
} from '../../chain/chain.ts';
import type { AppContext, ReadinessCheck } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { ownersOf, type DepositAddressRow } from '../deposit-addresses/deposit-addresses.queries.ts';
import { DEPOSIT_WATCHER } from '../deposit-addresses/deposit-addresses.service.ts';
import { raiseAlarm, refreshBalancesOf, refreshOnchainBalances } from '../solvency/solvency.service.ts';
import { confirmAndCreditMany } from './deposits.credit.ts';
import * as dq from './deposits.queries.ts';
import * as q from './watcher.queries.ts';
import * as pq from '../withdrawals/payouts.queries.ts';
import { settlePayouts } from '../withdrawals/payouts.service.ts';

/**
 * The chain watcher (DEPOSIT_XPUB mode, docs/decisions/0031, 0068 and 0080): follows the chain from a persisted
 * cursor, records every USDC transfer to an investor's deposit address as a deposit, and credits it once it is
 * DEPOSIT_CONFIRMATIONS deep.
 *
 * - The cursor only moves through blocks already DEPOSIT_CONFIRMATIONS deep, and only along one chain: each
 *   range's first block must have the cursor's block as its parent, its last block must not change while the
 *   range is read, and an answer that stops short (a truncated log answer) is read again smaller. A head lower
 *   than one seen before is a lagging node: the pass waits.
 * - Blocks above the cursor are only previewed: their transfers show as pending with their confirmations (below
 *   the minimum: failed, with why), and nothing is credited from them. Once the cursor passes their block, it is
 *   compared with the chain's; a transfer a re-organisation dropped says so.
 * - The cursor's block leaving the chain is a re-organisation deeper than the confirmations: an alarm. The watcher
 *   walks back to the newest checkpoint still on the chain (never to a block it has not compared), matches every
 *   deposit read above it with its transaction again, and reads on from there.
 * - One instance works at a time (a lease); the cursor moves by compare-and-set in the transaction that records
 *   the range's deposits; deposits are unique per (tx hash, log index); pending -> confirmed happens once.
 */

/** Most blocks read by one eth_getLogs call; within it a range is sized from the density just read (decision 0080). */
export const SCAN_BLOCKS_MAX = 1_000;
/** Logs one eth_getLogs answer aims at: well under providers' result caps and viem's 10 MB response limit. */
export const LOGS_PER_READ = 10_000;
/** Ranges read ahead while the previous one is committed: the node and the database overlap. */
export const READ_AHEAD = 2;
/** Halvings of a range whose read failed, within one pass. */
export const RANGE_RETRIES = 4;
/** The first range of a new watcher, in blocks; it grows (at most 2x per read) while the chain is sparse. */
export const SCAN_BLOCKS_START = 32;
/**
 * How long an instance holds the watcher (renewed with every range it commits): four intervals, at least 10 s
 * (60 s at the default 15 s). A crashed leader is replaced after it; a stopped one gives the lease back.
 */
export const watcherLeaseMs = (intervalMs: number) => Math.max(10_000, 4 * intervalMs);
/** Range-end hashes kept for finding a fork point, in blocks behind the cursor. */
export const CHECKPOINT_WINDOW = 2_048n;
/** Block headers asked for at once when crediting. */
export const HASH_READS_AT_ONCE = 16;
/** Deposits credited per pass at most (the next pass continues). */
export const SETTLE_BATCH = 500;
/** The longest wait between two attempts while the node fails. */
export const MAX_BACKOFF_MS = 5 * 60_000;
/** Blocks above the cursor previewed (pending, shown, never credited) when the cursor is caught up. */
export const PREVIEW_MAX_BLOCKS = 256n;

/** Why a pass stopped without deciding anything: it is tried again later. */
export type FaultKind = 'rpc' | 'lagging' | 'truncated' | 'changed' | 'fork_not_found';

class WatcherFault extends Error {
  constructor(
    readonly kind: FaultKind,
    message: string,
  ) {
    super(message);
  }
}

function must<T>(r: ChainRead<T>): T {
  if (!r.ok) throw new WatcherFault(r.error.kind === 'truncated' ? 'truncated' : 'rpc', unavailableText(r.error));
  return r.value;
}

function present(b: BlockHeader | null, n: bigint): BlockHeader {
  if (!b) throw new WatcherFault('lagging', `the node has no block ${n} yet (a lagging node): waiting`);
  return b;
}

/** What an operations probe needs (readiness, the lag gauge): read from memory, no I/O. */
export interface WatcherStatus {
  /** Off without a chain or without DEPOSIT_XPUB. */
  enabled: boolean;
  /** The newest block seen and the last block read completely (null before the first pass). */
  head: bigint | null;
  cursor: bigint | null;
  /** head - cursor, in blocks; null before the head and the cursor were read. */
  lagBlocks: number | null;
  /** When the last pass read the chain up to its target. */
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  lastError: string | null;
  /** Whether this instance held the lease in its last pass (another instance may be the watcher). */
  leader: boolean;
}

export interface PassResult {
  ran: boolean;
  /** Why it did not run to the end: off, another instance holds the lease, or a fault. */
  stopped?: 'off' | 'lease' | 'fault';
  fault?: FaultKind;
  blocks: number;
  transfers: number;
  recorded: number;
  credited: number;
  dropped: number;
  /** Payout transfers that completed withdrawals by themselves. */
  payouts: number;
  rewound: boolean;
}

type Cursor = { blockNumber: bigint; blockHash: string };

/** One range read ahead of its commit: its deposits and the hashes that tie it to the chain, or why it failed. */
type RangeRead =
  | {
      ok: true;
      from: bigint;
      to: bigint;
      /** The parent of the range's first block: it must be the cursor's block. */
      parentHash: string;
      toHash: string;
      rows: q.WatchedInsert[];
      /** Transfers out of PAYOUT_ADDRESS, and out of investors' addresses (to TREASURY_ADDRESS: sweeps). */
      payouts: pq.PayoutInsert[];
      sweeps: pq.SweepInsert[];
      /** Logs the node answered, and the USDC transfers among them. */
      logs: number;
      transfers: number;
    }
  | { ok: false; from: bigint; to: bigint; error: unknown };

export class DepositWatcher {
  readonly owner = randomUUID();
  private readonly maxScanBlocks: number;
  private scanBlocks: number;
  private head: bigint | null = null;
  private cursor: bigint | null = null;
  private lastSuccessAt: Date | null = null;
  private failures = 0;
  private lastError: string | null = null;
  private leader = false;
  private nextAttemptAt = 0;

  constructor(
    private readonly ctx: AppContext,
    opts: { scanBlocks?: number } = {},
  ) {
    this.maxScanBlocks = opts.scanBlocks ?? SCAN_BLOCKS_MAX;
    this.scanBlocks = Math.min(SCAN_BLOCKS_START, this.maxScanBlocks);
  }

  /** Deposits to investors' own addresses (DEPOSIT_XPUB), payouts out of PAYOUT_ADDRESS: either needs the chain read. */
  get enabled(): boolean {
    return Boolean(this.ctx.chain && (this.ctx.config.DEPOSIT_XPUB || this.ctx.config.PAYOUT_ADDRESS));
  }

  status(): WatcherStatus {
    return {
      enabled: this.enabled,
      head: this.head,
      cursor: this.cursor,
      lagBlocks: this.head !== null && this.cursor !== null ? Number(this.head - this.cursor) : null,
      lastSuccessAt: this.lastSuccessAt,
      consecutiveFailures: this.failures,
      lastError: this.lastError,
      leader: this.leader,
    };
  }

  /** The background job's tick: a pass, unless backing off after faults; 'failed' when the pass could not read the chain. */
  async tick(): Promise<'failed' | undefined> {
    if (Date.now() < this.nextAttemptAt) return undefined;
    const r = await this.pass();
    if (r.stopped === 'fault') {
      const wait = Math.min(MAX_BACKOFF_MS, this.ctx.config.DEPOSIT_CHECK_INTERVAL_MS * 2 ** this.failures);
      this.nextAttemptAt = Date.now() + wait;
      this.ctx.log.warn({ err: this.lastError, kind: r.fault, retryInMs: wait }, 'deposit watcher: pass stopped');
      return 'failed';
    }
    if (r.recorded || r.credited || r.dropped || r.payouts || r.rewound) this.ctx.log.info(r, 'deposit watcher pass');
    return undefined;
  }

  /** Lets another instance take over at once (graceful shutdown). */
  async release(): Promise<void> {
    if (this.enabled) await q.releaseLease(this.ctx.db, DEPOSIT_WATCHER, this.owner);
  }

  /** The newest block deep enough to credit from: DEPOSIT_CONFIRMATIONS counting itself. */
  private target(head: bigint): bigint {
    const depth = BigInt(this.ctx.config.DEPOSIT_CONFIRMATIONS);
    if (depth === 0n) return head;
    return head >= depth - 1n ? head - depth + 1n : -1n;
  }

  /** One pass: check the cursor is still on the chain, read up to the target, preview above it, credit. */
  async pass(): Promise<PassResult> {
    const out: PassResult = {
      ran: false,
      blocks: 0,
      transfers: 0,
      recorded: 0,
      credited: 0,
      dropped: 0,
      payouts: 0,
      rewound: false,
    };
    const chain = this.ctx.chain;
    if (!chain || !this.enabled) return { ...out, stopped: 'off' };
    const { db } = this.ctx;
    try {
      const head = must(await chain.headBlock());
      if (this.head !== null && head < this.head)
        throw new WatcherFault('lagging', `the node's head ${head} is behind block ${this.head} seen before: waiting`);
      this.head = head;
      const target = this.target(head);
      if (!(await q.findCursor(db, DEPOSIT_WATCHER))) await this.createCursor(target);
      this.leader = await q.takeLease(db, DEPOSIT_WATCHER, this.owner, new Date(), this.leaseUntil());
      if (!this.leader) return { ...out, stopped: 'lease' };
      out.ran = true;
      const row = await q.findCursor(db, DEPOSIT_WATCHER);
      if (!row) throw new Error('watcher cursor vanished');
      if (row.headBlock !== null && head < row.headBlock)
        throw new WatcherFault(
          'lagging',
          `the node's head ${head} is behind block ${row.headBlock} seen before: waiting`,
        );
      let cursor: Cursor | null = { blockNumber: row.blockNumber, blockHash: row.blockHash };
      this.cursor = cursor.blockNumber;
      if (present(must(await chain.block(cursor.blockNumber)), cursor.blockNumber).hash !== cursor.blockHash) {
        cursor = await this.rewind(cursor, out);
        if (!cursor) return { ...out, stopped: 'lease' };
      }
      cursor = await this.startUnstarted(cursor);
      if (!cursor) return { ...out, stopped: 'lease' };
      cursor = await this.scan(cursor, target, head, out);
      if (!cursor) return { ...out, stopped: 'lease' };
      await this.preview(cursor, head, out);
      const settled = cursor.blockNumber < target ? cursor.blockNumber : target;
      await this.settle(settled, head, out);
      const payouts = await settlePayouts(this.ctx, settled);
      out.payouts += payouts.matched;
      const now = this.ctx.clock.now();
      await q.markChecked(db, DEPOSIT_WATCHER, this.owner, head, now);
      this.ctx.metrics.watcherLagBlocks.set(Number(head - cursor.blockNumber));
      this.ctx.metrics.watcherLastSuccess.set(Math.floor(Date.now() / 1000));
      this.failures = 0;
      this.lastError = null;
      this.nextAttemptAt = 0;
      this.lastSuccessAt = new Date();
      return out;
    } catch (err) {
      if (!(err instanceof WatcherFault)) throw err;
      this.failures++;
      this.lastError = err.message;
      this.ctx.metrics.watcherErrors.inc({ kind: err.kind });
      if (this.head !== null && this.cursor !== null)
        this.ctx.metrics.watcherLagBlocks.set(Number(this.head - this.cursor));
      return { ...out, stopped: 'fault', fault: err.kind };
    }
  }

  /** First start: read from DEPOSIT_START_BLOCK (or from the target, if that is lower or there is none). */
  private async createCursor(target: bigint): Promise<void> {
    const start = this.ctx.config.depositStartBlock ?? target + 1n;
    const before = start > 0n ? start - 1n : 0n;
    const at = target < before ? (target < 0n ? 0n : target) : before;
    const block = present(must(await this.ctx.chain!.block(at)), at);
    await q.createCursor(this.ctx.db, DEPOSIT_WATCHER, at, block.hash);
  }

  /**
   * Addresses handed out before their first block was recorded (older versions did that while the chain could
   * not be read) start at DEPOSIT_START_BLOCK: the cursor goes back there once, so nothing sent to them is missed.
   */
  private async startUnstarted(cursor: Cursor): Promise<Cursor | null> {
    const { db } = this.ctx;
    if ((await q.countUnstartedAddresses(db)) === 0) return cursor;
    const start = this.ctx.config.depositStartBlock ?? 0n;
    const to = start > 0n ? start - 1n : 0n;
    const back = to < cursor.blockNumber ? present(must(await this.ctx.chain!.block(to)), to) : null;
    return inTransaction(db, async (tx) => {
      const n = await q.startUnstartedAddresses(tx, start);
      if (!back || n === 0) return cursor;
      const target = { blockNumber: to, blockHash: back.hash };
      if (
        !(await q.advanceCursor(
          tx,
          DEPOSIT_WATCHER,
          this.owner,
          cursor,
          target,
          this.ctx.clock.now(),
          this.leaseUntil(),
        ))
      )
        return null;
      await q.dropCheckpointsAbove(tx, DEPOSIT_WATCHER, to);
      this.ctx.log.warn(
        { addresses: n, from: to + 1n },
        'deposit watcher: addresses without a first block, reading again from DEPOSIT_START_BLOCK',
      );
      return target;
    });
  }

  /** Reads ranges from the cursor up to the target, in order, each tied to the one before; null when the lease was lost. */
  private async scan(start: Cursor, target: bigint, head: bigint, out: PassResult): Promise<Cursor | null> {
    let cursor = start;
    // Reads run up to READ_AHEAD ranges ahead; commits stay in block order, each from the exact cursor the
    // previous one left (a read that failed is retried smaller, the reads after it dropped).
    const ahead: Promise<RangeRead>[] = [];
    let nextFrom = cursor.blockNumber + 1n;
    const planAhead = () => {
      while (ahead.length < READ_AHEAD && nextFrom <= target) {
        const from = nextFrom;
        const to = this.rangeEnd(from, target);
        const read = this.readRange(from, to, head);
        read.catch(() => undefined); // an abandoned read (the pass stopped) must not be an unhandled rejection
        ahead.push(read);
        nextFrom = to + 1n;
      }
    };
    while (cursor.blockNumber < target) {
      planAhead();
      const first = ahead.shift();
      if (!first) break;
      let read = await first;
      if (!read.ok) {
        // Too many logs for one answer (result caps, response size limits, a truncated answer) looks like any
        // other failed read: halve the range and try again, a few times, before calling it a fault.
        ahead.length = 0;
        for (
          let i = 0;
          !read.ok && read.error instanceof WatcherFault && i < RANGE_RETRIES && read.to > read.from;
          i++
        ) {
          this.scanBlocks = Math.max(1, Math.floor(Number(read.to - read.from + 1n) / 2));
          read = await this.readRange(read.from, this.rangeEnd(read.from, read.to), head);
        }
        if (!read.ok) throw read.error;
        nextFrom = read.to + 1n;
      }
      if (read.parentHash !== cursor.blockHash) {
        // The chain changed between reads; the next pass starts by checking the cursor's block again.
        throw new WatcherFault('changed', `block ${read.from} does not follow block ${cursor.blockNumber} as read`);
      }
      this.learn(Number(read.to - read.from + 1n), read.logs);
      const next = await this.commitRange(cursor, read, out);
      if (!next) return null;
      out.blocks += Number(next.blockNumber - cursor.blockNumber);
      cursor = next;
      this.cursor = cursor.blockNumber;
    }
    return cursor;
  }

  private leaseUntil(): Date {
    return new Date(Date.now() + watcherLeaseMs(this.ctx.config.DEPOSIT_CHECK_INTERVAL_MS));
  }

  /** The end of a range starting at `from`: the current range size, not past `limit`. */
  private rangeEnd(from: bigint, limit: bigint): bigint {
    const to = from + BigInt(this.scanBlocks) - 1n;
    return to < limit ? to : limit;
  }

  /** Sizes the next range from the density just read: about LOGS_PER_READ logs, growing at most 2x per read. */
  private learn(blocks: number, logs: number): void {
    const fit = logs > 0 ? Math.floor((LOGS_PER_READ * blocks) / logs) : this.maxScanBlocks;
    this.scanBlocks = Math.max(1, Math.min(fit, this.scanBlocks * 2, this.maxScanBlocks));
  }

  /**
   * Reads one range: its last block (before and after the logs: it must not change), its first block's parent,
   * the Transfer logs, and the deposits among them. Never rejects: a fault is a value, for the caller to retry.
   */
  private async readRange(from: bigint, to: bigint, head: bigint): Promise<RangeRead> {
    try {
      const chain = this.ctx.chain!;
      const end = present(must(await chain.block(to)), to);
      const first = from === to ? end : present(must(await chain.block(from)), from);
      const logs = must(await completeTransfers(chain, from, to));
      if (present(must(await chain.block(to)), to).hash !== end.hash)
        throw new WatcherFault('changed', `block ${to} changed while blocks ${from}-${to} were read`);
      if (
        logs.some(
          (l) =>
            (l.blockNumber === to && l.blockHash !== end.hash) ||
            (l.blockNumber === from && l.blockHash !== first.hash),
        )
      )
        throw new WatcherFault('changed', `the logs of blocks ${from}-${to} come from another chain than their blocks`);
      const transfers = logs.filter((l) => l.usdc && l.value > 0n);
      // One look-up of the investors' addresses among senders and recipients: deposits in, money out.
      const owners = await ownersOf(this.ctx.db, [...new Set(transfers.flatMap((l) => [l.to, l.from]))]);
      const rows = await this.depositsIn(transfers, head, owners);
      const { payouts, sweeps } = this.outgoingIn(transfers, owners);
      return {
        ok: true,
        from,
        to,
        parentHash: first.parentHash,
        toHash: end.hash,
        rows,
        payouts,
        sweeps,
        logs: logs.length,
        transfers: transfers.length,
      };
    } catch (err) {
      return { ok: false, from, to, error: err };
    }
  }

  /** Commits a range's deposits with the cursor move (compare-and-set); null when the lease was lost. */
  private async commitRange(cursor: Cursor, read: RangeRead & { ok: true }, out: PassResult) {
    out.transfers += read.transfers;
    const moved = await inTransaction(this.ctx.db, async (tx) => {
      const next = { blockNumber: read.to, blockHash: read.toHash };
      const ok = await q.advanceCursor(
        tx,
        DEPOSIT_WATCHER,
        this.owner,
        cursor,
        next,
        this.ctx.clock.now(),
        this.leaseUntil(),
      );
      if (!ok) return null;
      await q.recordTransfers(tx, read.rows);
      await pq.recordPayoutTransfers(tx, read.payouts);
      await pq.recordSweeps(tx, read.sweeps);
      for (const x of read.sweeps.filter((x) => x.toAddress !== this.treasury)) await this.sweptElsewhere(tx, x);
      await q.addCheckpoint(tx, DEPOSIT_WATCHER, read.to, read.toHash, read.to - CHECKPOINT_WINDOW);
      return next;
    });
    if (moved) {
      out.recorded += read.rows.length;
      await this.readAgainAfterMoneyOut(read);
    }
    return moved;
  }

  /** Money left the platform's addresses: the solvency view reads the ones it left (and the treasury) again now. */
  private async readAgainAfterMoneyOut(read: { payouts: pq.PayoutInsert[]; sweeps: pq.SweepInsert[] }) {
    const payout = this.ctx.config.PAYOUT_ADDRESS?.toLowerCase();
    const changed = [
      ...[...new Set(read.sweeps.map((x) => x.fromAddress))].map((address) => ({ address, kind: 'deposit' as const })),
      ...(payout && read.payouts.length > 0 ? [{ address: payout, kind: 'payout' as const }] : []),
      ...(this.treasury && read.sweeps.some((x) => x.toAddress === this.treasury)
        ? [{ address: this.treasury, kind: 'treasury' as const }]
        : []),
    ];
    const r = await refreshBalancesOf(this.ctx, changed);
    if ('error' in r) this.ctx.log.warn({ err: r.error }, 'solvency: addresses money left not read again');
  }

  /**
   * Shows transfers in the blocks above the cursor (not deep enough yet) as pending, with their confirmations,
   * once the cursor is caught up. Nothing is credited or decided from them: a failed preview changes nothing.
   */
  private async preview(cursor: Cursor, head: bigint, out: PassResult): Promise<void> {
    if (head <= cursor.blockNumber || head - cursor.blockNumber > PREVIEW_MAX_BLOCKS) return;
    const logs = await this.ctx.chain!.usdcTransfers(cursor.blockNumber + 1n, head);
    if (!logs.ok) return;
    const rows = await this.depositsIn(
      logs.value.filter((l) => l.usdc && l.value > 0n),
      head,
    );
    await inTransaction(this.ctx.db, (tx) => q.recordTransfers(tx, rows));
    out.recorded += rows.length;
  }

  private get treasury(): string | undefined {
    return this.ctx.config.TREASURY_ADDRESS?.toLowerCase();
  }

  /**
   * The transfers out that the books follow: from PAYOUT_ADDRESS (payouts the watcher matches with withdrawals), and
   * from an investor's deposit address to anywhere (to TREASURY_ADDRESS: a sweep; elsewhere: an alarm).
   */
  private outgoingIn(
    logs: TransferLog[],
    investors: DepositAddressRow[],
  ): { payouts: pq.PayoutInsert[]; sweeps: pq.SweepInsert[] } {
    const payout = this.ctx.config.PAYOUT_ADDRESS?.toLowerCase();
    const now = this.ctx.clock.now();
    const payouts = payout
      ? logs
          .filter((l) => l.from === payout)
          .map((l) => ({
            txHash: l.txHash,
            logIndex: l.logIndex,
            toAddress: l.to,
            amount: l.value,
            blockNumber: l.blockNumber,
            blockHash: l.blockHash,
            createdAt: now,
          }))
      : [];
    const owners = new Set(investors.map((o) => o.address));
    const sweeps = logs
      .filter((l) => owners.has(l.from))
      .map((l) => ({
        txHash: l.txHash,
        logIndex: l.logIndex,
        fromAddress: l.from,
        toAddress: l.to,
        amount: l.value,
        blockNumber: l.blockNumber,
        createdAt: now,
      }));
    return { payouts, sweeps };
  }

  /** USDC left a deposit address for somewhere other than the treasury: only its key can do that. An alarm. */
  private async sweptElsewhere(tx: Tx, x: pq.SweepInsert): Promise<void> {
    const detail = `${formatUsdc(microToUsdc(x.amount), 2, 6)} USDC left the deposit address ${x.fromAddress} for ${x.toAddress}, not for the treasury (transaction ${x.txHash}): the deposit key signed it`;
    await raiseAlarm(tx, this.ctx, {
      kind: 'sweep_elsewhere',
      detail,
      blockNumber: x.blockNumber,
      at: this.ctx.clock.now(),
    });
    this.ctx.log.error(
      { from: x.fromAddress, to: x.toAddress, txHash: x.txHash },
      'deposit funds left for an address that is not the treasury',
    );
  }

  /** The logs that are deposits: to an investor's address, from the block it was handed out on. */
  async depositsIn(logs: TransferLog[], head: bigint, known?: DepositAddressRow[]): Promise<q.WatchedInsert[]> {
    const owners = known ?? (await ownersOf(this.ctx.db, [...new Set(logs.map((l) => l.to))]));
    if (owners.length === 0) return [];
    const byAddress = new Map(owners.map((o) => [o.address, o]));
    const now = this.ctx.clock.now();
    const start = this.ctx.config.depositStartBlock ?? 0n;
    return logs.flatMap((l) => {
      const o = byAddress.get(l.to);
      if (!o || l.blockNumber < (o.fromBlock ?? start)) return [];
      const below = l.value < MIN_DEPOSIT_MICRO;
      return [
        {
          userId: o.userId,
          amount: l.value,
          status: below ? 'failed' : 'pending',
          failureReason: below ? MSG.depositBelowMinimum : null,
          txHash: l.txHash,
          logIndex: l.logIndex,
          fromAddress: l.from,
          toAddress: l.to,
          blockNumber: l.blockNumber,
          blockHash: l.blockHash,
          confirmations: head >= l.blockNumber ? Number(head - l.blockNumber + 1n) : 0,
          createdAt: now,
        },
      ];
    });
  }

  /**
   * Counts confirmations and credits the pending deposits in blocks the cursor has passed (so at least
   * DEPOSIT_CONFIRMATIONS deep) whose block is still the chain's; the others are matched with their transaction
   * again. Below-minimum transfers shown early are checked the same way once (a re-organisation may have dropped
   * them), and never credited. The credited addresses' on-chain balances are read again for the solvency view.
   */
  async settle(upTo: bigint, head: bigint, out: PassResult): Promise<void> {
    const chain = this.ctx.chain;
    if (!chain) return;
    const { db } = this.ctx;
    await q.countConfirmations(db, head);
    const due = [
      ...(await q.pendingWatchedUpTo(db, upTo, SETTLE_BATCH)),
      ...(await q.uncheckedBelowUpTo(db, upTo, SETTLE_BATCH)),
    ];
    const canonical = new Map<bigint, string | null>();
    const blocks = [...new Set(due.map((d) => d.blockNumber ?? -1n))].filter((n) => n >= 0n);
    for (let i = 0; i < blocks.length; i += HASH_READS_AT_ONCE) {
      const batch = blocks.slice(i, i + HASH_READS_AT_ONCE);
      const headers = await Promise.all(batch.map((n) => chain.block(n)));
      batch.forEach((n, j) => canonical.set(n, must(headers[j] as ChainRead<BlockHeader | null>)?.hash ?? null));
    }
    const deep = due.filter((d) => d.blockNumber !== null && canonical.get(d.blockNumber) === d.blockHash);
    const moved = new Set(due.filter((d) => !deep.includes(d) && d.txHash).map((d) => d.txHash as string));
    for (const txHash of moved) await this.recheckTx(txHash, out);
    const now = this.ctx.clock.now();
    const credited = await inTransaction(db, async (tx) => {
      await q.markBelowChecked(
        tx,
        deep.filter((d) => d.status === 'failed').map((d) => d.id),
        now,
      );
      return confirmAndCreditMany(
        this.ctx,
        tx,
        deep.filter((d) => d.status === 'pending').map((d) => d.id),
        { processedAt: now, head },
      );
    });
    out.credited += credited.length;
    if (credited.length > 0) {
      const addresses = [...new Set(credited.map((d) => d.toAddress ?? ''))].filter(Boolean);
      const r = await refreshBalancesOf(
        this.ctx,
        addresses.map((address) => ({ address, kind: 'deposit' as const })),
      );
      if ('error' in r) this.ctx.log.warn({ err: r.error }, 'solvency: credited addresses not read again');
    }
  }

  /**
   * Matches the watched deposits of one transaction with what the chain says of it now (after a re-organisation):
   * a deposit whose transfer is found again takes its new block and log index (credited ones first, so a
   * transfer is never counted twice); a pending one whose transfer is gone fails as dropped; a credited one whose
   * transfer is gone is an alarm. Transfers to investors' addresses no deposit holds are recorded.
   */
  async recheckTx(txHash: string, out: PassResult): Promise<void> {
    const chain = this.ctx.chain!;
    const r = must(await chain.receipt(txHash));
    const found = r.found && r.status === 'success' ? r.transfers.filter((t) => t.usdc && t.value > 0n) : [];
    const fresh = await this.depositsIn(found, this.head ?? 0n);
    const now = this.ctx.clock.now();
    const gone: dq.DepositRow[] = [];
    await inTransaction(this.ctx.db, async (tx) => {
      const rows = await q.lockWatchedOfTx(tx, txHash);
      await q.parkLogIndexes(
        tx,
        rows.map((d) => d.id),
      );
      const unused = [...fresh];
      for (const d of rows) {
        const i = unused.findIndex(
          (t) => t.toAddress === d.toAddress && t.fromAddress === d.fromAddress && t.amount === d.amount,
        );
        const t = i >= 0 ? unused.splice(i, 1)[0] : undefined;
        const dropped = d.status === 'failed' && d.failureReason === MSG.depositDroppedByReorg;
        // Shown, never credited: when its transfer is gone it says so, as a pending one does.
        const below = d.status === 'failed' && d.failureReason === MSG.depositBelowMinimum;
        if (t) {
          await dq.updateDeposit(tx, d.id, {
            logIndex: t.logIndex,
            blockNumber: t.blockNumber,
            blockHash: t.blockHash,
            ...(d.status === 'pending' ? { confirmations: t.confirmations } : {}),
            // Found again: what the chain's transfer makes it (a below-minimum one stays failed, checked again).
            ...(dropped || below
              ? { status: t.status, failureReason: t.failureReason, processedAt: null, confirmations: t.confirmations }
              : {}),
          });
        } else {
          await dq.updateDeposit(tx, d.id, {
            logIndex: null,
            ...(d.status === 'pending' || below
              ? { status: 'failed', failureReason: MSG.depositDroppedByReorg, processedAt: now }
              : {}),
          });
          if (d.status === 'pending') out.dropped++;
          if (d.status === 'confirmed') gone.push(d);
        }
      }
      await q.recordTransfers(tx, unused);
      for (const d of gone)
        await raiseAlarm(tx, this.ctx, {
          kind: 'credited_gone',
          detail: `a credited deposit of ${formatUsdc(microToUsdc(d.amount), 2, 6)} USDC (transaction ${txHash}, deposit ${d.id}) is no longer on the chain`,
          blockNumber: d.blockNumber,
          at: now,
        });
    });
    for (const d of gone)
      this.ctx.log.error({ depositId: d.id, txHash, userId: d.userId }, 'a credited deposit is no longer on the chain');
    if (fresh.length === 0 && gone.length === 0)
      this.ctx.log.warn({ txHash }, 'deposit dropped by a chain re-organisation');
  }

  /**
   * After a deep re-organisation: payouts and sweeps read above the fork and not acted on are read again; a payout
   * that completed withdrawals is found again in its new block, or is an alarm (they were paid by a transfer the
   * chain no longer has).
   */
  private async recheckPayouts(fork: bigint, now: Date): Promise<void> {
    const { db } = this.ctx;
    await pq.dropUnsettledAbove(db, fork);
    for (const p of await pq.matchedAbove(db, fork)) {
      const r = must(await this.ctx.chain!.receipt(p.txHash));
      const again =
        r.found && r.status === 'success'
          ? r.transfers.find(
              (t) =>
                t.usdc &&
                t.to === p.toAddress &&
                t.value === p.amount &&
                t.from === this.ctx.config.PAYOUT_ADDRESS?.toLowerCase(),
            )
          : undefined;
      if (again)
        await pq.moveMatched(db, p.id, {
          blockNumber: again.blockNumber,
          blockHash: again.blockHash,
          logIndex: again.logIndex,
        });
      else
        await inTransaction(db, (tx) =>
          raiseAlarm(tx, this.ctx, {
            kind: 'payout_gone',
            detail: `a payout of ${formatUsdc(microToUsdc(p.amount), 2, 6)} USDC to ${p.toAddress} (transaction ${p.txHash}) that completed withdrawals is no longer on the chain`,
            blockNumber: p.blockNumber,
            at: now,
          }),
        );
    }
  }

  /**
   * The cursor's block left the chain: a re-organisation deeper than the confirmations. An alarm; then back to the
   * newest checkpoint still on the chain (binary search: a checkpoint on the chain has every older one on it too),
   * every deposit read above it matched with its transaction again, and the cursor moved there. No checkpoint on
   * the chain: the watcher stops and says so, rather than trust a block it has not compared.
   */
  private async rewind(cursor: Cursor, out: PassResult): Promise<Cursor | null> {
    const chain = this.ctx.chain!;
    const { db } = this.ctx;
    const conf = this.ctx.config.DEPOSIT_CONFIRMATIONS;
    const now = this.ctx.clock.now();
    const checkpoints = await q.checkpointsBelow(db, DEPOSIT_WATCHER, cursor.blockNumber - 1n);
    let lo = 0;
    let hi = checkpoints.length - 1;
    let found: Cursor | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const cp = checkpoints[mid]!;
      if (must(await chain.block(cp.blockNumber))?.hash === cp.blockHash) {
        found = { blockNumber: cp.blockNumber, blockHash: cp.blockHash };
        hi = mid - 1;
      } else lo = mid + 1;
    }
    if (!found) {
      const detail = `block ${cursor.blockNumber} left the chain and none of the ${checkpoints.length} checkpoints below it is on the chain: the watcher stopped (docs/OPERATIONS.md)`;
      await inTransaction(db, (tx) =>
        raiseAlarm(tx, this.ctx, { kind: 'fork_not_found', detail, blockNumber: cursor.blockNumber, at: now }),
      );
      this.ctx.log.error({ block: cursor.blockNumber }, 'deposit watcher: fork point not found, stopped');
      throw new WatcherFault('fork_not_found', detail);
    }
    const fork = found;
    await inTransaction(db, (tx) =>
      raiseAlarm(tx, this.ctx, {
        kind: 'deep_reorg',
        detail: `a re-organisation deeper than the ${conf} confirmations replaced blocks ${fork.blockNumber + 1n}-${cursor.blockNumber}`,
        blockNumber: fork.blockNumber + 1n,
        at: now,
      }),
    );
    this.ctx.metrics.watcherErrors.inc({ kind: 'deep_reorg' });
    this.ctx.log.error(
      { from: cursor.blockNumber, to: fork.blockNumber },
      'chain re-organisation deeper than the confirmations',
    );
    for (const txHash of await q.watchedTxsAbove(db, fork.blockNumber)) await this.recheckTx(txHash, out);
    await this.recheckPayouts(fork.blockNumber, now);
    const ok = await inTransaction(db, async (tx) => {
      const moved = await q.advanceCursor(tx, DEPOSIT_WATCHER, this.owner, cursor, fork, now, this.leaseUntil());
      if (moved) await q.dropCheckpointsAbove(tx, DEPOSIT_WATCHER, fork.blockNumber);
      return moved;
    });
    out.rewound = true;
    this.cursor = fork.blockNumber;
    // What the addresses hold changed with the chain: the solvency view reads it again now.
    const r = await refreshOnchainBalances(this.ctx);
    if ('error' in r)
      this.ctx.log.warn({ err: r.error }, 'solvency: balances not read again after the re-organisation');
    return ok ? fork : null;
  }
}

/** Blocks behind the head at which the watcher (the instance holding the lease) reports not ready. */
export const READY_MAX_LAG_BLOCKS = 1_000;

/**
 * The watcher's condition of GET /readyz: only the instance that follows the chain can be behind,
 * and only far behind (an outage of the RPC node for more than about half an hour on Polygon) counts.
 */
export const watcherReadiness: ReadinessCheck = {
  name: 'deposit-watcher',
  async run(ctx) {
    const s = depositWatcher(ctx).status();
    if (!s.enabled || !s.leader || s.lagBlocks === null) return null;
    return s.lagBlocks > READY_MAX_LAG_BLOCKS
      ? `deposit watcher ${s.lagBlocks} blocks behind the chain${s.lastError ? ` (${s.lastError})` : ''}`
      : null;
  },
};

const watchers = new WeakMap<AppContext, DepositWatcher>();

/** The process's watcher for this app (one per AppContext). */
export function depositWatcher(ctx: AppContext): DepositWatcher {
  let w = watchers.get(ctx);
  if (!w) watchers.set(ctx, (w = new DepositWatcher(ctx)));
  return w;
}
