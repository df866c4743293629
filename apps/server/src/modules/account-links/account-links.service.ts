import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { MSG } from '@harvest/shared/messages';
import type { LinkPage, LinkPreview } from '@harvest/shared/schemas/security';
import { getAddress } from 'viem';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../lib/errors.ts';
import { findSession } from '../sessions/sessions.queries.ts';
import { findAddress } from '../withdrawal-addresses/withdrawal-addresses.queries.ts';
import * as q from './account-links.queries.ts';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The web page that opens each kind of link; the secret travels in the fragment, so no server or proxy logs it. */
const PAGES = {
  confirm_address: 'confirm-address',
  confirm_lock_off: 'confirm-lock-off',
  not_me: 'not-me',
  staff_invite: 'staff-invite',
} as const;

/**
 * A new single-use link for an e-mail, in the caller's transaction: 256 random bits, of which only the
 * SHA-256 is stored. Answers the URL to put in the e-mail.
 */
export async function createLink(
  tx: Db,
  ctx: Pick<AppContext, 'config' | 'clock'>,
  o: { userId: string; kind: q.LinkKind; targetId?: string | null; ttlMs: number },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await q.insertLink(tx, {
    id: randomUUID(),
    userId: o.userId,
    kind: o.kind,
    tokenHash: hashOf(token),
    targetId: o.targetId ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + o.ttlMs),
  });
  return `${ctx.config.publicUrl}/${PAGES[o.kind]}#token=${token}`;
}

const KIND_OF_PAGE = Object.fromEntries(Object.entries(PAGES).map(([k, v]) => [v, k])) as Record<LinkPage, q.LinkKind>;

/**
 * What a live link is about, for its page to show before the person presses its button: the address, the sign-in
 * or the lock change, and when the e-mail was sent. Uses nothing up; a used, expired or unknown link is refused as
 * using it would be.
 */
export async function previewLink(
  ctx: Pick<AppContext, 'db' | 'clock' | 'config'>,
  page: LinkPage,
  token: string,
): Promise<LinkPreview> {
  const link = await q.findLink(ctx.db, KIND_OF_PAGE[page], hashOf(token));
  if (!link || link.usedAt || link.expiresAt <= ctx.clock.now()) throw badRequest(MSG.linkInvalid, 'invalid_link');
  const preview: LinkPreview = { sentAt: link.createdAt.toISOString() };
  if (link.kind === 'confirm_lock_off') preview.lockOffHours = ctx.config.WITHDRAWAL_ADDRESS_COOLDOWN_HOURS;
  if (!link.targetId) return preview;
  const address = await findAddress(ctx.db, link.userId, link.targetId);
  if (address)
    preview.address = {
      label: address.label,
      address: getAddress(address.address),
      usableAt: address.usableAt.toISOString(),
    };
  const session = address ? undefined : await findSession(ctx.db, link.userId, link.targetId);
  if (session)
    preview.session = { device: session.device, ip: session.ip, signedInAt: session.createdAt.toISOString() };
  return preview;
}

/**
 * Uses a link of `kind` once, in the caller's transaction: 400 `invalid_link` when it is unknown, used or
 * expired; with `userId`, a link of another account is refused too (and stays usable by its owner).
 */
export async function consumeLink(
  tx: Db,
  ctx: Pick<AppContext, 'clock'>,
  kind: q.LinkKind,
  token: string,
  userId?: string,
): Promise<q.AccountLinkRow> {
  const link = await q.findLink(tx, kind, hashOf(token));
  if (!link) throw badRequest(MSG.linkInvalid, 'invalid_link');
  if (userId && link.userId !== userId) throw badRequest(MSG.linkOtherAccount, 'invalid_link');
  if (!(await q.useLink(tx, link.id, ctx.clock.now()))) throw badRequest(MSG.linkInvalid, 'invalid_link');
  return link;
}
