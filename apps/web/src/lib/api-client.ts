import * as z from 'zod/mini';
import { ERROR_CODES, type ErrorCode } from '@harvest/shared/errors';
import type { Params } from '@harvest/shared/said';
import { paramsSchema } from '@harvest/shared/schemas/common';
import { TEXT } from '@harvest/shared/texts';
import { known } from './i18n.tsx';
import { sayServer } from './server-text.ts';

const TOKEN_KEY = 'token';

export const tokenStore = {
  key: TOKEN_KEY,
  get: (): string | null => localStorage.getItem(TOKEN_KEY),
  set: (t: string) => localStorage.setItem(TOKEN_KEY, t),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/**
 * A failed call: status, the server's error text when it sent one (people read it), its stable code (screens
 * switch on it) and, for a text with values, its template and values. Status 0 and code null: the server was not
 * reached.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | null,
    readonly code: ErrorCode | null = null,
    readonly said: { template: string; params: Params } | null = null,
    /** The request body's property it is about, when the server named one. */
    readonly field: string | null = null,
    /** How long the server asked to wait before the next try (its Retry-After), 0 when it did not say. */
    readonly retryAfterMs = 0,
  ) {
    super(serverMessage ?? `Request failed (${status})`);
  }
}

/**
 * What a failed response says: the text whenever there is one (spec section 8: "the server's error text is
 * shown when present"), and the contract's code when it is one of ours. A proxy or an older server may send
 * `{ "error": "..." }` without a code; that text is still what people read.
 */
const errorBody = z.object({
  error: z.string(),
  code: z.optional(z.string()),
  field: z.optional(z.string()),
  template: z.optional(z.string()),
  params: z.optional(paramsSchema),
});
const isCode = (c: string | undefined): c is ErrorCode => (ERROR_CODES as readonly string[]).includes(c ?? '');

/** The error a failed response carries; `retryAfter` is its Retry-After header (seconds), if any. */
export function apiErrorOf(status: number, data: unknown, retryAfter: string | null = null): ApiError {
  const wait = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : 0;
  const parsed = z.safeParse(errorBody, data);
  if (!parsed.success) return new ApiError(status, null, null, null, null, wait);
  const { error, code, field, template, params } = parsed.data;
  const said = template && params ? { template, params } : null;
  return new ApiError(status, error.trim() || null, isCode(code) ? code : null, said, field ?? null, wait);
}

/** The call failed about this property of its request body (the server named it). */
export const isAbout = (err: unknown, field: string): boolean => err instanceof ApiError && err.field === field;

/** The call failed with this stable code. */
export function hasCode(err: unknown, code: ErrorCode): boolean {
  return err instanceof ApiError && err.code === code;
}

/** A database's duplicate-key report (MongoDB's E11000, SQL's "duplicate key") about an e-mail address. */
const DUPLICATE_EMAIL = (text: string) => /duplicate|E11000/i.test(text) && /email/i.test(text);

/**
 * The server's text when present, otherwise the spec's fallback for this action. Whatever the call, a
 * duplicate-key text about the e-mail reads as the spec's 'Email already exists...' (spec section 8).
 */
export function errorText(err: unknown, fallback: string): string {
  const server = err instanceof ApiError && err.serverMessage ? err.serverMessage : null;
  if (DUPLICATE_EMAIL(server ?? fallback)) return known(TEXT.emailExists);
  if (!server || !(err instanceof ApiError)) return known(fallback);
  // In the person's language, with its values (server-text.ts).
  return sayServer({ text: server, code: err.code, ...err.said });
}

let onBlocked: () => void = () => undefined;
/** Called whenever a reply has the code `blocked` (spec section 4: a 403 that says the account is blocked). */
export function setBlockedHandler(fn: () => void) {
  onBlocked = fn;
}

let onSessionEnded: (notice: string) => void = () => undefined;
/**
 * Called when a call that needs the session answers 401 (expired, logged out here or in another tab, password
 * changed, signed out from another device), with what the sign-in page says: the session is over, whatever screen
 * asked, polls included. A network error is not a 401 and ends nothing; neither does a wrong password on a form
 * (its own code).
 */
export function setSessionEndedHandler(fn: (notice: string) => void) {
  onSessionEnded = fn;
}

/**
 * Calls the API and checks the answer against the shared contract's response schema, so a
 * server that drifted from the contract fails loudly here rather than deep in a screen.
 */
export async function api<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  opts: { method?: string; body?: unknown; headers?: Record<string, string>; idempotencyKey?: string } = {},
): Promise<z.infer<S>> {
  const token = tokenStore.get();
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  const needsSession = !['/login', '/register', '/send-code', '/passkey-login', '/passkey-login/options'].includes(
    path,
  );
  if (token && needsSession) headers.authorization = `Bearer ${token}`;
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
    const err = apiErrorOf(res.status, data, res.headers.get('retry-after'));
    if (err.code === 'blocked') onBlocked();
    // A session refused, or gone (another tab signed out and took the token): a wrong password on a form is a
    // 401 too, with its own code, and ends nothing.
    else if (needsSession && res.status === 401 && (err.code === 'unauthorized' || err.code === 'session_expired'))
      onSessionEnded(TEXT.sessionExpired);
    else if (needsSession && res.status === 401 && err.code === 'session_revoked')
      onSessionEnded(TEXT.sessionEndedElsewhere);
    throw err;
  }
  const parsed = z.safeParse(schema, data);
  if (!parsed.success) throw new ApiError(res.status, null);
  return parsed.data;
}
