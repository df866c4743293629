import { keccak_256 } from '@noble/hashes/sha3';

/**
 * The Merkle-sum tree of Harvest Farm's proof of reserves, byte for byte as README.md writes it out. The server
 * builds its trees with these functions and every verifier (this CLI, the investor's browser) checks with them.
 */

/** Every amount and every sum is an unsigned 64-bit integer of micro-USDC. */
export const MAX_AMOUNT = 2n ** 64n - 1n;

export interface SumNode {
  hash: Uint8Array;
  sum: bigint;
}

/** One step of an inclusion proof, from the leaf up: the sibling's hash and sum, and on which side it sits. */
export interface ProofStep {
  hash: string;
  sum: string;
  side: 'left' | 'right';
}

export interface InclusionProof {
  snapshotId: string;
  root: string;
  total: string;
  salt: string;
  amount: string;
  path: ProofStep[];
}

export class ProofError extends Error {}

/** keccak-256 of bytes. The verifier's is @noble/hashes'; a host hashing millions of nodes may hand in a faster one. */
export type Keccak = (bytes: Uint8Array) => Uint8Array;

/** An amount or sum, refused when negative or beyond 64 bits. */
function u64(x: bigint, what: string): bigint {
  if (x < 0n) throw new ProofError(`${what} is negative (${x})`);
  if (x > MAX_AMOUNT) throw new ProofError(`${what} does not fit in 64 bits (${x})`);
  return x;
}

/** leaf = keccak256(0x00 || salt (32 bytes) || amount (u64 big-endian)). */
export function leaf(salt: Uint8Array, amount: bigint, keccak: Keccak = keccak_256): SumNode {
  if (salt.length !== 32) throw new ProofError(`the salt is ${salt.length} bytes, not 32`);
  const buf = new Uint8Array(41);
  buf.set(salt, 1);
  new DataView(buf.buffer).setBigUint64(33, u64(amount, 'the amount'));
  return { hash: keccak(buf), sum: amount };
}

/** node = keccak256(0x01 || left hash || left sum || right hash || right sum); its sum is left sum + right sum. */
export function parent(left: SumNode, right: SumNode, keccak: Keccak = keccak_256): SumNode {
  // The sums are written in place (no buffer per number): a snapshot of 1M investors makes a million nodes.
  const buf = new Uint8Array(81);
  const view = new DataView(buf.buffer);
  buf[0] = 1;
  buf.set(left.hash, 1);
  view.setBigUint64(33, u64(left.sum, 'a left sum'));
  buf.set(right.hash, 41);
  view.setBigUint64(73, u64(right.sum, 'a right sum'));
  return { hash: keccak(buf), sum: u64(left.sum + right.sum, 'a node sum') };
}

/** The node a level of odd count pairs its last node with: the leaf of a zero salt and amount 0. */
export const EMPTY_LEAF: SumNode = leaf(new Uint8Array(32), 0n);

/** The next level up: pairs in order, the last one of an odd count with EMPTY_LEAF. */
export function levelUp(level: SumNode[], keccak: Keccak = keccak_256): SumNode[] {
  const out: SumNode[] = [];
  for (let i = 0; i < level.length; i += 2) out.push(parent(level[i]!, level[i + 1] ?? EMPTY_LEAF, keccak));
  return out;
}

/** The root of a whole tree of leaves (at least one), in memory: for small trees and tests. */
export function rootOf(leaves: SumNode[]): SumNode {
  if (leaves.length === 0) throw new ProofError('a tree needs at least one leaf');
  let level = leaves;
  while (level.length > 1) level = levelUp(level);
  return level[0]!;
}

export function toHex(bytes: Uint8Array): string {
  return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function fromHex(hex: string, bytes: number, what: string): Uint8Array {
  if (typeof hex !== 'string' || !new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`).test(hex))
    throw new ProofError(`${what} is not 0x and ${bytes} bytes of hex`);
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16);
  return out;
}

export function amountOf(text: unknown, what: string): bigint {
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]*)$/.test(text))
    throw new ProofError(`${what} is not a decimal count of micro-USDC`);
  const n = BigInt(text);
  if (n > MAX_AMOUNT) throw new ProofError(`${what} does not fit in 64 bits (${text})`);
  return n;
}

/** Formats micro-USDC as USDC for a reason a person reads (6 decimals, no float). */
export function usdcText(micro: bigint): string {
  const s = micro.toString().padStart(7, '0');
  return `${s.slice(0, -6)}.${s.slice(-6)}`;
}

/** A JSON number of USDC (at most 6 decimals, as the platform's API answers) as micro-USDC. */
export function usdcToMicro(n: number): bigint {
  const [whole = '0', frac = ''] = n.toFixed(6).split('.');
  return BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0'));
}

export type Verdict = { ok: true; amount: bigint; total: bigint } | { ok: false; reason: string };

/**
 * Recomputes the path from the proof's leaf to its root, checking every amount and sum (non-negative, below 2^64,
 * each node's sum the sum of its children), and compares the result with the published root and total (`published`,
 * read from the platform's public snapshot; the proof's own when absent).
 */
export function verifyInclusion(proof: InclusionProof, published?: { root: string; total: string }): Verdict {
  try {
    const amount = amountOf(proof.amount, 'the amount');
    let node = leaf(fromHex(proof.salt, 32, 'the salt'), amount);
    if (!Array.isArray(proof.path)) throw new ProofError('the path is not a list');
    proof.path.forEach((step, i) => {
      const sibling = {
        hash: fromHex(step.hash, 32, `step ${i + 1}'s hash`),
        sum: amountOf(step.sum, `step ${i + 1}'s sum`),
      };
      if (step.side === 'left') node = parent(sibling, node);
      else if (step.side === 'right') node = parent(node, sibling);
      else throw new ProofError(`step ${i + 1}'s side is neither left nor right`);
    });
    const root = published?.root ?? proof.root;
    const total = amountOf(published?.total ?? proof.total, 'the published total');
    if (published && proof.root.toLowerCase() !== published.root.toLowerCase())
      throw new ProofError(
        `the proof names root ${proof.root}, but the published snapshot's root is ${published.root}`,
      );
    if (toHex(node.hash) !== root.toLowerCase())
      throw new ProofError(
        `the path from this amount (${usdcText(amount)} USDC) leads to ${toHex(node.hash)}, not to the published root ${root}: the amount, the salt or a sibling was altered`,
      );
    if (node.sum !== total)
      throw new ProofError(
        `the sums add up to ${usdcText(node.sum)} USDC, not to the published total ${usdcText(total)} USDC`,
      );
    return { ok: true, amount, total };
  } catch (err) {
    if (err instanceof ProofError) return { ok: false, reason: err.message };
    throw err;
  }
}
