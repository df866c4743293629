import { concat, keccak256, toHex as viemHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { EMPTY_LEAF, leaf, rootOf, toHex, verifyInclusion, type InclusionProof } from './merkle.ts';

/** The README's rules written a second time with viem's encoders, to check merkle.ts against them. */
const u64 = (n: bigint) => viemHex(n, { size: 8 });
const readmeLeaf = (salt: `0x${string}`, amount: bigint) => keccak256(concat(['0x00', salt, u64(amount)]));
const readmeNode = (l: `0x${string}`, ls: bigint, r: `0x${string}`, rs: bigint) =>
  keccak256(concat(['0x01', l, u64(ls), r, u64(rs)]));

describe('the Merkle-sum tree of README.md', () => {
  const salts = [1, 2, 3].map((i) => viemHex(i, { size: 32 }));
  const amounts = [5_000_000n, 0n, 1_234_567_891_234n];
  const leaves = salts.map((s, i) => leaf(Uint8Array.from(Buffer.from(s.slice(2), 'hex')), amounts[i]!));

  it('hashes leaves, nodes and the empty leaf byte for byte as written, an odd level padded with the empty leaf', () => {
    const empty = readmeLeaf(viemHex(0, { size: 32 }), 0n);
    expect(toHex(EMPTY_LEAF.hash)).toBe(empty);
    const l = salts.map((s, i) => readmeLeaf(s, amounts[i]!));
    const left = readmeNode(l[0]!, amounts[0]!, l[1]!, amounts[1]!);
    const right = readmeNode(l[2]!, amounts[2]!, empty, 0n);
    const root = readmeNode(left, amounts[0]! + amounts[1]!, right, amounts[2]!);
    expect(toHex(rootOf(leaves).hash)).toBe(root);
    expect(rootOf(leaves).sum).toBe(1_234_572_891_234n);
  });

  it('verifies the third leaf’s path, and refuses it with a reason once a sum is changed', () => {
    const l = salts.map((s, i) => readmeLeaf(s, amounts[i]!));
    const proof: InclusionProof = {
      snapshotId: 'x',
      root: toHex(rootOf(leaves).hash),
      total: '1234572891234',
      salt: salts[2]!,
      amount: '1234567891234',
      path: [
        { hash: toHex(EMPTY_LEAF.hash), sum: '0', side: 'right' },
        { hash: readmeNode(l[0]!, amounts[0]!, l[1]!, 0n), sum: '5000000', side: 'left' },
      ],
    };
    expect(verifyInclusion(proof)).toEqual({ ok: true, amount: amounts[2], total: 1_234_572_891_234n });
    const lower = { ...proof, path: [proof.path[0]!, { ...proof.path[1]!, sum: '4000000' }] };
    expect(verifyInclusion(lower)).toMatchObject({ ok: false, reason: /not to the published root/ });
    expect(verifyInclusion({ ...proof, path: [{ ...proof.path[0]!, side: 'up' as 'left' }] })).toEqual({
      ok: false,
      reason: "step 1's side is neither left nor right",
    });
  });

  it('refuses amounts that are negative or do not fit in 64 bits, at the leaf and in a sum', () => {
    expect(() => leaf(new Uint8Array(32), -1n)).toThrow('the amount is negative (-1)');
    expect(() => leaf(new Uint8Array(32), 2n ** 64n)).toThrow(/does not fit in 64 bits/);
    const big = leaf(new Uint8Array(32), 2n ** 64n - 1n);
    expect(() => rootOf([big, leaves[0]!])).toThrow(
      `a node sum does not fit in 64 bits (${2n ** 64n - 1n + 5_000_000n})`,
    );
  });
});
