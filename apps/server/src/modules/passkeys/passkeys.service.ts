import { randomBytes, randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { MSG } from '@harvest/shared/messages';
import type { Passkey } from '@harvest/shared/schemas/passkeys';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors.ts';
import { CHALLENGE_TTL_MS, relyingParty } from '../../lib/webauthn.ts';
import type { AuthUser, Client } from '../../plugins/auth.ts';
import { tellOwner } from '../security-events/tell-owner.ts';
import { startSession, type SignInClient } from '../sessions/sessions.service.ts';
import { confirmPasswordAndCode } from '../two-factor/two-factor.service.ts';
import { findUserById } from '../users/users.queries.ts';
import { challengeOf, checkAssertion } from './assertion.ts';
import { transportsOf } from './step-up.ts';
import * as q from './passkeys.queries.ts';

/** Passkeys an account may hold. */
export const MAX_PASSKEYS = 10;

const toDto = (r: q.PasskeyRow): Passkey => ({
  _id: r.id,
  name: r.name,
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt ? r.lastUsedAt.toISOString() : null,
});

export async function listPasskeys(ctx: AppContext, user: AuthUser): Promise<{ passkeys: Passkey[] }> {
  return { passkeys: (await q.listPasskeys(ctx.db, user.id)).map(toDto) };
}

/** A one-time challenge for `purpose`, kept CHALLENGE_TTL_MS. */
async function newChallenge(ctx: AppContext, userId: string | null, purpose: string): Promise<string> {
  const challenge = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await q.insertChallenge(ctx.db, {
    challenge,
    userId,
    purpose,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return challenge;
}

/**
 * Options for `navigator.credentials.create`: a discoverable credential with user verification, once the person
 * confirmed the password (and the authenticator code when on). A passkey signs in as two factors and confirms
 * withdrawals: added with a stolen session alone, it would stand in for the code the thief does not have.
 */
export async function registrationOptions(
  ctx: AppContext,
  user: AuthUser,
  client: Client,
  input: { password: string; totpCode?: string | undefined },
) {
  const keys = await q.listPasskeys(ctx.db, user.id);
  if (keys.length >= MAX_PASSKEYS) throw badRequest(MSG.passkeyTooMany);
  await confirmPasswordAndCode(ctx, user, input, client.ip);
  const rp = relyingParty(ctx);
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: Buffer.from(user.id),
    userDisplayName: `${user.firstName} ${user.lastName}`,
    challenge: Buffer.from(await newChallenge(ctx, user.id, 'register'), 'base64url'),
    attestationType: 'none',
    excludeCredentials: keys.map((k) => ({ id: k.credentialId, transports: transportsOf(k.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_TTL_MS,
  });
}

type Registration = Omit<Parameters<typeof verifyRegistrationResponse>[0]['response'], 'clientExtensionResults'>;

/**
 * Registers the passkey the browser made for our challenge: one issued to this account after its password (and
 * code) were confirmed (registrationOptions). The e-mail with "this wasn't me" tells the owner.
 */
export async function addPasskey(
  ctx: AppContext,
  user: AuthUser,
  client: Client,
  input: { name: string; response: Registration },
): Promise<Passkey> {
  const failed = badRequest(MSG.passkeyRegistrationFailed);
  const challenge = challengeOf(input.response);
  if (!challenge) throw failed;
  const now = ctx.clock.now();
  const purpose = { challenge, userId: user.id, purpose: 'register', payloadHash: '', now };
  if (!(await q.takeChallenge(ctx.db, purpose))) throw failed;
  const rp = relyingParty(ctx);
  const result = await verifyRegistrationResponse({
    response: { ...input.response, clientExtensionResults: {} },
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => null);
  if (!result?.verified) throw failed;
  const { credential } = result.registrationInfo;
  return inTransaction(ctx.db, async (tx) => {
    if ((await q.countPasskeys(tx, user.id)) >= MAX_PASSKEYS) throw badRequest(MSG.passkeyTooMany);
    const row = await q.insertPasskey(tx, {
      id: randomUUID(),
      userId: user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: input.name,
      createdAt: now,
    });
    if (!row) throw conflict(MSG.passkeyAlreadyAdded);
    await tellPasskeyChange(tx, ctx, user, client, { added: true, last: false, name: row.name, at: now });
    return toDto(row);
  });
}

/**
 * Removes a passkey with the login password and, when on, the authenticator code. Removing the last one records
 * `last_passkey_removed` (which starts the withdrawal hold) and the e-mail says so.
 */
export async function removePasskey(
  ctx: AppContext,
  user: AuthUser,
  client: Client,
  id: string,
  input: { password: string; totpCode?: string | undefined },
): Promise<void> {
  // Not yours or not there: 404 before any secret is asked about.
  if (!(await q.listPasskeys(ctx.db, user.id)).some((k) => k.id === id)) throw notFound();
  await confirmPasswordAndCode(ctx, user, input, client.ip);
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (tx) => {
    const row = await q.deletePasskey(tx, user.id, id);
    if (!row) throw notFound();
    const last = (await q.countPasskeys(tx, user.id)) === 0;
    await tellPasskeyChange(tx, ctx, user, client, { added: false, last, name: row.name, at: now });
  });
}

/** Options for a passkey sign-in: any discoverable credential of ours (the browser offers them). */
export async function signInOptions(ctx: AppContext) {
  return generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    challenge: Buffer.from(await newChallenge(ctx, null, 'sign_in'), 'base64url'),
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
  });
}

/**
 * Signs in with a passkey: possession of the key and the user verification it made (a PIN or a biometric) are two
 * factors, so the session counts as signed in with the second factor (staff need no authenticator code on top).
 */
export async function signInWithPasskey(
  ctx: AppContext,
  assertion: Parameters<typeof checkAssertion>[2],
  client: SignInClient,
): Promise<{ token: string; user: AuthUser }> {
  const refused = unauthorized(MSG.passkeyNotAccepted, 'passkey_invalid');
  const challenge = challengeOf(assertion);
  if (!challenge) throw refused;
  const now = ctx.clock.now();
  if (!(await q.takeChallenge(ctx.db, { challenge, userId: null, purpose: 'sign_in', payloadHash: '', now })))
    throw refused;
  const key = await q.findByCredentialId(ctx.db, assertion.id);
  if (!key) throw unauthorized(MSG.passkeyUnknown, 'passkey_invalid');
  const user = await findUserById(ctx.db, key.userId);
  if (!user || !(await checkAssertion(ctx, key, assertion, challenge))) throw refused;
  if (user.isBlocked) throw forbidden(MSG.blocked, 'blocked');
  return { user, token: (await startSession(ctx, user, client, true, 'passkey')).token };
}

/** A passkey added or removed: the security event, and the owner's e-mail with its "this wasn't me" link. */
async function tellPasskeyChange(
  tx: Tx,
  ctx: AppContext,
  user: AuthUser,
  client: Client,
  change: { added: boolean; last: boolean; name: string; at: Date },
): Promise<void> {
  await tellOwner(tx, ctx, user.id, client, {
    type: change.added ? 'passkey_added' : change.last ? 'last_passkey_removed' : 'passkey_removed',
    at: change.at,
    detail: change.name,
    mail: (notMeUrl) => ({
      kind: change.added ? 'passkey_added' : 'passkey_removed',
      name: change.name,
      last: change.last,
      device: client.device,
      notMeUrl,
      at: change.at,
    }),
  });
}
