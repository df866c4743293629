import * as z from 'zod/mini';
import { idSchema } from './common.ts';

/** A published proof-of-reserves snapshot (USDC amounts as JSON numbers, as in the rest of the API). */
export const porSnapshotSchema = z.object({
  id: z.string(),
  /** The Merkle-sum tree's root (0x-hex) and its sum: every user's liability. */
  root: z.string(),
  total: z.number(),
  /** Leaves of the tree: every user owed something, staff's own rewards included. */
  leaves: z.number(),
  /** Of those leaves, the investors' (users who are not staff): what "number of investors" shows. */
  investors: z.number(),
  blockNumber: z.nullable(z.number()),
  takenAt: z.string(),
  /** Reserves at the block: those with a verified signature of the platform (counted), and all read (listed). */
  reserves: z.object({ counted: z.number(), listed: z.number() }),
  /** Counted reserves over the total, to 4 decimals (1.25 = 125 %); null when nothing is owed. */
  coverage: z.nullable(z.number()),
  /** The ledger's hash chain at the snapshot: its last chained transaction and that link's hash. */
  ledgerHead: z.nullable(z.object({ transactionId: z.number(), hash: z.string() })),
});
export type PorSnapshot = z.infer<typeof porSnapshotSchema>;

export const porHistoryResponse = z.object({ snapshots: z.array(porSnapshotSchema) });

/**
 * Why a reserve's signature does not count: none uploaded, not a signature, another key's, a signer who is not one
 * of the contract wallet's owners, fewer owners than its threshold, or refused by the contract for another reason.
 */
export const POR_UNVERIFIED_REASONS = [
  'unsigned',
  'malformed',
  'wrong_signer',
  'not_owner',
  'too_few_owners',
  'refused',
] as const;
export type PorUnverifiedReason = (typeof POR_UNVERIFIED_REASONS)[number];

export const porReserveSchema = z.object({
  address: z.string(),
  kind: z.string(),
  balance: z.number(),
  signature: z.nullable(z.string()),
  verified: z.boolean(),
  /** Null when verified. */
  reason: z.nullable(z.enum(POR_UNVERIFIED_REASONS)),
});
export const porReservesResponse = z.object({
  snapshotId: z.string(),
  blockNumber: z.nullable(z.number()),
  /** The EIP-191 message every reserve address signs for this snapshot. */
  message: z.string(),
  reserves: z.array(porReserveSchema),
});
export type PorReserves = z.infer<typeof porReservesResponse>;

/** An investor's inclusion proof: amounts and sums in decimal micro-USDC, hashes and the salt 0x-hex. */
export const porProofSchema = z.object({
  snapshotId: z.string(),
  root: z.string(),
  total: z.string(),
  salt: z.string(),
  amount: z.string(),
  path: z.array(z.object({ hash: z.string(), sum: z.string(), side: z.enum(['left', 'right']) })),
});
export type PorProof = z.infer<typeof porProofSchema>;

export const porIdParams = z.strictObject({ id: idSchema });
export const porProofQuery = z.object({ id: z.optional(idSchema) });

export const porSignaturesBody = z.strictObject({
  signatures: z.array(z.object({ address: z.string(), signature: z.string() })).check(z.maxLength(10_000)),
});
