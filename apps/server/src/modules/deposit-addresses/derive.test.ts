import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { DEV_MNEMONIC, DEV_XPUB } from '../../../test/support/dev-wallet.ts';
import { createDeriver } from './derive.ts';

/** anvil's (and hardhat's) default accounts 0, 1, 2: children 0, 1, 2 of that node. */
const ANVIL_ACCOUNTS = [
  '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
];

describe('deposit address derivation (watch-only, DEPOSIT_XPUB)', () => {
  it("the dev mnemonic's m/44'/60'/0'/0 xpub gives anvil's accounts 0, 1, 2", () => {
    const node = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive("m/44'/60'/0'/0");
    expect(node.publicExtendedKey).toBe(DEV_XPUB);
    const d = createDeriver(DEV_XPUB);
    expect([0, 1, 2].map((k) => d.address(k))).toEqual(ANVIL_ACCOUNTS);
  });

  it('refuses a private extended key, a malformed key and hardened or negative indexes', () => {
    const xprv = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive("m/44'/60'/0'/0").privateExtendedKey;
    expect(() => createDeriver(xprv)).toThrow(/PUBLIC/);
    expect(() => loadConfig({ DEPOSIT_XPUB: xprv })).toThrow(/DEPOSIT_XPUB: must be a BIP32 extended public key/);
    expect(() => loadConfig({ DEPOSIT_XPUB: 'xpub123' })).toThrow(/DEPOSIT_XPUB/);
    expect(loadConfig({ DEPOSIT_XPUB: DEV_XPUB }).DEPOSIT_XPUB).toBe(DEV_XPUB);
    const d = createDeriver(DEV_XPUB);
    expect(() => d.address(-1)).toThrow(/out of range/);
    expect(() => d.address(2 ** 31)).toThrow(/out of range/);
  });
});
