import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { DEPOSIT_WATCHER } from '../deposit-addresses/deposit-addresses.service.ts';
import { must, present, type Cursor } from './watcher-pass.ts';
import * as q from './watcher.queries.ts';

/**
 * How long an instance holds the watcher (renewed with every range it commits): four intervals, at least 10 s
 * (60 s at the default 15 s). A crashed leader is replaced after it; a stopped one gives the lease back.
 */
export const watcherLeaseMs = (intervalMs: number) => Math.max(10_000, 4 * intervalMs);

/**
 * The watcher's persisted cursor and the lease that lets one instance at a time move it. Every time here is the
 * injected clock's, so a test moves a lease past its expiry by moving the clock.
 */
export class WatcherLease {
  readonly owner = randomUUID();

  constructor(private readonly ctx: AppContext) {}

  private until(now: Date): Date {
    return new Date(now.getTime() + watcherLeaseMs(this.ctx.config.DEPOSIT_CHECK_INTERVAL_MS));
  }

  /** Takes or renews the lease: only when free, expired, or already ours. */
  take(): Promise<boolean> {
    const now = this.ctx.clock.now();
    return q.takeLease(this.ctx.db, DEPOSIT_WATCHER, this.owner, now, this.until(now));
  }

  /** Lets another instance take over at once (graceful shutdown). */
  release(): Promise<void> {
    return q.releaseLease(this.ctx.db, DEPOSIT_WATCHER, this.owner);
  }

  /** The cursor's row: where the last range committed ended, and the highest head a lease holder saw. */
  read(): Promise<q.CursorRow | undefined> {
    return q.findCursor(this.ctx.db, DEPOSIT_WATCHER);
  }

  /** Moves the cursor from exactly `from` to `to` and renews the lease; false when the lease or the cursor moved. */
  advance(tx: Tx, from: Cursor, to: Cursor): Promise<boolean> {
    const now = this.ctx.clock.now();
    return q.advanceCursor(tx, DEPOSIT_WATCHER, this.owner, from, to, now, this.until(now));
  }

  /** A pass read the chain up to its target: when, and the head it saw. */
  checked(head: bigint): Promise<void> {
    return q.markChecked(this.ctx.db, DEPOSIT_WATCHER, this.owner, head, this.ctx.clock.now());
  }

  /** The newest block deep enough to credit from: DEPOSIT_CONFIRMATIONS counting itself. */
  target(head: bigint): bigint {
    const depth = BigInt(this.ctx.config.DEPOSIT_CONFIRMATIONS);
    if (depth === 0n) return head;
    return head >= depth - 1n ? head - depth + 1n : -1n;
  }

  /** First start: read from DEPOSIT_START_BLOCK (or from the target, if that is lower or there is none). */
  async create(target: bigint): Promise<void> {
    const start = this.ctx.config.depositStartBlock ?? target + 1n;
    const before = start > 0n ? start - 1n : 0n;
    const at = target < before ? (target < 0n ? 0n : target) : before;
    const block = present(must(await this.ctx.chain!.block(at)), at);
    await q.createCursor(this.ctx.db, DEPOSIT_WATCHER, at, block.hash, this.ctx.clock.now());
  }

  /**
   * Addresses handed out before their first block was recorded (older versions did that while the chain could
   * not be read) start at DEPOSIT_START_BLOCK: the cursor goes back there once, so nothing sent to them is missed.
   */
  async startUnstarted(cursor: Cursor): Promise<Cursor | null> {
    const { db } = this.ctx;
    if ((await q.countUnstartedAddresses(db)) === 0) return cursor;
    const start = this.ctx.config.depositStartBlock ?? 0n;
    const to = start > 0n ? start - 1n : 0n;
    const back = to < cursor.blockNumber ? present(must(await this.ctx.chain!.block(to)), to) : null;
    return inTransaction(db, async (tx) => {
      const n = await q.startUnstartedAddresses(tx, start);
      if (!back || n === 0) return cursor;
      const target = { blockNumber: to, blockHash: back.hash };
      if (!(await this.advance(tx, cursor, target))) return null;
      await q.dropCheckpointsAbove(tx, DEPOSIT_WATCHER, to);
      this.ctx.log.warn(
        { addresses: n, from: to + 1n },
        'deposit watcher: addresses without a first block, reading again from DEPOSIT_START_BLOCK',
      );
      return target;
    });
  }
}
