import { randomBytes, randomUUID } from 'node:crypto';
import { recoverMessageAddress, type Hex } from 'viem';
import { MSG } from '@harvest/shared/messages';
import { microToUsdc } from '@harvest/shared/money';
import type {
  PorProof,
  PorReserves,
  PorSnapshot,
  PorUnverifiedReason,
} from '@harvest/shared/schemas/proof-of-reserves';
import { EMPTY_LEAF, leaf, levelUp, toHex, type SumNode } from '@harvest/por-verifier/merkle';
import { reservesMessage } from '@harvest/por-verifier/message';
import type { Chain } from '../../chain/chain.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/tx.ts';
import { extendChain } from '../../ledger/hash-chain.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { writeAudit } from '../audit/audit.queries.ts';
import { platformAddresses } from '../solvency/solvency.service.ts';
import * as q from './por.queries.ts';
import {
  levelCounts,
  saltKeyOf,
  saltOf,
  step,
  SUBTREE,
  SUBTREE_LEVELS,
  subtreePath,
  subtreeRoot,
  treeKeccak,
} from './tree.ts';

/** Leaves read from the database per query while the tree is built. */
const READ_LEAVES = SUBTREE * 16;

function toDto(s: q.SnapshotRow, reserves: { counted: bigint; listed: bigint } | undefined): PorSnapshot {
  const counted = reserves?.counted ?? 0n;
  return {
    id: s.id,
    root: s.root,
    total: microToUsdc(s.total),
    leaves: s.leaves,
    investors: s.investors,
    blockNumber: s.blockNumber === null ? null : Number(s.blockNumber),
    takenAt: s.takenAt.toISOString(),
    reserves: { counted: microToUsdc(counted), listed: microToUsdc(reserves?.listed ?? 0n) },
    // Integer arithmetic to 4 decimals, as the solvency view's coverage.
    coverage: s.total > 0n ? Number((counted * 10_000n) / s.total) / 10_000 : null,
    ledgerHead: s.ledgerTxId !== null && s.ledgerHead ? { transactionId: s.ledgerTxId, hash: s.ledgerHead } : null,
  };
}

async function dtoOf(ctx: AppContext, s: q.SnapshotRow): Promise<PorSnapshot> {
  return toDto(s, (await q.reserveTotals(ctx.db, [s.id])).get(s.id));
}

/**
 * Takes a snapshot: the ledger chain brought up to date, every platform address's USDC read at one block, then in
 * one database transaction every user's liability read in one statement, the tree built over them streamed and
 * its upper levels stored. Refused (nothing stored) with fewer than 2 users: one leaf would be one person's balance.
 */
export async function takeSnapshot(ctx: AppContext): Promise<PorSnapshot> {
  // The second pass settles the gaps the first one saw (rolled-back ids), so the head reaches the newest commit.
  await extendChain(ctx.db);
  await extendChain(ctx.db);
  let blockNumber: bigint | null = null;
  const reserves: { address: string; kind: string; balance: bigint }[] = [];
  if (ctx.chain) {
    const head = await ctx.chain.headBlock();
    if (!head.ok) throw new AppError('upstream_error', MSG.depositChainUnavailable);
    blockNumber = head.value;
    const addresses = await platformAddresses(ctx);
    const read = await ctx.chain.usdcBalances(
      addresses.map((a) => a.address),
      blockNumber,
    );
    if (!read.ok) throw new AppError('upstream_error', MSG.depositChainUnavailable);
    for (const a of addresses) reserves.push({ ...a, balance: read.value.get(a.address) ?? 0n });
  }
  const id = randomUUID();
  const saltKey = randomBytes(32).toString('hex');
  const keccak = await treeKeccak();
  const key = saltKeyOf(saltKey);
  await inTransaction(ctx.db, async (tx) => {
    await q.insertSnapshot(tx, { id, takenAt: ctx.clock.now(), root: '', total: 0n, leaves: 0, blockNumber, saltKey });
    const read = await q.insertLeaves(tx, id);
    // Investors, not leaves: with one investor beside staff leaves, the tree would publish that one balance.
    if (read.investors < 2) throw conflict(MSG.porTooFewInvestors);
    const counts = levelCounts(read.leaves);
    let level: SumNode[] = [];
    for (let from = 0; from < read.leaves; from += READ_LEAVES) {
      const rows = await q.leavesBetween(tx, id, from, from + READ_LEAVES);
      for (let i = 0; i < rows.length; i += SUBTREE)
        level.push(
          subtreeRoot(
            rows.slice(i, i + SUBTREE).map((r) => leaf(saltOf(key, r.userId), r.amount, keccak)),
            counts,
            keccak,
          ),
        );
    }
    if (read.leaves > SUBTREE) {
      for (let l = SUBTREE_LEVELS; ; l++) {
        await q.insertNodes(
          tx,
          level.map((n, idx) => ({ snapshotId: id, level: l, idx, hash: toHex(n.hash), sum: n.sum })),
        );
        if (level.length === 1) break;
        level = levelUp(level, keccak);
      }
    }
    const root = level[0]!;
    if (root.sum !== read.total) throw new Error(`tree sum ${root.sum} is not the liabilities read (${read.total})`);
    await q.completeSnapshot(tx, id, {
      root: toHex(root.hash),
      total: root.sum,
      leaves: read.leaves,
      investors: read.investors,
      ledgerTxId: read.headId,
      ledgerHead: read.headHash,
    });
    await q.insertReserves(
      tx,
      reserves.map((r) => ({ snapshotId: id, ...r })),
    );
  });
  const taken = await q.snapshotById(ctx.db, id);
  if (!taken) throw new Error('snapshot not stored');
  ctx.log.info({ snapshot: id, leaves: taken.leaves }, 'proof of reserves: snapshot taken');
  return dtoOf(ctx, taken);
}

