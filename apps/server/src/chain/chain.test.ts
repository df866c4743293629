import { describe, expect, it } from 'vitest';
import { toEventSelector } from 'viem';
import { TRANSFER_TOPIC } from './chain.ts';

describe('the chain adapter without a node', () => {
  it('filters on the ERC-20 Transfer event topic (kept as a constant so viem loads only on the first read)', () => {
    expect(TRANSFER_TOPIC).toBe(toEventSelector('Transfer(address,address,uint256)'));
  });
});
