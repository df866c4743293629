import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MSG } from '@harvest/shared/messages';
import { microToText } from '@harvest/shared/money';
import type { Assertion } from '@harvest/shared/schemas/passkeys';
import { PROPOSAL_KINDS, proposalChange, type Proposal, type ProposalKind } from '@harvest/shared/schemas/proposals';
import { can } from '@harvest/shared/staff';
import type { AppContext } from '../../context.ts';
import { constraintName, inTransaction, sqlState, type OnceKey } from '../../db/tx.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { currentUser, type AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { isUuid } from '../deposits/deposits.queries.ts';
import { verifyStepUp } from '../passkeys/step-up.ts';
import { findUserById, lockUsersShared } from '../users/users.queries.ts';
import { toUserRef } from '../users/users.dto.ts';
import { KINDS, type ProposalInput, type Shown } from './proposal-kinds.ts';
import * as q from './proposals.queries.ts';

/** A proposal waits this long for its second staff member, then it is void. */
export const PROPOSAL_TTL_MS = 24 * 3600_000;

/** The premise column: what the proposal showed, and what its approval re-checks. */
const storedPremise = z.object({
  changes: z.array(
    z.object({ field: proposalChange.shape.field, before: z.string().nullable(), after: z.string().nullable() }),
  ),
  difference: z.string().nullable(),
  detail: z.string().nullable(),
  check: z.record(z.string(), z.union([z.string(), z.boolean(), z.null()])),
});

function shownOf(p: q.ProposalRow): Shown {
  const s = storedPremise.parse(p.premise);
  return {
    ...s,
    targetId: p.targetId,
    userId: p.userId,
    difference: s.difference === null ? null : BigInt(s.difference),
  };
}

const kindOf = (p: q.ProposalRow) => KINDS[z.enum(PROPOSAL_KINDS).parse(p.kind)];

/**
 * The route's answer to a decision four-eyes may hold: with FOUR_EYES=on (and when the kind says this call needs
 * two people) it becomes a proposal, answered 202 `{ message, proposalId }`; otherwise `immediate` runs as it always did.
 */
export async function twoOrOne<K extends ProposalKind, T>(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  kind: K,
  input: ProposalInput<K>,
  immediate: () => Promise<T>,
): Promise<T | FastifyReply> {
  if (!ctx.config.fourEyes || !(await KINDS[kind].needsTwo(ctx, input))) return immediate();
  const proposalId = await propose(ctx, currentUser(req), kind, input, req.ip, req.idempotency);
  return reply.status(202).send({ message: MSG.proposalSent, proposalId });
}

export async function propose<K extends ProposalKind>(
  ctx: AppContext,
  admin: AuthUser,
  kind: K,
  input: ProposalInput<K>,
  ip: string,
  key?: OnceKey | null,
): Promise<string> {
  const id = randomUUID();
  const now = ctx.clock.now();
  try {
    await inTransaction(
      ctx.db,
      async (tx) => {
        const shown = await KINDS[kind].shows(ctx, tx, admin, input);
        await q.expireOpen(tx, kind, shown.targetId, now);
        const premise = {
          changes: shown.changes,
          difference: shown.difference === null ? null : shown.difference.toString(),
          detail: shown.detail,
          check: shown.check,
        };
        await q.insertProposal(tx, {
          id,
          kind,
          targetId: shown.targetId,
          userId: shown.userId,
          input: JSON.parse(JSON.stringify(input, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))),
          premise,
          status: 'open',
          proposedBy: admin.id,
          proposedAt: now,
          expiresAt: new Date(now.getTime() + PROPOSAL_TTL_MS),
        });
        await writeAudit(tx, {
          adminId: admin.id,
          action: 'proposal_create',
          targetType: kind,
          targetId: shown.targetId,
          after: { proposalId: id, proposedBy: admin.email, proposedAt: now.toISOString(), ...premise },
          at: now,
          ip,
        });
      },
      key,
    );
  } catch (err) {
    if (sqlState(err) === '23505' && constraintName(err) === 'proposals_one_open_key')
      throw conflict(MSG.proposalAlreadyOpen, 'proposal_closed');
    throw err;
  }
  return id;
}

/** Locks an open proposal for a decision; refuses one decided, expired, or (`approving`) one's own. */
async function lockOpen(ctx: AppContext, tx: Parameters<typeof q.lockProposal>[0], id: string, admin: AuthUser) {
  const p = isUuid(id) ? await q.lockProposal(tx, id) : undefined;
  if (!p) throw notFound();
  if (p.status !== 'open') throw conflict(MSG.proposalDecided, 'proposal_closed');
  if (p.expiresAt <= ctx.clock.now()) throw conflict(MSG.proposalExpired, 'proposal_closed');
  if (!can(admin.role, kindOf(p).ability)) throw forbidden(MSG.forbiddenRole, 'forbidden_role');
  return p;
}

/**
 * The second staff member's approval, in ONE transaction: the proposal's row is locked first (two approvals wait for
 * each other; the second finds it decided), then the kind applies it through the immediate call's own service code,
 * re-checking its premise under the locks of what it changes. Refused to the proposer, whatever the session.
 */