/** An administrator's "take a snapshot now", audited. */
export async function adminSnapshot(ctx: AppContext, admin: AuthUser, ip: string): Promise<PorSnapshot> {
  const s = await takeSnapshot(ctx);
  await writeAudit(ctx.db, {
    adminId: admin.id,
    action: 'por_snapshot',
    targetType: 'platform',
    targetId: s.id,
    after: { root: s.root, total: s.total, leaves: s.leaves },
    at: ctx.clock.now(),
    ip,
  });
  return s;
}

async function snapshotOrLatest(ctx: AppContext, id?: string): Promise<q.SnapshotRow> {
  const s = id ? await q.snapshotById(ctx.db, id) : (await q.latestSnapshots(ctx.db, 1))[0];
  if (!s) throw notFound(id ? MSG.notFound : MSG.porNoSnapshot);
  return s;
}

export async function snapshot(ctx: AppContext, id?: string): Promise<PorSnapshot> {
  return dtoOf(ctx, await snapshotOrLatest(ctx, id));
}

/** The history the public page charts: the newest `limit` snapshots, oldest first. */
export async function history(ctx: AppContext, limit = 365): Promise<PorSnapshot[]> {
  const rows = (await q.latestSnapshots(ctx.db, limit)).reverse();
  const totals = await q.reserveTotals(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toDto(r, totals.get(r.id)));
}

const messageOf = (s: q.SnapshotRow) =>
  reservesMessage({ id: s.id, root: s.root, total: s.total.toString(), blockNumber: String(s.blockNumber ?? 'none') });

export async function reserves(ctx: AppContext, id: string): Promise<PorReserves> {
  const s = await snapshotOrLatest(ctx, id);
  return {
    snapshotId: s.id,
    blockNumber: s.blockNumber === null ? null : Number(s.blockNumber),
    message: messageOf(s),
    reserves: (await q.reservesOf(ctx.db, s.id)).map((r) => ({
      address: r.address,
      kind: r.kind,
      balance: microToUsdc(r.balance),
      signature: r.signature,
      verified: r.verified,
      reason: r.verified ? null : ((r.reason as PorUnverifiedReason | null) ?? 'unsigned'),
    })),
  };
}

/**
 * The signed-in user's inclusion proof: their leaf's salt and amount, and the sibling of every node on the way to
 * the root. Their own subtree is recomputed from the stored leaves; the levels above it are read.
 */
