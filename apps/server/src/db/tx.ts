import type { Db, Tx } from './client.ts';

const RETRYABLE = new Set(['40001', '40P01']);

function pgCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    if ('code' in e && typeof e.code === 'string') return e.code;
    e = 'cause' in e ? e.cause : undefined;
  }
  return undefined;
}

/** Postgres error code of a (possibly wrapped) driver error. */
export function sqlState(err: unknown): string | undefined {
  return pgCode(err);
}

export function constraintName(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    if ('constraint' in e && typeof e.constraint === 'string') return e.constraint;
    e = 'cause' in e ? e.cause : undefined;
  }
  return undefined;
}

/** A request's Idempotency-Key: committed inside the transaction that moves its money, or not at all. */
export interface OnceKey {
  committed: boolean;
  commit(tx: Tx): Promise<void>;
}

/**
 * One database transaction for one business change. Deadlocks and serialization failures
 * are retried a few times; any other error rolls back and propagates. With the request's
 * Idempotency-Key (`key`, not yet committed) the key commits in this same transaction.
 */
export async function inTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>, key?: OnceKey | null): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await db.transaction(async (tx) => {
        // The key commits with the money it moves, or not at all: a crash can never leave a
        // key whose effect happened but is not recorded.
        if (key && !key.committed) await key.commit(tx);
        return fn(tx);
      });
      if (key) key.committed = true;
      return result;
    } catch (err) {
      if (attempt < 4 && RETRYABLE.has(pgCode(err) ?? '')) continue;
      throw err;
    }
  }
}
