import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';

/** The public development mnemonic (anvil's and hardhat's accounts): never for real funds. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
/** The xpub of m/44'/60'/0'/0 of the development mnemonic: children 0, 1, 2 are anvil's accounts 0, 1, 2. */
export const DEV_XPUB =
  'xpub6DyUKdwoLWmUJ4Tn9Bbsdtx7B5Ws18mEN19e5HT52ikE53FiUheSQXrZUNPovqfyKmw4579A1Mm3GXXKM39N64uooBfJ4tNAzFsEbodRTx4';

/** An xpub of the development mnemonic whose children are not anvil's funded accounts. */
export function devXpub(path = "m/44'/60'/7'/0"): string {
  return HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive(path).publicExtendedKey;
}
