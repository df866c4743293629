import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MSG } from '@harvest/shared/messages';
import type { Db } from '../db/client.ts';
import type { OnceKey } from '../db/tx.ts';
import { AppError } from '../lib/errors.ts';
import type { Clock } from '../lib/clock.ts';
import * as q from './idempotency.queries.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Money-moving call: honours the Idempotency-Key header. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The claimed Idempotency-Key of a money-moving call: its route hands it to the service. */
    idempotency: ClaimedKey | null;
  }
}

/** A claimed Idempotency-Key: the service passes it to the `inTransaction` that moves the money. */
export interface ClaimedKey extends OnceKey {
  userId: string;
  key: string;
}

/** Its `commit` marks the key committed in the caller's transaction; a key no longer running is 409. */
function claimedKey(userId: string, key: string): ClaimedKey {
  return {
    userId,
    key,
    committed: false,
    async commit(tx) {
      if (!(await q.markKeyCommitted(tx, userId, key)))
        throw new AppError('idempotency_in_progress', MSG.idempotencyBusy);
    },
  };
}

const TTL_MS = 24 * 60 * 60 * 1000;
/** A running request that has not committed within this time died; a retry may take over (IDEMPOTENCY_LEASE_MS). */
const DEFAULT_LEASE_MS = 60 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Fields that hold secrets (passwords, codes, tokens): left out of the fingerprint and of the
 * stored answer, so the idempotency table never holds anything that can be cracked offline.
 */
const SECRET_FIELD = /password|code$|^code|token|secret|otpauth/i;

/** The value without its secret fields, at any depth. */
export function withoutSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutSecrets);
  if (v && typeof v === 'object' && typeof v !== 'bigint')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !SECRET_FIELD.test(k))
        .map(([k, x]) => [k, withoutSecrets(x)]),
    );
  return v;
}

/**
 * An answer as it is stored for replays: without secret fields, but an error answer keeps its `code`
 * (`{ error, code }`: the stable error code clients switch on, not a secret), so a replay is the same answer.
 */
function storedAnswer(answer: unknown): unknown {
  const clean = withoutSecrets(answer);
  if (answer && typeof answer === 'object' && 'error' in answer && 'code' in answer && typeof answer.code === 'string')
    return Object.assign({}, clean, { code: answer.code });
  return clean;
}

/** Canonical text of the validated body (key order and amount spelling do not matter). */
function stableJson(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.entries(v)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Idempotency-Key on money-moving calls (docs/decisions/0013): scoped per user, kept 24 h.
 * Same key and body: the first answer again. Same key, other body: 422. While the first is
 * still running: 409. The route hands the claimed key (`request.idempotency`) to its service,
 * which passes it to the `inTransaction` that moves the money (db/tx.ts): the key is marked
 * committed inside that business transaction, so after a crash a retry either re-runs safely
 * (nothing committed) or is told the request was already processed; it never runs the money
 * movement twice.
 */
export function registerIdempotency(
  app: FastifyInstance,
  db: Db,
  clock: Clock,
  /** The server secrets (serverSecrets): the first keys new fingerprints; all are recognised during a rotation. */
  secrets: string[],
  leaseMs = DEFAULT_LEASE_MS,
): void {
  app.decorateRequest('idempotency', null);

  // Only the money-moving routes get the hooks: every other request (the hot reads) skips two
  // asynchronous hooks it has no use for.
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...hooksOf(route.preHandler), claimKey];
    route.onSend = [...hooksOf(route.onSend), storeAnswer];
  });

  async function claimKey(request: FastifyRequest, reply: FastifyReply) {
    const raw = request.headers['idempotency-key'];
    if (raw === undefined) return;
    if (typeof raw !== 'string' || !KEY.test(raw)) throw new AppError('validation', MSG.idempotencyKeyInvalid);
    const user = request.user;
    if (!user) return;
    const now = clock.now();
    // Keyed with the server secret and without the secret fields: the stored fingerprint of a
    // Withdraw All cannot be used to test guesses of its withdrawal password offline.
    const text = `idempotency\n${request.method} ${request.routeOptions.url}\n${stableJson(withoutSecrets(request.body ?? null))}`;
    const fingerprints = secrets.map((s) => createHmac('sha256', s).update(text).digest('hex'));
    const requestHash = fingerprints[0] ?? '';
    await q.deleteExpiredKey(db, user.id, raw, now);
    const inserted = await q.insertRunningKey(db, {
      userId: user.id,
      key: raw,
      route: request.routeOptions.url ?? '',
      requestHash,
      now,
      expiresAt: new Date(now.getTime() + TTL_MS),
    });
    if (inserted) {
      request.idempotency = claimedKey(user.id, raw);
      return;
    }
    const row = await q.findKey(db, user.id, raw);
    if (!row) throw new AppError('idempotency_in_progress', MSG.idempotencyBusy);
    // A retry that reaches an instance a key rotation has moved on (or not yet) is still the same request.
    if (!fingerprints.includes(row.requestHash)) throw new AppError('idempotency_mismatch', MSG.idempotencyMismatch);
    if (row.status === 'done' && row.responseStatus !== null) {
      return reply
        .status(row.responseStatus)
        .header('idempotent-replayed', 'true')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(row.responseBody));
    }
    if (row.status === 'committed') {
      // Its money moved but its answer was not stored (a parallel retry, or the process died
      // first). Sent pre-serialised: the route's response schema describes the full answer.
      return reply
        .status(200)
        .header('idempotent-replayed', 'true')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ message: MSG.idempotencyReplayed }));
    }
    // Running: still in progress, unless its lease ran out (the process died before committing).
    if (!(await q.takeOverStaleKey(db, user.id, raw, now, leaseMs)))
      throw new AppError('idempotency_in_progress', MSG.idempotencyStillRunning);
    request.idempotency = claimedKey(user.id, raw);
  }

  async function storeAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const ctx = request.idempotency;
    if (!ctx) return payload;
    request.idempotency = null;
    if (reply.statusCode >= 500 && !ctx.committed) {
      // Nothing happened: the key is free for a retry.
      await q.deleteRunningKey(db, ctx.userId, ctx.key);
      return payload;
    }
    let body: unknown = null;
    try {
      body = typeof payload === 'string' ? storedAnswer(JSON.parse(payload)) : null;
    } catch {
      body = null;
    }
    await q.storeAnswer(db, ctx.userId, ctx.key, reply.statusCode, body);
    return payload;
  }
}

/** A route's hooks of one kind as a list (Fastify takes one function or an array). */
function hooksOf<T>(h: T | T[] | undefined): T[] {
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}
