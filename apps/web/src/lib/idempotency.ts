import { useRef } from 'react';
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** A fresh Idempotency-Key (docs/decisions/0013): 128 random bits. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The server never answered (status 0): the same action may be sent again with the same key. */
const unanswered = (err: unknown) => err instanceof ApiError && err.status === 0;

/**
 * A mutation that moves money or decides something: each user action gets one Idempotency-Key, kept
 * while the action is retried after a network error (so a request that did reach the server is not
 * done twice) and dropped once the server answered, or when the action's input changes (`scope`).
 */
export function useIdempotentMutation<V, R>(
  send: (vars: V, idempotencyKey: string) => Promise<R>,
  scope: (vars: V) => string,
  options: Omit<UseMutationOptions<R, unknown, V>, 'mutationFn'> = {},
) {
  const current = useRef<{ scope: string; key: string } | null>(null);
  return useMutation<R, unknown, V>({
    ...options,
    mutationFn: (vars) => {
      const s = scope(vars);
      if (!current.current || current.current.scope !== s) current.current = { scope: s, key: newIdempotencyKey() };
      return send(vars, current.current.key);
    },
    onSettled: (data, err, vars, ctx, mctx) => {
      if (!unanswered(err)) current.current = null;
      return options.onSettled?.(data, err, vars, ctx, mctx);
    },
  });
}
