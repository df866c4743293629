/** EIP-3009's typed data (native USDC's `transferWithAuthorization`): what the offline signer signs. */
export const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The file `npm run sweep:sign` writes and `npm run sweep:submit` sends: signed authorizations, no key. */
export interface SignedSweep {
  kind: 'harvest-farm-sweep-authorizations';
  version: 1;
  chainId: number;
  treasury: string;
  createdAt: string;
  authorizations: {
    token: string;
    from: string;
    to: string;
    value: string;
    validAfter: string;
    validBefore: string;
    nonce: `0x${string}`;
    v: number;
    r: `0x${string}`;
    s: `0x${string}`;
    signature: `0x${string}`;
  }[];
  /** Balances of tokens without EIP-3009 (bridged USDC.e): the manual procedure (docs/OPERATIONS.md). */
  manual: { childIndex: number; address: string; token: string; value: string }[];
}
