import { randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import { CONFIRM_LINK_TTL_MS, MAX_WITHDRAWAL_ADDRESSES, NOT_ME_LINK_TTL_MS } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import { receipt, type Params } from '@harvest/shared/said';
import type { WithdrawalAddress } from '@harvest/shared/schemas/security';
import type { WithdrawalLock } from '@harvest/shared/schemas/user';
import { SECURITY_DETAIL } from '@harvest/shared/security-texts';
import type { AppContext } from '../../context.ts';
import { constraintName, inTransaction, sqlState } from '../../db/tx.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { confirmPassword } from '../../lib/reauth.ts';
import { timeText } from '../../mail/templates.ts';
import { queueMail } from '../../mail/outbox.ts';
import type { AuthUser, Client } from '../../plugins/auth.ts';
import { consumeLink, createLink } from '../account-links/account-links.service.ts';
import { recordSecurityEvent } from '../security-events/security-events.queries.ts';
import { verifyStepUp } from '../passkeys/step-up.ts';
import type { Assertion } from '@harvest/shared/schemas/passkeys';
import { withdrawalLockOf, type LockColumns } from './withdrawal-lock.ts';
import { checkAddressProof } from './address-proof.ts';
import * as q from './withdrawal-addresses.queries.ts';

export function addressStatus(r: q.AddressRow, now: Date): WithdrawalAddress['status'] {
  if (!r.confirmedAt) return 'unconfirmed';
  return now.getTime() < r.usableAt.getTime() ? 'cooling_down' : 'active';
}

export function toAddressDto(r: q.AddressRow, now: Date): WithdrawalAddress {
  return {
    _id: r.id,
    label: r.label,
    address: getAddress(r.address),
    status: addressStatus(r, now),
    proven: r.provenAt !== null,
    usableAt: r.usableAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
  };
}

const hoursOf = (ctx: AppContext) => ctx.config.WITHDRAWAL_ADDRESS_COOLDOWN_HOURS;
/** A lock change's receipt; `template` and `params` when its text has values. */
type LockAnswer = { message: string; template?: string; params?: Params; withdrawalLock: WithdrawalLock };

const when = (ctx: AppContext, at: Date) => timeText(at, ctx.config.PLATFORM_TIMEZONE);

/** One page of the caller's address book, newest first. */
export async function listAddresses(ctx: AppContext, user: AuthUser, page: { page: number; pageSize: number }) {
  const { rows, total } = await q.liveAddressesPage(ctx.db, user.id, page);
  const now = ctx.clock.now();
  return { addresses: rows.map((r) => toAddressDto(r, now)), pagination: { ...page, total } };
}

/**
 * Adds an address (the login password asked again: it adds power; with a passkey, its assertion for this address).
 * It becomes usable once confirmed from the e-mailed link, or proven by its wallet's signature, and once the cool-down
 * since it was added has passed; the e-mail names the device and address it
 * was added from and carries a "this wasn't me" link.
 */
export async function addAddress(
  ctx: AppContext,
  user: AuthUser,
  client: Client,
  input: {
    label: string;
    address: string;
    password: string;
    passkey?: Assertion | undefined;
    message?: string | undefined;
    signature?: string | undefined;
  },
): Promise<WithdrawalAddress> {
  await confirmPassword(ctx, user, input.password, client.ip);
  await verifyStepUp(ctx, user, 'add_address', { address: input.address.toLowerCase() }, input.passkey);
  const proof =
    input.message !== undefined && input.signature !== undefined
      ? { message: input.message, signature: input.signature }
      : null;
  const proven = proof !== null;
  if (proof) await checkAddressProof(ctx, user, input.address.toLowerCase(), proof);
  else if (ctx.config.WITHDRAWAL_ADDRESS_PROOF === 'required')
    throw badRequest(MSG.addressProofRequired, 'address_proof_invalid');
  const now = ctx.clock.now();
  try {
    return await inTransaction(ctx.db, async (tx) => {
      // One add at a time per account, so the cap holds under parallel requests.
      await q.lockWithdrawalGate(tx, user.id);
      if ((await q.countLive(tx, user.id)) >= MAX_WITHDRAWAL_ADDRESSES)
        throw badRequest(MSG.addressBookFull(MAX_WITHDRAWAL_ADDRESSES));
      const row = await q.insertAddress(tx, {
        id: randomUUID(),
        userId: user.id,
        label: input.label,
        address: input.address.toLowerCase(),
        createdAt: now,
        usableAt: new Date(now.getTime() + ctx.config.addressCooldownMs),
        addedIp: client.ip,
        addedDevice: client.device,
        // Its wallet's signature proved it: the e-mailed confirmation would prove less (the cool-down still runs).
        ...(proven ? { provenAt: now, confirmedAt: now } : {}),
      });
      const link = { userId: user.id, targetId: row.id };
      const confirmUrl = proven
        ? null
        : await createLink(tx, ctx, { ...link, kind: 'confirm_address', ttlMs: CONFIRM_LINK_TTL_MS });
      const notMeUrl = await createLink(tx, ctx, { ...link, kind: 'not_me', ttlMs: NOT_ME_LINK_TTL_MS });
      const shown = getAddress(row.address);
      await recordSecurityEvent(tx, {
        userId: user.id,
        type: 'address_added',
        at: now,
        ip: client.ip,
        device: client.device,
        detail: `${row.label}: ${shown}`,
      });
      await queueMail(tx, ctx, user.id, {
        kind: 'address_added',
        label: row.label,
        address: shown,
        ip: client.ip,
        device: client.device,
        usableAt: row.usableAt,
        confirmUrl,
        notMeUrl,
        at: now,
      });
      return toAddressDto(row, now);
    });
  } catch (err) {
    if (sqlState(err) === '23505' && constraintName(err) === 'withdrawal_addresses_live_key')
      throw conflict(MSG.addressExists).about('address');
    throw err;
  }
}

/** The e-mailed link's page: confirms the address, with the session of the account it was sent to. */
export async function confirmAddress(
  ctx: AppContext,
  user: AuthUser,
  client: Client,
  token: string,
): Promise<WithdrawalAddress> {
  const now = ctx.clock.now();
  return inTransaction(ctx.db, async (tx) => {
    const link = await consumeLink(tx, ctx, 'confirm_address', token, user.id);
    const row = link.targetId ? await q.confirmAddress(tx, link.targetId, now) : undefined;
    if (!row) throw badRequest(MSG.addressGone, 'invalid_link');
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'address_confirmed',
      at: now,
      ip: client.ip,
      device: client.device,
      detail: `${row.label}: ${getAddress(row.address)}`,
    });
    return toAddressDto(row, now);
  });
}

