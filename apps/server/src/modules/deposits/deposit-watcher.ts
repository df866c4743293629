import type { AppContext, ReadinessCheck } from '../../context.ts';
import { settlePayouts } from '../withdrawals/payouts.service.ts';
import { settle } from './watcher-credit.ts';
import { WatcherLease } from './watcher-lease.ts';
import { must, present, WatcherFault, type Cursor, type PassResult } from './watcher-pass.ts';
import { RangeReader, SCAN_BLOCKS_MAX } from './watcher-ranges.ts';
import { rewind } from './watcher-rewind.ts';

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
/** The longest wait between two attempts while the node fails. */
export const MAX_BACKOFF_MS = 5 * 60_000;

/** What an operations probe needs (readiness, the lag gauge): read from memory, no I/O. */
export interface WatcherStatus {
  /** Off without a chain or without DEPOSIT_XPUB. */
  enabled: boolean;
  /** The newest block seen and the last block read completely (null before the first pass). */
  head: bigint | null;
  cursor: bigint | null;
  /** head - cursor, in blocks; null before the head and the cursor were read. */
  lagBlocks: number | null;
  /** When the last pass read the chain up to its target (on the injected clock). */
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  lastError: string | null;
  /** Whether this instance held the lease in its last pass (another instance may be the watcher). */
  leader: boolean;
}

export class DepositWatcher {
  private readonly lease: WatcherLease;
  private readonly ranges: RangeReader;
  private head: bigint | null = null;
  private cursor: bigint | null = null;
  private lastSuccessAt: Date | null = null;
  private failures = 0;
  private lastError: string | null = null;
  private leader = false;
  /** Epoch ms on the injected clock before which tick() does not try again (backing off after faults). */
  private nextAttemptAt = 0;

  constructor(
    private readonly ctx: AppContext,
    opts: { scanBlocks?: number } = {},
  ) {
    this.lease = new WatcherLease(ctx);
    this.ranges = new RangeReader(ctx, this.lease, opts.scanBlocks ?? SCAN_BLOCKS_MAX);
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
    if (this.ctx.clock.now().getTime() < this.nextAttemptAt) return undefined;
    const r = await this.pass();
    if (r.stopped === 'fault') {
      const wait = Math.min(MAX_BACKOFF_MS, this.ctx.config.DEPOSIT_CHECK_INTERVAL_MS * 2 ** this.failures);
      this.nextAttemptAt = this.ctx.clock.now().getTime() + wait;
      this.ctx.log.warn({ err: this.lastError, kind: r.fault, retryInMs: wait }, 'deposit watcher: pass stopped');
      return 'failed';
    }
    if (r.recorded || r.credited || r.dropped || r.payouts || r.rewound) this.ctx.log.info(r, 'deposit watcher pass');
    return undefined;
  }

  /** Lets another instance take over at once (graceful shutdown). */
  async release(): Promise<void> {
    if (this.enabled) await this.lease.release();
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
    const moved = (c: Cursor) => (this.cursor = c.blockNumber);
    try {
      const head = must(await chain.headBlock());
      if (this.head !== null && head < this.head)
        throw new WatcherFault('lagging', `the node's head ${head} is behind block ${this.head} seen before: waiting`);
      this.head = head;
      const target = this.lease.target(head);
      if (!(await this.lease.read())) await this.lease.create(target);
      this.leader = await this.lease.take();
      if (!this.leader) return { ...out, stopped: 'lease' };
      out.ran = true;
      const row = await this.lease.read();
      if (!row) throw new Error('watcher cursor vanished');
      if (row.headBlock !== null && head < row.headBlock)
        throw new WatcherFault(
          'lagging',
          `the node's head ${head} is behind block ${row.headBlock} seen before: waiting`,
        );
      let cursor: Cursor | null = { blockNumber: row.blockNumber, blockHash: row.blockHash };
      moved(cursor);
      if (present(must(await chain.block(cursor.blockNumber)), cursor.blockNumber).hash !== cursor.blockHash) {
        cursor = await rewind(this.ctx, this.lease, cursor, head, out);
        if (!cursor) return { ...out, stopped: 'lease' };
        moved(cursor);
      }
      cursor = await this.lease.startUnstarted(cursor);
      if (!cursor) return { ...out, stopped: 'lease' };
      cursor = await this.ranges.scan(cursor, target, head, out, moved);
      if (!cursor) return { ...out, stopped: 'lease' };
      await this.ranges.preview(cursor, head, out);
      const settled = cursor.blockNumber < target ? cursor.blockNumber : target;
      await settle(this.ctx, settled, head, out);
      out.payouts += (await settlePayouts(this.ctx, settled)).matched;
      await this.lease.checked(head);
      const now = this.ctx.clock.now();
      this.ctx.metrics.watcherLagBlocks.set(Number(head - cursor.blockNumber));
      this.ctx.metrics.watcherLastSuccess.set(Math.floor(now.getTime() / 1000));
      this.failures = 0;
      this.lastError = null;
      this.nextAttemptAt = 0;
      this.lastSuccessAt = now;
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