export async function proofFor(ctx: AppContext, userId: string, id?: string): Promise<PorProof> {
  const s = await snapshotOrLatest(ctx, id);
  const mine = await q.leafOf(ctx.db, s.id, userId);
  if (!mine) throw notFound(MSG.porNotIncluded);
  const counts = levelCounts(s.leaves);
  const keccak = await treeKeccak();
  const key = saltKeyOf(s.saltKey);
  const subtree = mine.idx >> SUBTREE_LEVELS;
  const rows = await q.leavesBetween(ctx.db, s.id, subtree * SUBTREE, (subtree + 1) * SUBTREE);
  const own = rows[mine.idx - subtree * SUBTREE]!;
  const { path, level } = subtreePath(
    rows.map((r) => leaf(saltOf(key, r.userId), r.amount, keccak)),
    mine.idx - subtree * SUBTREE,
    counts,
    keccak,
  );
  const above: { level: number; idx: number }[] = [];
  for (let l = level; counts[l]! > 1; l++) above.push({ level: l, idx: (subtree >> (l - SUBTREE_LEVELS)) ^ 1 });
  const stored = await q.nodesAt(ctx.db, s.id, above);
  for (const p of above) {
    const n = stored.get(`${p.level}:${p.idx}`);
    path.push(
      n ? { hash: n.hash, sum: n.sum.toString(), side: p.idx % 2 === 0 ? 'left' : 'right' } : step(EMPTY_LEAF, 'right'),
    );
  }
  return {
    snapshotId: s.id,
    root: s.root,
    total: s.total.toString(),
    salt: toHex(saltOf(key, userId)),
    amount: own.amount.toString(),
    path,
  };
}

/**
 * Signatures an administrator uploads (made offline by `npm run por:sign`): each is checked against the snapshot's
 * message on chain (a key's signature recovered, a contract wallet's asked by EIP-1271) and stored with the result;
 * only a verified address counts.
 */
export async function uploadSignatures(
  ctx: AppContext,
  admin: AuthUser,
  id: string,
  signatures: { address: string; signature: string }[],
  ip: string,
): Promise<PorReserves> {
  const s = await snapshotOrLatest(ctx, id);
  const chain = ctx.chain;
  if (!chain) throw conflict(MSG.solvencyNoChain);
  const listed = new Set((await q.reservesOf(ctx.db, s.id)).map((r) => r.address));
  const message = messageOf(s);
  let verified = 0;
  for (const sig of signatures) {
    const address = sig.address.toLowerCase();
    // A file signed offline may hold more (a Safe owner's own address): only the snapshot's reserves are kept.
    if (!listed.has(address)) continue;
    const verdict = await signatureVerdict(chain, address, message, sig.signature);
    await q.setSignature(ctx.db, s.id, address, sig.signature, verdict);
    if (verdict.verified) verified++;
  }
  await writeAudit(ctx.db, {
    adminId: admin.id,
    action: 'por_signatures',
    targetType: 'platform',
    targetId: s.id,
    after: { uploaded: signatures.length, verified },
    at: ctx.clock.now(),
    ip,
  });
  return reserves(ctx, s.id);
}

const SIGNATURE_LENGTH = 132; // 0x and 65 bytes of hex

/**
 * Checks a reserve's signature on chain (recovered for a key, EIP-1271 for a contract wallet) and, when it fails,
 * says why from what the signature recovers to and, for a Safe-like wallet, its owners and threshold.
 */
async function signatureVerdict(
  chain: Chain,
  address: string,
  message: string,
  signature: string,
): Promise<{ verified: boolean; reason: PorUnverifiedReason | null }> {
  const refused = (reason: PorUnverifiedReason) => ({ verified: false, reason });
  if (!/^0x(?:[0-9a-fA-F]{130})+$/.test(signature)) return refused('malformed');
  const ok = await chain.verifiesMessage(address, message, signature);
  if (!ok.ok) throw new AppError('upstream_error', MSG.depositChainUnavailable);
  if (ok.value) return { verified: true, reason: null };
  const wallet = await chain.walletOwners(address);
  if (!wallet.ok) throw new AppError('upstream_error', MSG.depositChainUnavailable);
  const signers: string[] = [];
  for (let i = 2; i < signature.length; i += SIGNATURE_LENGTH - 2) {
    const part = `0x${signature.slice(i, i + SIGNATURE_LENGTH - 2)}` as Hex;
    const signer = await recoverMessageAddress({ message, signature: part }).catch(() => null);
    if (!signer) return refused('malformed');
    signers.push(signer.toLowerCase());
  }
  if (!wallet.value) return refused('wrong_signer');
  const owners = new Set(wallet.value.owners);
  if (signers.some((a) => !owners.has(a))) return refused('not_owner');
  return refused(new Set(signers).size < wallet.value.threshold ? 'too_few_owners' : 'refused');
}