/** Removing an address is immediate (it takes power away): no password, no wait. */
export async function removeAddress(ctx: AppContext, user: AuthUser, client: Client, id: string): Promise<void> {
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (tx) => {
    const row = await q.removeAddress(tx, user.id, id, now);
    if (!row) throw notFound();
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'address_removed',
      at: now,
      ip: client.ip,
      device: client.device,
      detail: `${row.label}: ${getAddress(row.address)}`,
    });
  });
}

const lockOf = (ctx: AppContext, u: LockColumns) =>
  withdrawalLockOf(u, ctx.clock.now(), ctx.config.addressLockRequired);

/**
 * The investor's lock: on at once; off only with the login password and a confirmation from the e-mailed link,
 * and then only after the cool-down. With WITHDRAWAL_ADDRESS_LOCK=required it cannot be turned off.
 */
export async function setWithdrawalLock(
  ctx: AppContext,
  user: AuthUser,
  client: Client,
  input: { enabled: boolean; password?: string | undefined; passkey?: Assertion | undefined },
): Promise<LockAnswer> {
  const now = ctx.clock.now();
  const current = lockOf(ctx, user);
  if (input.enabled) {
    // Turning it on also cancels a lock on its way off, and voids lock-off links not yet used.
    if (!current.required)
      await inTransaction(ctx.db, async (tx) => {
        await q.voidLockOffLinks(tx, user.id, now);
        if (current.status === 'on') return;
        await q.setLock(tx, user.id, true, null);
        await recordSecurityEvent(tx, {
          userId: user.id,
          type: 'withdrawal_lock_on',
          at: now,
          ip: client.ip,
          device: client.device,
        });
      });
    return { message: MSG.lockOn, withdrawalLock: lockOf(ctx, { withdrawalLock: true, withdrawalLockEndsAt: null }) };
  }
  if (current.required) throw badRequest(MSG.lockRequired);
  if (current.status === 'off') return { message: MSG.lockAlreadyOff, withdrawalLock: current };
  if (current.status === 'turning_off' && current.endsAt)
    return {
      ...receipt(MSG.lockAlreadyTurningOff(new Date(current.endsAt), when(ctx, new Date(current.endsAt)))),
      withdrawalLock: current,
    };
  await confirmPassword(ctx, user, input.password ?? '', client.ip);
  await verifyStepUp(ctx, user, 'lock_off', { enabled: false }, input.passkey);
  await inTransaction(ctx.db, async (tx) => {
    const link = { userId: user.id, targetId: null };
    const confirmUrl = await createLink(tx, ctx, { ...link, kind: 'confirm_lock_off', ttlMs: CONFIRM_LINK_TTL_MS });
    const notMeUrl = await createLink(tx, ctx, { ...link, kind: 'not_me', ttlMs: NOT_ME_LINK_TTL_MS });
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'withdrawal_lock_off_requested',
      at: now,
      ip: client.ip,
      device: client.device,
    });
    await queueMail(tx, ctx, user.id, {
      kind: 'withdrawal_lock_off_requested',
      hours: hoursOf(ctx),
      ip: client.ip,
      device: client.device,
      confirmUrl,
      notMeUrl,
      at: now,
    });
  });
  return { ...receipt(MSG.lockOffRequested(hoursOf(ctx))), withdrawalLock: current };
}

/** The lock-off link's page: the lock ends one cool-down from now (it stays on until then). */
export async function confirmLockOff(
  ctx: AppContext,
  user: AuthUser,
  client: Client,
  token: string,
): Promise<LockAnswer> {
  const now = ctx.clock.now();
  return inTransaction(ctx.db, async (tx) => {
    await consumeLink(tx, ctx, 'confirm_lock_off', token, user.id);
    const gate = await q.lockWithdrawalGate(tx, user.id);
    if (!gate) throw notFound();
    const current = lockOf(ctx, gate);
    if (current.required) throw badRequest(MSG.lockRequired);
    if (current.status !== 'on') return { message: MSG.lockAlreadyOff, withdrawalLock: current };
    const endsAt = new Date(now.getTime() + ctx.config.addressCooldownMs);
    await q.setLock(tx, user.id, true, endsAt);
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: 'withdrawal_lock_off_confirmed',
      at: now,
      ip: client.ip,
      device: client.device,
      detail: SECURITY_DETAIL.endsAt(endsAt),
    });
    return {
      ...receipt(MSG.lockOffConfirmed(endsAt, when(ctx, endsAt))),
      withdrawalLock: lockOf(ctx, { withdrawalLock: true, withdrawalLockEndsAt: endsAt }),
    };
  });
}
