import { randomUUID } from 'node:crypto';
import { NOT_ME_LINK_TTL_MS } from '@harvest/shared/constants';
import type { Session } from '@harvest/shared/schemas/security';
import { NEW_DEVICE, SECURITY_DETAIL, WITH_A_PASSKEY } from '@harvest/shared/security-texts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { deviceKey, deviceName } from '../../lib/device.ts';
import { notFound } from '../../lib/errors.ts';
import { queueMail } from '../../mail/outbox.ts';
import type { AuthUser, Client } from '../../plugins/auth.ts';
import { createLink } from '../account-links/account-links.service.ts';
import { recordSecurityEvent } from '../security-events/security-events.queries.ts';
import { bumpTokenVersion } from '../users/users.queries.ts';
import { countPasskeys } from '../passkeys/passkeys.queries.ts';
import * as q from './sessions.queries.ts';

/** Where a sign-in comes from: its address, user agent and the id its browser keeps (optional). */
export interface SignInClient {
  ip: string;
  userAgent?: string | undefined;
  deviceId?: string | undefined;
}

const ttlMs = (ctx: AppContext) => ctx.config.JWT_TTL_SECONDS * 1000;

/**
 * A new session for a sign-in: its row, the device remembered for the account, a `sign_in` event, and, when
 * the account has signed in before but never from this device, the new-device e-mail with a "this wasn't me"
 * link (all in one transaction). A password sign-in from a new device on an account that has a passkey is recorded as
 * such too (the passkey would not have needed the password). Answers the session's token.
 */
export async function startSession(
  ctx: AppContext,
  user: AuthUser,
  client: SignInClient,
  mfa: boolean,
  via: 'password' | 'passkey' = 'password',
): Promise<{ token: string; sessionId: string }> {
  const now = ctx.clock.now();
  const id = randomUUID();
  const device = deviceName(client.userAgent);
  const key = deviceKey(ctx.secret, client);
  await inTransaction(ctx.db, async (tx) => {
    // An account with no device on record (a new one, or one from before sessions existed) has nothing to compare with.
    const known = await q.hasDevices(tx, user.id);
    const isNew = (await q.rememberDevice(tx, user.id, key, now)) && known;
    await q.insertSession(tx, {
      id,
      userId: user.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + ttlMs(ctx)),
      ip: client.ip,
      device,
      deviceKey: key,
    });
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'sign_in',
      at: now,
      ip: client.ip,
      device,
      detail: isNew ? NEW_DEVICE : via === 'passkey' ? WITH_A_PASSKEY : null,
    });
    if (isNew && via === 'password' && (await countPasskeys(tx, user.id)) > 0)
      await recordSecurityEvent(tx, {
        userId: user.id,
        type: 'password_sign_in_new_device',
        at: now,
        ip: client.ip,
        device,
      });
    if (isNew) {
      const notMeUrl = await createLink(tx, ctx, {
        userId: user.id,
        kind: 'not_me',
        targetId: id,
        ttlMs: NOT_ME_LINK_TTL_MS,
      });
      await queueMail(tx, ctx, user.id, { kind: 'new_device_sign_in', ip: client.ip, device, notMeUrl, at: now });
    }
  });
  return { sessionId: id, token: await ctx.tokens.sign({ sub: user.id, sid: id, tv: user.tokenVersion, mfa }) };
}

/**
 * A fresh token for the same session (after the token version moved: a password change, the second factor on or
 * off); the session's expiry follows the new token's, in the caller's transaction.
 */
export async function reissue(
  tx: Db,
  ctx: AppContext,
  o: { userId: string; sessionId: string; tokenVersion: number; mfa: boolean },
): Promise<string> {
  await q.extendSession(tx, o.sessionId, new Date(ctx.clock.now().getTime() + ttlMs(ctx)));
  return ctx.tokens.sign({ sub: o.userId, sid: o.sessionId, tv: o.tokenVersion, mfa: o.mfa });
}

/**
 * Ends every session of the user (a block, a password change but the session making it, "this wasn't me", an
 * administrator): the rows are marked and the token version moves, in the caller's transaction. Answers how many
 * live sessions ended.
 */
export async function revokeAllSessions(
  tx: Db,
  ctx: AppContext,
  userId: string,
  except?: string,
): Promise<{ ended: number; tokenVersion: number }> {
  const ended = await q.revokeSessions(tx, userId, ctx.clock.now(), except);
  const updated = await bumpTokenVersion(tx, userId);
  if (!updated) throw notFound();
  return { ended, tokenVersion: updated.tokenVersion };
}

const toDto = (r: q.SessionRow, current: string | null): Session => ({
  _id: r.id,
  current: r.id === current,
  createdAt: r.createdAt.toISOString(),
  lastSeenAt: r.lastSeenAt.toISOString(),
  ip: r.ip,
  device: r.device,
});

/** One page of the caller's live sessions, newest first; the current one is marked. */
export async function listSessions(
  ctx: AppContext,
  user: AuthUser,
  client: Client,
  page: { page: number; pageSize: number },
) {
  const { rows, total } = await q.liveSessionsPage(ctx.db, user.id, ctx.clock.now(), page);
  return { sessions: rows.map((r) => toDto(r, client.sessionId)), pagination: { ...page, total } };
}

/** Logout: ends this session only (other devices stay signed in). */
export async function signOut(ctx: AppContext, user: AuthUser, sessionId: string | null, ip: string): Promise<void> {
  if (!sessionId) return;
  await inTransaction(ctx.db, async (tx) => {
    const session = await q.findSession(tx, user.id, sessionId);
    if (!(await q.revokeSession(tx, user.id, sessionId, ctx.clock.now(), true))) return;
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'session_revoked',
      at: ctx.clock.now(),
      ip,
      device: session?.device ?? null,
      detail: 'Signed out',
    });
  });
}

/** "Sign out" of one session in the list (404 when it is not a live session of the caller). */
export async function revokeOne(ctx: AppContext, user: AuthUser, client: Client, sessionId: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const target = await q.findSession(tx, user.id, sessionId);
    // Counted once even when pressed in several places at once: only the update that ended it records it.
    if (!target || !(await q.revokeSession(tx, user.id, sessionId, ctx.clock.now()))) throw notFound();
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'session_revoked',
      at: ctx.clock.now(),
      ip: client.ip,
      device: client.device,
      detail: SECURITY_DETAIL.session(target.device, target.ip),
    });
  });
}

/** "Sign out all others": every live session but this one. Answers how many ended. */
export async function revokeOthers(ctx: AppContext, user: AuthUser, client: Client): Promise<number> {
  return inTransaction(ctx.db, async (tx) => {
    const ended = await q.revokeSessions(tx, user.id, ctx.clock.now(), client.sessionId);
    if (ended > 0)
      await recordSecurityEvent(tx, {
        userId: user.id,
        type: 'sessions_revoked',
        at: ctx.clock.now(),
        ip: client.ip,
        device: client.device,
        detail: SECURITY_DETAIL.otherSessions(ended),
      });
    return ended;
  });
}
