import type { z } from 'zod';

const TOKEN_KEY = 'token';

export const tokenStore = {
  get: (): string | null => localStorage.getItem(TOKEN_KEY),
  set: (t: string) => localStorage.setItem(TOKEN_KEY, t),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/** A failed call: status and the server's error text when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | null,
  ) {
    super(serverMessage ?? `Request failed (${status})`);
  }
}

/** The server's text when present, otherwise the spec's fallback for this action. */
export function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.serverMessage ? err.serverMessage : fallback;
}

let onBlocked: () => void = () => undefined;
/** Called whenever a 403 reply mentions 'blocked' (spec section 4). */
export function setBlockedHandler(fn: () => void) {
  onBlocked = fn;
}

/**
 * Calls the API and checks the answer against the shared contract's response schema, so a
 * server that drifted from the contract fails loudly here rather than deep in a screen.
 */
export async function api<S extends z.ZodType>(
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
    const message =
      data && typeof data === 'object' && 'error' in data && typeof data.error === 'string' ? data.error : null;
    if (res.status === 403 && message?.toLowerCase().includes('blocked')) onBlocked();
    throw new ApiError(res.status, message);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(res.status, null);
  return parsed.data;
}
