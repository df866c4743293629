import { createRequire } from 'node:module';
import type { HDKey } from '@scure/bip32';

/** The key libraries are required on first use: a server without DEPOSIT_XPUB never loads them. */
const load = createRequire(import.meta.url);
const bip32 = () => load('@scure/bip32') as typeof import('@scure/bip32');
const curve = () => (load('@noble/curves/secp256k1') as typeof import('@noble/curves/secp256k1')).secp256k1;
const hashes = () => ({
  ...(load('@noble/hashes/sha3') as typeof import('@noble/hashes/sha3')),
  ...(load('@noble/hashes/utils') as typeof import('@noble/hashes/utils')),
});

/**
 * Watch-only derivation of investors' deposit addresses (docs/decisions/0031): DEPOSIT_XPUB is the
 * extended public key of the operator's HD node (e.g. m/44'/60'/0'/0); investor number k gets
 * the Ethereum address of its non-hardened child k. No private key is ever on the server.
 */
export interface AddressDeriver {
  address(childIndex: number): string;
}

/** Largest non-hardened child index (2^31 - 1). */
export const MAX_CHILD_INDEX = 0x7fffffff;

export function parseXpub(xpub: string): HDKey {
  const node = bip32().HDKey.fromExtendedKey(xpub);
  if (node.privateKey) throw new Error('DEPOSIT_XPUB must be an extended PUBLIC key (xpub), not a private one');
  return node;
}

export function createDeriver(xpub: string): AddressDeriver {
  const node = parseXpub(xpub);
  const secp256k1 = curve();
  const { keccak_256, bytesToHex } = hashes();
  return {
    address(childIndex: number): string {
      if (!Number.isInteger(childIndex) || childIndex < 0 || childIndex > MAX_CHILD_INDEX)
        throw new Error(`child index out of range: ${childIndex}`);
      const child = node.deriveChild(childIndex);
      if (!child.publicKey) throw new Error('derived node has no public key');
      const uncompressed = secp256k1.ProjectivePoint.fromHex(child.publicKey).toRawBytes(false);
      // The Ethereum address: the last 20 bytes of keccak-256 over the point without its 0x04 prefix
      // (lowercase, as every address is kept; viem is not needed for this).
      return `0x${bytesToHex(keccak_256(uncompressed.subarray(1))).slice(-40)}`;
    },
  };
}
