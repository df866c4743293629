import { randomUUID } from 'node:crypto';
import { MIN_DEPOSIT_MICRO } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import { unavailableText, type ChainRead, type TransferLog } from '../../chain/chain.ts';
import type { AppContext, ReadinessCheck } from '../../context.ts';
import { constraintName, inTransaction, sqlState } from '../../db/tx.ts';
import { ownersOf } from '../deposit-addresses/deposit-addresses.queries.ts';
import { DEPOSIT_WATCHER } from '../deposit-addresses/deposit-addresses.service.ts';
import { confirmAndCreditMany } from './deposits.credit.ts';
import * as dq from './deposits.queries.ts';
import type { DepositRow } from './deposits.queries.ts';
import * as q from './watcher.queries.ts';

/**
 * The chain watcher (DEPOSIT_XPUB mode, docs/decisions/0031 and 0032): follows the chain from a
 * persisted cursor (block number and hash), reads the USDC Transfer logs of bounded block ranges,
 * records every transfer to an investor's deposit address as a deposit, and credits it through
 * the ledger once it is DEPOSIT_CONFIRMATIONS deep and its block is still on the chain.
 *
 * - One instance works at a time: a lease on the cursor row, and the cursor only moves from the
 *   exact block and hash the instance read from (compare-and-set), in the same transaction as the
 *   deposits found in that range. A range is never skipped: a failed read moves nothing.
 * - Re-organisations: a cursor block whose hash changed rewinds to the newest checkpoint still
 *   on the chain; pending deposits above it are looked up again and fail as dropped when their
 *   transaction is gone. Crediting asks the chain for the deposit's block hash first.
 * - Exactly once: one row per (tx hash, log index), pending -> confirmed only once (ledger post
 *   in the same transaction).
 */

/**
 * Most blocks read by one eth_getLogs call (docs/decisions/0032, 0037). Within it a range is sized from the
 * density just read, aiming at LOGS_PER_READ logs; it halves on a failed read.
 */
export const SCAN_BLOCKS_MAX = 1_000;
/**
 * Logs one eth_getLogs answer aims at: well under providers' result caps (10,000 at several) and viem's
 * 10 MB response limit (about 15,000 Transfer logs); measured with `npm run bench:watcher` (decision 0037).
 */
export const LOGS_PER_READ = 10_000;
/** Ranges read (and matched) ahead while the previous one is committed: the node and the database overlap. */
export const READ_AHEAD = 2;
/** Halvings of a range whose read failed, within one pass. */
export const RANGE_RETRIES = 4;
/** The first range of a new watcher, in blocks; it grows (at most 2x per read) while the chain is sparse. */
export const SCAN_BLOCKS_START = 32;
/** How long an instance holds the watcher; renewed with every range it commits. */
export const WATCHER_LEASE_MS = 60_000;
/** Range-end hashes kept for finding a fork point, in blocks behind the cursor. */
export const CHECKPOINT_WINDOW = 2_048n;
/** Checkpoints compared with the chain when looking for the fork point. */
export const REWIND_SEARCH = 64;
/** Block hashes asked for at once when crediting. */
export const HASH_READS_AT_ONCE = 16;
/** Deposits credited per pass at most (the next pass continues). */
export const SETTLE_BATCH = 500;
/** The longest wait between two attempts while the node fails. */
export const MAX_BACKOFF_MS = 5 * 60_000;

/** The node could not be asked: nothing is decided, the pass stops and is tried again later. */
class ChainFault extends Error {}

function must<T>(r: ChainRead<T>): T {
  if (!r.ok) throw new ChainFault(unavailableText(r.error));
  return r.value;
}

/** What an operations probe needs (readiness, a lag gauge): read from memory, no I/O. */
export interface WatcherStatus {
  /** Off without a chain or without DEPOSIT_XPUB. */
  enabled: boolean;
  /** The newest block seen and the last block read completely (null before the first pass). */
  head: bigint | null;
  cursor: bigint | null;
  /** head - cursor, in blocks; null before the first successful read of the head. */
  lagBlocks: number | null;
  /** When the last pass finished without a fault. */
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  lastError: string | null;
  /** Whether this instance held the lease in its last pass (another instance may be the watcher). */
  leader: boolean;
}

export interface PassResult {
  ran: boolean;
  /** Why it did not run to the end: off, another instance holds the lease, or an RPC fault. */
  stopped?: 'off' | 'lease' | 'fault';
  blocks: number;
  transfers: number;
  recorded: number;
  credited: number;
  dropped: number;
  rewound: boolean;
}

