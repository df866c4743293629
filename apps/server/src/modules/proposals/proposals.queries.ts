import { and, asc, eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { proposals, users } from '../../db/schema.ts';

export type ProposalRow = typeof proposals.$inferSelect;

export async function insertProposal(db: Db, values: typeof proposals.$inferInsert): Promise<void> {
  await db.insert(proposals).values(values);
}

export async function findProposal(db: Db, id: string): Promise<ProposalRow | undefined> {
  const [p] = await db.select().from(proposals).where(eq(proposals.id, id)).limit(1);
  return p;
}

/** The proposal's row, locked: two approvals of one proposal wait for each other here. */
export async function lockProposal(db: Db, id: string): Promise<ProposalRow | undefined> {
  const [p] = await db.select().from(proposals).where(eq(proposals.id, id)).for('update').limit(1);
  return p;
}

export async function decideProposal(
  db: Db,
  id: string,
  d: { status: 'approved' | 'rejected'; decidedBy: string; decidedAt: Date; reason?: string | null },
): Promise<void> {
  await db
    .update(proposals)
    .set({ status: d.status, decidedBy: d.decidedBy, decidedAt: d.decidedAt, reason: d.reason ?? null })
    .where(and(eq(proposals.id, id), eq(proposals.status, 'open')));
}

/** Open proposals of this kind and target that have expired make way for a new one. */
export async function expireOpen(db: Db, kind: string, targetId: string, now: Date): Promise<void> {
  await db
    .update(proposals)
    .set({ status: 'expired' })
    .where(
      and(
        eq(proposals.kind, kind),
        eq(proposals.targetId, targetId),
        eq(proposals.status, 'open'),
        lte(proposals.expiresAt, now),
      ),
    );
}

/** Open proposals, oldest first, with who proposed them. */
export async function openProposals(db: Db) {
  return db
    .select({
      p: proposals,
      by: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
    })
    .from(proposals)
    .innerJoin(users, eq(users.id, proposals.proposedBy))
    .where(eq(proposals.status, 'open'))
    .orderBy(asc(proposals.proposedAt), asc(proposals.id))
    .limit(500);
}
