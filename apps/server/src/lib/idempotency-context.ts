import { AsyncLocalStorage } from 'node:async_hooks';

/** The Idempotency-Key of the request being handled, visible to the database transaction it runs. */
export interface IdempotencyContext {
  userId: string;
  key: string;
  committed: boolean;
}

export const idempotencyStore = new AsyncLocalStorage<IdempotencyContext>();
