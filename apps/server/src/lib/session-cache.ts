import { randomBytes } from 'node:crypto';
import type { Database, NotifyLink } from '../db/client.ts';
import type { SessionCacheStats } from './metrics.ts';

/**
 * The session cache (docs/decisions/0054-session-cache.md): users rows read by the auth hook, kept in
 * this process so that an authenticated request needs no database round trip, with revocation (block,
 * logout, password change) still taking effect at once on every instance.
 *
 * - Invalidation: a trigger on users (migration 0014) sends the changed ids on channel hf_sessions
 *   after every statement that changes rows; each instance LISTENs on its own connection and drops
 *   them. A read that was under way while a row was dropped does not fill the cache (`epoch`).
 * - Health: each instance sends itself a heartbeat on the channel every BEAT_MS, stamped with its
 *   monotonic clock. The cache answers only while the LISTEN is up and the newest heartbeat received
 *   was sent less than LEASE_MS ago; otherwise every request reads the database, as before.
 * - Instant across instances (`settle`): after a write to users, the writer sends a barrier on the
 *   channel and waits until every instance that heartbeat in the last 2 LEASE_MS has answered it, or
 *   LEASE_MS at most. Notifications arrive in commit order, so an instance that answered has dropped
 *   the rows; one that did not answer in LEASE_MS has not received a heartbeat sent after the write
 *   committed, so its cache has stopped answering by then. Either way, when the writer's response
 *   leaves, no instance can admit a revoked token from memory. In its first lease after (re)connecting an
 *   instance may not have heard every peer yet, so its barriers then last the whole lease. On PGlite (one
 *   process) every listener has the change before the commit returns: no barrier is needed.
 */

export const SESSION_CHANNEL = 'hf_sessions';
const BEAT_MS = 250;
const LEASE_MS = 1_000;
/** A row is read from the database again after this long, whatever the notifications said. */
const MAX_AGE_MS = 60_000;
const MAX_ROWS = 20_000;

const now = () => performance.now();

export class SessionCache<Row extends { id: string }> {
  private readonly rows = new Map<string, { row: Row; at: number }>();
  private readonly me = randomBytes(6).toString('hex');
  private link: NotifyLink | null = null;
  private live = false;
  /** Send time (own clock) of the newest own heartbeat received since the LISTEN came up. */
  private lastBeat = -Infinity;
  /** When the LISTEN last came up (own clock). */
  private upSince = Infinity;
  /** Other instances: when their last heartbeat arrived (own clock). */
  private readonly peers = new Map<string, number>();
  /** Changes each time rows are dropped: a read started before cannot fill the cache. */
  private epoch = 0;
  private barriers = 0;
  private readonly waiting = new Map<string, { left: Set<string> | null; done: () => void }>();
  private timer: NodeJS.Timeout | null = null;
  private hits = 0;
  private misses = 0;

  start(database: Database): void {
    this.link = database.listen(SESSION_CHANNEL, {
      message: (payload) => this.onMessage(payload),
      up: () => this.reset(true),
      down: () => this.reset(false),
    });
    this.timer = setInterval(() => this.beat(), BEAT_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.link?.close();
    this.link = null;
    for (const w of this.waiting.values()) w.done();
  }

  /** The cached row, only while the cache may answer (see above). */
  get(id: string): Row | undefined {
    if (!this.healthy()) return undefined;
    const hit = this.rows.get(id);
    if (!hit) {
      this.misses++;
      return undefined;
    }
    if (now() - hit.at > MAX_AGE_MS) {
      this.rows.delete(id);
      this.misses++;
      return undefined;
    }
    this.hits++;
    return hit.row;
  }

  /** Call before reading a row from the database; hand the token to `fill` with what was read. */
  begin(): number {
    return this.epoch;
  }

  fill(token: number, row: Row | undefined): void {
    if (!row || token !== this.epoch || !this.live) return;
    if (this.rows.size >= MAX_ROWS && !this.rows.has(row.id)) {
      const oldest = this.rows.keys().next().value;
      if (oldest !== undefined) this.rows.delete(oldest);
    }
    this.rows.set(row.id, { row, at: now() });
  }

  /**
   * Resolves once no instance can still answer from a copy of a users row changed by a transaction
   * that committed before this call. For the writes whose effect must be seen at once everywhere.
   */
  async settle(): Promise<void> {
    const link = this.link;
    // Every listener in the process applied the change before its commit returned (PGlite).
    if (link?.deliveredAtCommit) return;
    if (!link || !this.live) return sleep(LEASE_MS);
    const id = `${this.me}:${++this.barriers}`;
    await new Promise<void>((resolve) => {
      const timeout = setTimeout(finish, LEASE_MS + 50);
      const waiter = { left: null as Set<string> | null, done: finish };
      function finish() {
        clearTimeout(timeout);
        resolve();
      }
      this.waiting.set(id, waiter);
      link.send(`sync:${id}`).catch(() => undefined);
    });
    this.waiting.delete(id);
  }

  stats(): SessionCacheStats {
    return { hits: this.hits, misses: this.misses, rows: this.rows.size, healthy: this.healthy() };
  }

  private healthy(): boolean {
    return this.live && now() - this.lastBeat < LEASE_MS;
  }

  private beat(): void {
    if (this.live) this.link?.send(`hb:${this.me}:${now()}`).catch(() => undefined);
    const stale = now() - 2 * LEASE_MS;
    for (const [peer, at] of this.peers) if (at < stale) this.peers.delete(peer);
  }

  /** The LISTEN came up (again) or went down: whatever was missed meanwhile is unknown, so drop it all. */
  private reset(up: boolean): void {
    this.live = up;
    this.lastBeat = -Infinity;
    if (up) this.upSince = now();
    this.dropAll();
    // Barriers under way are not released: their timeout (a lease) is what makes them safe now.
  }

  private dropAll(): void {
    this.rows.clear();
    this.epoch++;
  }

  private onMessage(payload: string): void {
    const colon = payload.indexOf(':');
    const kind = colon < 0 ? payload : payload.slice(0, colon);
    const rest = payload.slice(colon + 1);
    switch (kind) {
      case 'u':
        for (const id of rest.split(',')) this.rows.delete(id);
        this.epoch++;
        return;
      case '*':
        this.dropAll();
        return;
      case 'hb': {
        const [from, sent] = rest.split(':');
        if (from === this.me) this.lastBeat = Math.max(this.lastBeat, Number(sent));
        else if (from) this.peers.set(from, now());
        return;
      }
      case 'sync': {
        // rest = "<writer>:<n>": everything committed before it has been applied here.
        const [from] = rest.split(':');
        if (from === this.me) {
          const w = this.waiting.get(rest);
          if (!w) return;
          w.left = new Set(this.peers.keys());
          // Listening for less than a lease, this instance may not have heard every healthy peer's heartbeat
          // yet: the barrier then ends by its timeout, never early.
          if (now() - this.upSince < LEASE_MS) w.left.add('(not heard yet)');
          if (w.left.size === 0) w.done();
        } else this.link?.send(`ack:${rest}:${this.me}`).catch(() => undefined);
        return;
      }
      case 'ack': {
        // rest = "<writer>:<n>:<acker>"
        const last = rest.lastIndexOf(':');
        const w = this.waiting.get(rest.slice(0, last));
        if (!w?.left) return;
        w.left.delete(rest.slice(last + 1));
        if (w.left.size === 0) w.done();
        return;
      }
      default:
        // Unknown messages are ignored; being unsure drops everything.
        this.dropAll();
    }
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
