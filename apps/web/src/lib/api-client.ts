import * as z from 'zod/mini';
import type { ErrorCode } from '@harvest/shared/errors';
import { errorResponse } from '@harvest/shared/schemas/common';

const TOKEN_KEY = 'token';

export const tokenStore = {
  get: (): string | null => localStorage.getItem(TOKEN_KEY),
  set: (t: string) => localStorage.setItem(TOKEN_KEY, t),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/**
 * A failed call: status, the server's error text when it sent one (people read it) and its
 * stable code (screens switch on it). Status 0 and code null: the server was not reached.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | null,
    readonly code: ErrorCode | null = null,
  ) {
    super(serverMessage ?? `Request failed (${status})`);
  }
}

/** The error a failed response carries, read against the shared contract. */
export function apiErrorOf(status: number, data: unknown): ApiError {
  const parsed = z.safeParse(errorResponse, data);
  return parsed.success ? new ApiError(status, parsed.data.error, parsed.data.code) : new ApiError(status, null);
}

/** The call failed with this stable code. */
export function hasCode(err: unknown, code: ErrorCode): boolean {
  return err instanceof ApiError && err.code === code;
}

/** The server's text when present, otherwise the spec's fallback for this action. */
export function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.serverMessage ? err.serverMessage : fallback;
}

let onBlocked: () => void = () => undefined;
/** Called whenever a reply has the code `blocked` (spec section 4: a 403 that says the account is blocked). */
export function setBlockedHandler(fn: () => void) {
  onBlocked = fn;
}

/**
 * Calls the API and checks the answer against the shared contract's response schema, so a
 * server that drifted from the contract fails loudly here rather than deep in a screen.
 */
export async function api<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  opts: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<z.infer<S>> {
  const token = tokenStore.get();
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (token && !['/login', '/register', '/send-code'].includes(path)) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  } catch {
    throw new ApiError(0, null);
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = apiErrorOf(res.status, data);
    if (err.code === 'blocked') onBlocked();
    throw err;
  }
  const parsed = z.safeParse(schema, data);
  if (!parsed.success) throw new ApiError(res.status, null);
  return parsed.data;
}
