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
 * Never settles: what a repeated press gets, so nothing after its `await` (a toast, a close) runs twice. A new
 * one each time: nothing keeps it, so it and the caller waiting on it are collected.
 */
const never = () => new Promise<never>(() => undefined);

/**
 * A mutation that moves money or decides something: each user action gets one Idempotency-Key, kept
 * while the action is retried after a network error (so a request that did reach the server is not
 * done twice) and dropped once the server answered, or when the action's input changes (`scope`).
 *
 * A second press of the same action while the first is on its way (a double click lands before the button
 * turns disabled) is the same press: nothing is sent again, and its promise never settles, so the caller's
 * toast appears once per effect.
 */
export function useIdempotentMutation<V, R>(
  send: (vars: V, idempotencyKey: string) => Promise<R>,
  scope: (vars: V) => string,
  options: Omit<UseMutationOptions<R, unknown, V>, 'mutationFn'> = {},
) {
  const current = useRef<{ scope: string; key: string } | null>(null);
  const inFlight = useRef(new Set<string>());
  const mutation = useMutation<R, unknown, V>({
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
  const { mutateAsync } = mutation;
  return {
    ...mutation,
    mutateAsync: (vars: V): Promise<R> => {
      const s = scope(vars);
      if (inFlight.current.has(s)) return never();
      inFlight.current.add(s);
      return mutateAsync(vars).finally(() => inFlight.current.delete(s));
    },
    mutate: (vars: V, opts?: Parameters<typeof mutation.mutate>[1]) => {
      const s = scope(vars);
      if (inFlight.current.has(s)) return;
      inFlight.current.add(s);
      mutation.mutate(vars, {
        ...opts,
        onSettled: (...args) => {
          inFlight.current.delete(s);
          return opts?.onSettled?.(...args);
        },
      });
    },
  };
}
