import { randomBytes } from 'node:crypto';
import { getAddress, verifyMessage, type Hex } from 'viem';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { MSG } from '@harvest/shared/messages';
import type { AppContext } from '../../context.ts';
import { sha256Hex } from '../../lib/canonical.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { CHALLENGE_TTL_MS } from '../../lib/webauthn.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { insertChallenge, takeChallenge } from '../passkeys/passkeys.queries.ts';

/**
 * "Prove with my wallet": an EIP-4361 (Sign-In with Ethereum) message naming this site, the investor's account, the
 * address and a one-time nonce. Only its SHA-256 is kept, under the nonce, so the message signed must be exactly the
 * one issued, for this account, once, within CHALLENGE_TTL_MS.
 */
export async function proofMessage(ctx: AppContext, user: AuthUser, address: string): Promise<string> {
  const site = new URL(ctx.config.publicUrl);
  const now = ctx.clock.now();
  const nonce = randomBytes(16).toString('hex');
  const message = createSiweMessage({
    domain: site.host,
    address: getAddress(address),
    statement: `I own this address and add it to the withdrawal address book of ${user.email} on Harvest Farm.`,
    uri: site.origin,
    version: '1',
    chainId: ctx.config.CHAIN_ID,
    nonce,
    issuedAt: now,
    expirationTime: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  await insertChallenge(ctx.db, {
    challenge: nonce,
    userId: user.id,
    purpose: 'address_proof',
    payloadHash: sha256Hex(message),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return message;
}

/**
 * Checks that `address` (lower case) signed a message we issued to this user for it: EIP-191 recovered for a plain
 * account, EIP-1271 asked of a contract wallet on the chain (without a chain RPC, plain accounts only). The nonce is
 * used up by the first try.
 */
export async function checkAddressProof(
  ctx: AppContext,
  user: AuthUser,
  address: string,
  proof: { message: string; signature: string },
): Promise<void> {
  const invalid = badRequest(MSG.addressProofInvalid, 'address_proof_invalid');
  const parsed = parseSiweMessage(proof.message);
  if (!parsed.nonce) throw invalid;
  const issued = {
    challenge: parsed.nonce,
    userId: user.id,
    purpose: 'address_proof',
    payloadHash: sha256Hex(proof.message),
    now: ctx.clock.now(),
  };
  // The nonce is used up by this try whatever it names: a message is good for one request, its own address or none.
  if (!(await takeChallenge(ctx.db, issued))) throw invalid;
  if (parsed.address?.toLowerCase() !== address) throw invalid;
  const signature = proof.signature as Hex;
  const signed = ctx.chain
    ? await ctx.chain.verifiesMessage(address, proof.message, signature)
    : {
        ok: true as const,
        value: await verifyMessage({ address: getAddress(address), message: proof.message, signature }).catch(
          () => false,
        ),
      };
  if (!signed.ok) throw new AppError('upstream_error', MSG.depositChainUnavailable);
  if (!signed.value) throw invalid;
}
