import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

export interface AuditEntry {
  /** Null: the platform acted by itself (the chain watcher). */
  adminId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before?: unknown;
  after?: unknown;
  note?: string | null;
  ip?: string | null;
  /** When, on the injected clock. */
  at: Date;
}

/** Appends one audit row inside the transaction of the action it records. */
export async function writeAudit(tx: Db, e: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    adminId: e.adminId,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId,
    before: e.before ?? null,
    after: e.after ?? null,
    note: e.note ?? null,
    ip: e.ip ?? null,
    createdAt: e.at,
  });
}

/** A decision on a pending deposit or withdrawal (an administrator's, or the watcher's): pending -> `status`. */
export async function writeDecision(
  tx: Db,
  d: {
    adminId: string | null;
    action: string;
    targetType: 'deposit' | 'withdrawal';
    targetId: string;
    status: string;
    /** What the decision recorded besides the status (amounts, hashes, where money went). */
    facts: Record<string, unknown>;
    note?: string | null;
    ip: string | null;
    at: Date;
  },
): Promise<void> {
  await writeAudit(tx, {
    adminId: d.adminId,
    action: d.action,
    targetType: d.targetType,
    targetId: d.targetId,
    before: { status: 'pending' },
    after: { status: d.status, ...d.facts },
    note: d.note,
    ip: d.ip,
    at: d.at,
  });
}