type Cursor = { blockNumber: bigint; blockHash: string };

/** One range read (ahead of its commit): its deposits, or why it could not be read (`fault`: a chain fault). */
type RangeRead =
  | {
      ok: true;
      from: bigint;
      to: bigint;
      toHash: string;
      rows: q.WatchedInsert[];
      /** Logs the node answered, and the USDC transfers among them. */
      logs: number;
      transfers: number;
    }
  | { ok: false; from: bigint; to: bigint; fault: string | null; error: unknown };

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

  get enabled(): boolean {
    return Boolean(this.ctx.chain && this.ctx.config.DEPOSIT_XPUB);
  }

  /** Lag in blocks (head - cursor) and the time of the last good pass, for /readyz and a gauge. */
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

  /** The background job's tick: a pass, unless backing off after RPC faults. */
  async tick(): Promise<void> {
    if (Date.now() < this.nextAttemptAt) return;
    const r = await this.pass();
    if (r.stopped === 'fault') {
      const wait = Math.min(MAX_BACKOFF_MS, this.ctx.config.DEPOSIT_CHECK_INTERVAL_MS * 2 ** this.failures);
      this.nextAttemptAt = Date.now() + wait;
      this.ctx.log.warn({ err: this.lastError, retryInMs: wait }, 'deposit watcher: chain RPC fault, backing off');
    } else if (r.recorded || r.credited || r.dropped || r.rewound) this.ctx.log.info(r, 'deposit watcher pass');
  }

  /** Lets another instance take over at once (shutdown). */
  async release(): Promise<void> {
    if (this.enabled) await q.releaseLease(this.ctx.db, DEPOSIT_WATCHER, this.owner);
  }

  /** One pass: catch up from the cursor to the head, then credit what is deep enough. */
  async pass(): Promise<PassResult> {
    const out: PassResult = {
      ran: false,
      blocks: 0,
      transfers: 0,
      recorded: 0,
      credited: 0,
      dropped: 0,
      rewound: false,
    };
    const chain = this.ctx.chain;
    if (!chain || !this.ctx.config.DEPOSIT_XPUB) return { ...out, stopped: 'off' };
    const { db } = this.ctx;
    try {
      const head = must(await chain.headBlock());
      this.head = head;
      if (!(await q.findCursor(db, DEPOSIT_WATCHER))) {
        // First start on this chain: from the head minus the confirmation depth.
        const depth = BigInt(this.ctx.config.DEPOSIT_CONFIRMATIONS);
        const start = head > depth ? head - depth : 0n;
        const hash = must(await chain.blockHash(start));
        if (!hash) throw new ChainFault(`block ${start} not found`);
        await q.createCursor(db, DEPOSIT_WATCHER, start, hash);
      }
      this.leader = await q.takeLease(db, DEPOSIT_WATCHER, this.owner, new Date(), this.leaseUntil());
      if (!this.leader) return { ...out, stopped: 'lease' };
      out.ran = true;
      const row = await q.findCursor(db, DEPOSIT_WATCHER);
      if (!row) throw new Error('watcher cursor vanished');
      let cursor: Cursor = { blockNumber: row.blockNumber, blockHash: row.blockHash };
      if (must(await chain.blockHash(cursor.blockNumber)) !== cursor.blockHash) {
        const rewound = await this.rewind(cursor, out);
        if (!rewound) return { ...out, stopped: 'lease' };
        cursor = rewound;
        out.rewound = true;
      }
      this.cursor = cursor.blockNumber;
      // Reads run up to READ_AHEAD ranges ahead; commits stay in block order, each from the exact
      // cursor the previous one left (a read that failed is retried smaller, the reads after it dropped).
      const ahead: Promise<RangeRead>[] = [];
      let nextFrom = cursor.blockNumber + 1n;
      const planAhead = () => {
        while (ahead.length < READ_AHEAD && nextFrom <= head) {
          const from = nextFrom;
          const to = this.rangeEnd(from, head);
          const read = this.readRange(from, to, head);
          read.catch(() => undefined); // an abandoned read (the pass stopped) must not be an unhandled rejection
          ahead.push(read);
          nextFrom = to + 1n;
        }
      };
      while (cursor.blockNumber < head) {
        planAhead();
        const first = ahead.shift();
        if (!first) break;
        let read = await first;
        if (!read.ok && !read.fault) throw read.error;
        if (!read.ok) {
          // Too many logs for one answer (providers' result caps, response size limits) looks like any
          // other failed read: halve the range and try again, a few times, before calling it a fault.
          ahead.length = 0;
          for (let i = 0; !read.ok && read.fault && i < RANGE_RETRIES && read.to > read.from; i++) {
            this.scanBlocks = Math.max(1, Math.floor(Number(read.to - read.from + 1n) / 2));
            read = await this.readRange(read.from, this.rangeEnd(read.from, read.to), head);
          }
          if (!read.ok) throw read.fault ? new ChainFault(read.fault) : read.error;
          nextFrom = read.to + 1n;
        }
        this.learn(Number(read.to - read.from + 1n), read.logs);
        const next = await this.commitRange(cursor, read, out);
        if (!next) return { ...out, stopped: 'lease' };
        out.blocks += Number(next.blockNumber - cursor.blockNumber);
        cursor = next;
        this.cursor = cursor.blockNumber;
      }
      await this.settle(head, out);
      this.ctx.metrics.watcherLagBlocks.set(Number(head - cursor.blockNumber));
      this.failures = 0;
      this.lastError = null;
      this.nextAttemptAt = 0;
      this.lastSuccessAt = new Date();
      return out;
    } catch (err) {
      if (!(err instanceof ChainFault)) throw err;
      this.failures++;
      this.lastError = err.message;
      return { ...out, stopped: 'fault' };
    }
  }

  private leaseUntil(): Date {
    return new Date(Date.now() + WATCHER_LEASE_MS);
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
   * Reads one range: its Transfer logs, the hash of its last block, and the deposits among them (read-only,
   * so ranges can be read ahead). Never rejects for a chain fault: that is a value, for the caller to retry.
   */
  private async readRange(from: bigint, to: bigint, head: bigint): Promise<RangeRead> {
    const chain = this.ctx.chain;
    try {
      if (!chain) throw new Error('the watcher has no chain');
      const logs = must(await chain.usdcTransfers(from, to));
      const transfers = logs.filter((l) => l.usdc && l.value > 0n);
      const toHash = must(await chain.blockHash(to));
      if (!toHash) throw new ChainFault(`block ${to} not found`);
      // The chain changed under the read: read the range again next pass.
      if (transfers.some((l) => l.blockNumber === to && l.blockHash !== toHash))
        throw new ChainFault(`block ${to} changed while it was read`);
      const rows = await this.depositsIn(transfers, head);
      return { ok: true, from, to, toHash, rows, logs: logs.length, transfers: transfers.length };
    } catch (err) {
      return { ok: false, from, to, fault: err instanceof ChainFault ? err.message : null, error: err };
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
      await q.addCheckpoint(tx, DEPOSIT_WATCHER, read.to, read.toHash, read.to - CHECKPOINT_WINDOW);
      return next;
    });
    if (moved) out.recorded += read.rows.length;
    return moved;
  }

  /** The logs that are deposits: to an investor's address, from the block it was handed out on. */
  async depositsIn(logs: TransferLog[], head: bigint): Promise<q.WatchedInsert[]> {
    const owners = await ownersOf(this.ctx.db, [...new Set(logs.map((l) => l.to))]);
    if (owners.length === 0) return [];
    const byAddress = new Map(owners.map((o) => [o.address, o]));
    const now = this.ctx.clock.now();
    return logs.flatMap((l) => {
      const o = byAddress.get(l.to);
      if (!o || (o.fromBlock !== null && l.blockNumber < o.fromBlock)) return [];
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

  /** Counts confirmations and credits the deposits deep enough whose block is still on the chain. */
  async settle(head: bigint, out: PassResult): Promise<void> {
    const chain = this.ctx.chain;
    if (!chain) return;
    const { db } = this.ctx;
    await q.countConfirmations(db, head);
    const required = BigInt(this.ctx.config.DEPOSIT_CONFIRMATIONS);
    const deepest = required === 0n ? head : head - required + 1n;
    const due = await q.pendingWatchedUpTo(db, deepest, SETTLE_BATCH);
    // The blocks' hashes now, a few requests at a time (one round trip per block was most of a catch-up's credit).
    const canonical = new Map<bigint, string | null>();
    const blocks = [...new Set(due.map((d) => d.blockNumber ?? -1n))].filter((n) => n >= 0n);
    for (let i = 0; i < blocks.length; i += HASH_READS_AT_ONCE) {
      const batch = blocks.slice(i, i + HASH_READS_AT_ONCE);
      const hashes = await Promise.all(batch.map((n) => chain.blockHash(n)));
      batch.forEach((n, j) => canonical.set(n, must(hashes[j] as ChainRead<string | null>)));
    }
    const deep = due.filter((d) => d.blockNumber !== null && canonical.get(d.blockNumber) === d.blockHash);
    for (const d of due) if (!deep.includes(d) && (await this.recheck(d)) === 'dropped') out.dropped++;
    const credited = await inTransaction(db, (tx) =>
      confirmAndCreditMany(
        this.ctx,
        tx,
        deep.map((d) => d.id),
        { processedAt: this.ctx.clock.now(), head },
      ),
    );
    out.credited += credited.length;
  }

  /**
   * A pending deposit whose block left the chain: found again in another block (moved there), or
   * failed as dropped by the re-organisation, never credited.
   */
  async recheck(d: DepositRow): Promise<'moved' | 'dropped' | 'unchanged'> {
    const chain = this.ctx.chain;
    if (!chain || !d.txHash) return 'unchanged';
    const r = must(await chain.receipt(d.txHash));
    const again =
      r.found && r.status === 'success'
        ? r.transfers.find((t) => t.usdc && t.to === d.toAddress && t.from === d.fromAddress && t.value === d.amount)
        : undefined;
    const now = this.ctx.clock.now();
    return inTransaction(this.ctx.db, async (tx) => {
      const locked = await dq.lockDeposit(tx, d.id);
      if (!locked || locked.status !== 'pending') return 'unchanged';
      if (again) {
        try {
          await dq.updateDeposit(tx, d.id, {
            blockNumber: again.blockNumber,
            blockHash: again.blockHash,
            logIndex: again.logIndex,
          });
          return 'moved';
        } catch (err) {
          if (!(sqlState(err) === '23505' && constraintName(err) === 'deposits_tx_log_key')) throw err;
        }
      }
      await dq.updateDeposit(tx, d.id, {
        status: 'failed',
        failureReason: MSG.depositDroppedByReorg,
        processedAt: now,
      });
      this.ctx.log.warn({ depositId: d.id, txHash: d.txHash }, 'deposit dropped by a chain re-organisation');
      return 'dropped';
    });
  }

  /** Walks back to the newest checkpoint still on the chain, re-checks what was read above it, moves the cursor there. */
  private async rewind(cursor: Cursor, out: PassResult): Promise<Cursor | null> {
    const chain = this.ctx.chain;
    if (!chain) return null;
    const { db } = this.ctx;
    let fork: Cursor | null = null;
    const checkpoints = await q.checkpointsBelow(db, DEPOSIT_WATCHER, cursor.blockNumber - 1n, REWIND_SEARCH);
    for (const cp of checkpoints) {
      if (must(await chain.blockHash(cp.blockNumber)) === cp.blockHash) {
        fork = { blockNumber: cp.blockNumber, blockHash: cp.blockHash };
        break;
      }
    }
    if (!fork) {
      const oldest = checkpoints.at(-1)?.blockNumber ?? cursor.blockNumber;
      const n = oldest > 0n ? oldest - 1n : 0n;
      const hash = must(await chain.blockHash(n));
      if (!hash) throw new ChainFault(`block ${n} not found`);
      fork = { blockNumber: n, blockHash: hash };
      this.ctx.log.error({ from: cursor.blockNumber, to: n }, 'chain re-organisation deeper than the checkpoints kept');
    }
    for (const d of await q.pendingWatchedAbove(db, fork.blockNumber))
      if ((await this.recheck(d)) === 'dropped') out.dropped++;
    const target = fork;
    const ok = await inTransaction(db, async (tx) => {
      const moved = await q.advanceCursor(
        tx,
        DEPOSIT_WATCHER,
        this.owner,
        cursor,
        target,
        this.ctx.clock.now(),
        this.leaseUntil(),
      );
      if (moved) await q.dropCheckpointsAbove(tx, DEPOSIT_WATCHER, target.blockNumber);
      return moved;
    });
    this.ctx.log.warn({ from: cursor.blockNumber, to: target.blockNumber }, 'chain re-organisation: watcher rewound');
    return ok ? target : null;
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
