import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leaf, rootOf, toHex } from '@harvest/por-verifier/merkle';
import { levelCounts, SUBTREE, subtreePath, subtreeRoot, treeKeccak } from './tree.ts';

describe("the server's keccak is the verifier's", () => {
  it('a whole tree: the same root and sum as the verifier computes, at every shape of the last subtree', async () => {
    const keccak = await treeKeccak();
    for (const n of [1, 2, 3, 1023, SUBTREE, SUBTREE + 1]) {
      const amounts = Array.from({ length: n }, (_, i) => BigInt(i * 1_000_003 + 1));
      const salts = amounts.map(() => randomBytes(32));
      const counts = levelCounts(n);
      const mine = subtreeRoot(
        amounts.slice(0, SUBTREE).map((a, i) => leaf(salts[i]!, a, keccak)),
        counts,
        keccak,
      );
      const theirs = rootOf(amounts.slice(0, SUBTREE).map((a, i) => leaf(salts[i]!, a)));
      expect(toHex(mine.hash), `${n} leaves`).toBe(toHex(theirs.hash));
      expect(mine.sum).toBe(theirs.sum);
    }
  });

  it("each hash is its own bytes (the next hash does not overwrite the last one's)", async () => {
    const keccak = await treeKeccak();
    const leaves = [0n, 1n, 2n].map((a) => leaf(new Uint8Array(32), a, keccak));
    expect(leaves.map((l) => toHex(l.hash))).toEqual([0n, 1n, 2n].map((a) => toHex(leaf(new Uint8Array(32), a).hash)));
    const { node } = subtreePath(leaves, 1, levelCounts(3), keccak);
    expect(toHex(node.hash)).toBe(toHex(rootOf([0n, 1n, 2n].map((a) => leaf(new Uint8Array(32), a))).hash));
  });
});
