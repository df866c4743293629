import { HDKey } from '@scure/bip32';
import { secp256k1 } from '@noble/curves/secp256k1';
import { bytesToHex } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';

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
  const node = HDKey.fromExtendedKey(xpub);
  if (node.privateKey) throw new Error('DEPOSIT_XPUB must be an extended PUBLIC key (xpub), not a private one');
  return node;
}

export function createDeriver(xpub: string): AddressDeriver {
  const node = parseXpub(xpub);
  return {
    address(childIndex: number): string {
      if (!Number.isInteger(childIndex) || childIndex < 0 || childIndex > MAX_CHILD_INDEX)
        throw new Error(`child index out of range: ${childIndex}`);
      const child = node.deriveChild(childIndex);
      if (!child.publicKey) throw new Error('derived node has no public key');
      const uncompressed = secp256k1.ProjectivePoint.fromHex(child.publicKey).toRawBytes(false);
      return publicKeyToAddress(bytesToHex(uncompressed)).toLowerCase();
    },
  };
}
