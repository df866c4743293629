import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { createKeccak } from 'hash-wasm';
import { EMPTY_LEAF, levelUp, toHex, type Keccak, type ProofStep, type SumNode } from '@harvest/por-verifier/merkle';

/**
 * The snapshot's tree, built streamed: the leaves come in subtrees of 2^SUBTREE_LEVELS, each reduced to its root at
 * once, so only one subtree and the subtree roots are in memory. The levels from the subtree roots up are stored
 * (por_nodes); a proof recomputes its own subtree from the stored leaves. Both give the tree verifier/README.md
 * defines: a subtree's levels have the parity of the whole level (every full subtree contributes an even count), so
 * padding a subtree's odd level is padding the whole level's.
 */
export const SUBTREE_LEVELS = 10;
export const SUBTREE = 1 << SUBTREE_LEVELS;

let wasmKeccak: Promise<Keccak> | undefined;

/**
 * keccak-256 in WebAssembly (hash-wasm) for the server's trees: at 1M investors a snapshot hashes 2 million nodes,
 * and the verifier's JavaScript keccak took most of its time. The same function: every proof is checked with the
 * verifier's own (tree.test.ts compares the two).
 */
export function treeKeccak(): Promise<Keccak> {
  wasmKeccak ??= createKeccak(256).then((h) => (bytes: Uint8Array) => h.init().update(bytes).digest('binary'));
  return wasmKeccak;
}

/** A snapshot's secret key (stored as hex), read once for its million salts. */
export const saltKeyOf = (key: string): KeyObject => createSecretKey(Buffer.from(key, 'hex'));

/** An investor's salt in a snapshot: HMAC-SHA256(the snapshot's secret key, their user id). */
export function saltOf(key: KeyObject, userId: string): Uint8Array {
  return createHmac('sha256', key).update(userId).digest();
}

/** The number of nodes at each level of a tree of n leaves, from the leaves to the root. */
export function levelCounts(n: number): number[] {
  const counts = [n];
  while (counts[counts.length - 1]! > 1) counts.push(Math.ceil(counts[counts.length - 1]! / 2));
  return counts;
}

/** Reduces one subtree's leaves as far as the whole tree does below SUBTREE_LEVELS: its root. */
export function subtreeRoot(leaves: SumNode[], counts: number[], keccak: Keccak): SumNode {
  let level = leaves;
  for (let l = 0; l < SUBTREE_LEVELS && counts[l]! > 1; l++) level = levelUp(level, keccak);
  return level[0]!;
}

/** The path from leaf `i` of its subtree's leaves up to the subtree root, and the index of the root's level. */
export function subtreePath(
  leaves: SumNode[],
  i: number,
  counts: number[],
  keccak: Keccak,
): { path: ProofStep[]; level: number; node: SumNode } {
  const path: ProofStep[] = [];
  let level = leaves;
  let at = i;
  let l = 0;
  for (; l < SUBTREE_LEVELS && counts[l]! > 1; l++) {
    const sibling = level[at ^ 1] ?? EMPTY_LEAF;
    path.push(step(sibling, at % 2 === 0 ? 'right' : 'left'));
    level = levelUp(level, keccak);
    at >>= 1;
  }
  return { path, level: l, node: level[at]! };
}

export function step(sibling: SumNode, side: 'left' | 'right'): ProofStep {
  return { hash: toHex(sibling.hash), sum: sibling.sum.toString(), side };
}
