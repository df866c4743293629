import { completeTransfers } from '../../chain/chain.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { ownersOf } from '../deposit-addresses/deposit-addresses.queries.ts';
import { DEPOSIT_WATCHER } from '../deposit-addresses/deposit-addresses.service.ts';
import * as pq from '../withdrawals/payouts.queries.ts';
import { depositsIn } from './watcher-credit.ts';
import type { WatcherLease } from './watcher-lease.ts';
import { outgoingIn, readAgainAfterMoneyOut, sweptElsewhere, treasuryOf } from './watcher-money-out.ts';
import { must, present, WatcherFault, type Cursor, type PassResult } from './watcher-pass.ts';
import * as q from './watcher.queries.ts';

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
/** Range-end hashes kept for finding a fork point, in blocks behind the cursor. */
export const CHECKPOINT_WINDOW = 2_048n;
/** Blocks above the cursor previewed (pending, shown, never credited) when the cursor is caught up. */
export const PREVIEW_MAX_BLOCKS = 256n;

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

/**
 * Reads the chain from the cursor in ranges, each tied to the one before, and commits each with the cursor move;
 * previews the blocks above. It keeps the range size it learnt from one pass to the next.
 */
export class RangeReader {
  private scanBlocks: number;

  constructor(
    private readonly ctx: AppContext,
    private readonly lease: WatcherLease,
    private readonly maxScanBlocks: number,
  ) {
    this.scanBlocks = Math.min(SCAN_BLOCKS_START, maxScanBlocks);
  }

  /** Reads ranges from the cursor up to the target, in order, each tied to the one before; null when the lease was lost. */
  async scan(
    start: Cursor,
    target: bigint,
    head: bigint,
    out: PassResult,
    moved: (cursor: Cursor) => void,
  ): Promise<Cursor | null> {
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
      moved(cursor);
    }
    return cursor;
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
      const rows = await depositsIn(this.ctx, transfers, head, owners);
      const { payouts, sweeps } = outgoingIn(this.ctx, transfers, owners);
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
      if (!(await this.lease.advance(tx, cursor, next))) return null;
      await q.recordTransfers(tx, read.rows);
      await pq.recordPayoutTransfers(tx, read.payouts);
      await pq.recordSweeps(tx, read.sweeps);
      const treasury = treasuryOf(this.ctx);
      for (const x of read.sweeps.filter((x) => x.toAddress !== treasury)) await sweptElsewhere(this.ctx, tx, x);
      await q.addCheckpoint(tx, DEPOSIT_WATCHER, read.to, read.toHash, read.to - CHECKPOINT_WINDOW);
      return next;
    });
    if (moved) {
      out.recorded += read.rows.length;
      await readAgainAfterMoneyOut(this.ctx, read);
    }
    return moved;
  }

  /**
   * Shows transfers in the blocks above the cursor (not deep enough yet) as pending, with their confirmations,
   * once the cursor is caught up. Nothing is credited or decided from them: a failed preview changes nothing.
   */
  async preview(cursor: Cursor, head: bigint, out: PassResult): Promise<void> {
    if (head <= cursor.blockNumber || head - cursor.blockNumber > PREVIEW_MAX_BLOCKS) return;
    const logs = await this.ctx.chain!.usdcTransfers(cursor.blockNumber + 1n, head);
    if (!logs.ok) return;
    const rows = await depositsIn(
      this.ctx,
      logs.value.filter((l) => l.usdc && l.value > 0n),
      head,
    );
    await inTransaction(this.ctx.db, (tx) => q.recordTransfers(tx, rows));
    out.recorded += rows.length;
  }
}
