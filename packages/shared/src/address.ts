import { getAddress, isAddress } from 'viem';

/**
 * An EVM address whose letters are mixed-case must carry a valid EIP-55 checksum (a typo flips one
 * letter's case); all lower-case or all upper-case hex carries no checksum and is taken as it is.
 */
export function checksumMatches(address: string): boolean {
  const hex = address.slice(2);
  return hex === hex.toLowerCase() || hex === hex.toUpperCase() || isAddress(address, { strict: true });
}

/** An address as people read it, with its EIP-55 capitals; anything that is not an address is left as it is. */
export const shownAddress = (address: string): string =>
  isAddress(address, { strict: false }) ? getAddress(address) : address;