export async function approve(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  ip: string,
  passkey?: Assertion,
): Promise<{ message: string }> {
  const found = isUuid(id) ? await q.findProposal(ctx.db, id) : undefined;
  if (!found) throw notFound();
  if (found.proposedBy === admin.id) throw forbidden(MSG.proposalOwn, 'own_proposal');
  // Nor does the person it is about (money into their own account, their own role): two people, neither of them
  // the one who gains.
  if (found.userId === admin.id) throw forbidden(MSG.proposalAboutYou, 'own_proposal');
  // An approver with a passkey confirms exactly this proposal with it (a phished password and code are not enough).
  await verifyStepUp(ctx, admin, 'approve_proposal', stepUpPayload(found), passkey);
  const kind = kindOf(found);
  const apply = await kind.approval(ctx, found.input, shownOf(found), { admin, ip, proposerId: found.proposedBy });
  await inTransaction(ctx.db, async (tx) => {
    const p = await lockOpen(ctx, tx, id, admin);
    // Both roles as committed, held until this commits: an approver demoted meanwhile may not approve, and a
    // proposer who lost the role (removed from the staff) no longer counts as the first pair of eyes.
    const locked = await lockUsersShared(tx, [admin.id, p.proposedBy]);
    if (!can(locked.get(admin.id)?.role, kind.ability)) throw forbidden(MSG.forbiddenRole, 'forbidden_role');
    const proposer = locked.get(p.proposedBy);
    if (!proposer || !can(proposer.role, kind.ability)) throw conflict(MSG.proposalChanged, 'proposal_closed');
    await apply(tx);
    const now = ctx.clock.now();
    await q.decideProposal(tx, id, { status: 'approved', decidedBy: admin.id, decidedAt: now });
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'proposal_approve',
      targetType: p.kind,
      targetId: p.targetId,
      before: { proposalId: id, proposedBy: proposer.email, proposedAt: p.proposedAt.toISOString() },
      after: { approvedBy: admin.email, approvedAt: now.toISOString(), ...storedPremise.parse(p.premise) },
      at: now,
      ip,
    });
  });
  return { message: MSG.proposalApproved };
}

/** What a passkey confirms when a proposal is approved: the proposal as stored (what it will do, what it showed). */
const stepUpPayload = (p: { id: string; kind: string; input: unknown; premise: unknown }) => ({
  id: p.id,
  kind: p.kind,
  input: p.input,
  premise: p.premise,
});

/** The step-up payload of an open proposal a staff member who may approve is about to approve. */
export async function proposalStepUpPayload(ctx: AppContext, admin: AuthUser, id: string) {
  if (!can(admin.role, 'approve')) throw forbidden(MSG.forbiddenRole, 'forbidden_role');
  const found = isUuid(id) ? await q.findProposal(ctx.db, id) : undefined;
  if (!found) throw notFound();
  return stepUpPayload(found);
}

/** Rejects an open proposal (its proposer may withdraw it too): nothing changes. */
export async function reject(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  reason: string | undefined,
  ip: string,
): Promise<{ message: string }> {
  await inTransaction(ctx.db, async (tx) => {
    const p = await lockOpen(ctx, tx, id, admin);
    const now = ctx.clock.now();
    await q.decideProposal(tx, id, { status: 'rejected', decidedBy: admin.id, decidedAt: now, reason: reason ?? null });
    await writeAudit(tx, {
      adminId: admin.id,
      action: 'proposal_reject',
      targetType: p.kind,
      targetId: p.targetId,
      before: { proposalId: id, proposedAt: p.proposedAt.toISOString() },
      after: { rejectedBy: admin.email, rejectedAt: now.toISOString() },
      note: reason ?? null,
      at: now,
      ip,
    });
  });
  return { message: MSG.proposalRejected };
}

/** Open proposals that have not expired, oldest first, with counts per kind. */
export async function listOpen(
  ctx: AppContext,
): Promise<{ proposals: Proposal[]; counts: { open: number; byKind: Record<string, number> } }> {
  const now = ctx.clock.now();
  const rows = (await q.openProposals(ctx.db)).filter((r) => r.p.expiresAt > now);
  const users = new Map<string, Awaited<ReturnType<typeof findUserById>>>();
  for (const r of rows)
    if (r.p.userId && !users.has(r.p.userId)) users.set(r.p.userId, await findUserById(ctx.db, r.p.userId));
  const proposals = rows.map(({ p, by }): Proposal => {
    const shown = shownOf(p);
    const user = p.userId ? users.get(p.userId) : undefined;
    return {
      id: p.id,
      kind: z.enum(PROPOSAL_KINDS).parse(p.kind),
      user: user ? toUserRef(user) : null,
      changes: shown.changes,
      difference: shown.difference === null ? null : microToText(shown.difference),
      detail: shown.detail,
      proposedBy: toUserRef(by),
      proposedAt: p.proposedAt.toISOString(),
      expiresAt: p.expiresAt.toISOString(),
    };
  });
  const byKind: Record<string, number> = {};
  for (const p of proposals) byKind[p.kind] = (byKind[p.kind] ?? 0) + 1;
  return { proposals, counts: { open: proposals.length, byKind } };
}
