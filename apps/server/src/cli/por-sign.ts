import { readFileSync, writeFileSync } from 'node:fs';
import { concat, getAddress, isAddress, isHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { reservesMessage } from '@harvest/por-verifier/message';
import { usdcToMicro } from '@harvest/por-verifier/merkle';
import { readSecret } from '../lib/secret-input.ts';

/**
 * `npm run por:sign -- --snapshot ID --from snapshot.json --out sigs.json [--wallet 0xSAFE:0xOWNER,...]`, on the operator's
 * offline machine. `--from` is the snapshot as published (GET /api/proof-of-reserves/ID, copied over): the message
 * signed names its id, root, total and block, and a file of another snapshot than --snapshot is refused. Standard
 * input holds the private keys (0x-hex, one per line) of the reserve addresses; they are never read from the
 * environment, printed or written. Each key signs the EIP-191 message for its own address; each `--wallet` (a
 * contract wallet such as a Safe) gets its named owners' signatures (as many as its threshold), concatenated in
 * ascending owner order, which the wallet checks by EIP-1271. The output is the body an administrator uploads
 * (POST /api/admin/proof-of-reserves/ID/signatures).
 */
const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const fail = (message: string): never => {
  console.error(`por:sign: ${message}`);
  process.exit(2);
};

const id = arg('--snapshot') ?? fail('--snapshot ID is required');
const from =
  arg('--from') ?? fail('--from FILE is required: the snapshot as published (GET /api/proof-of-reserves/ID)');
const outFile = arg('--out') ?? fail('--out FILE is required');
/** `--wallet 0xSAFE:0xOWNER[,0xOWNER...]`: a contract wallet and the owners whose keys sign for it. */
const wallets = args
  .flatMap((a, i) => (a === '--wallet' ? [args[i + 1] ?? ''] : []))
  .map((w) => {
    const [wallet = '', owners = ''] = w.split(':');
    const list = owners.split(',').filter(Boolean);
    if (!isAddress(wallet) || list.length === 0 || !list.every((o) => isAddress(o)))
      fail(`--wallet ${w} is not WALLET:OWNER[,OWNER...] (addresses)`);
    return { wallet: getAddress(wallet), owners: list.map((o) => o.toLowerCase()) };
  });

let snapshot: { id: string; root: string; total: number; blockNumber: number | null };
try {
  snapshot = JSON.parse(readFileSync(from, 'utf8')) as typeof snapshot;
} catch {
  fail(`${from} is not a readable snapshot`);
}
if (snapshot!.id !== id) fail(`${from} is snapshot ${snapshot!.id}, not --snapshot ${id}: nothing was signed`);
if (snapshot!.blockNumber === null) fail('the snapshot names no block: its reserves were not read on chain');
const message = reservesMessage({
  id,
  root: snapshot!.root,
  total: usdcToMicro(snapshot!.total).toString(),
  blockNumber: snapshot!.blockNumber!,
});

const keys = (await readSecret('Private keys of the reserve addresses, 0x-hex, one per line (input hidden): '))
  .split(/\s+/)
  .filter(Boolean);
if (keys.length === 0) fail('no key on standard input (keys are never read from the environment)');
const signatures: { address: string; signature: Hex }[] = [];
for (const [i, key] of keys.entries()) {
  if (!isHex(key) || key.length !== 66) fail(`key ${i + 1} is not 32 bytes of 0x-hex`);
  const account = privateKeyToAccount(key as Hex);
  signatures.push({ address: account.address, signature: await account.signMessage({ message }) });
}
for (const { wallet, owners } of wallets) {
  const by = signatures.filter((s) => owners.includes(s.address.toLowerCase()));
  if (by.length !== owners.length) fail(`the keys of every owner of ${wallet} are needed on standard input`);
  // A Safe reads its owners' signatures concatenated in ascending owner order.
  by.sort((a, b) => (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1));
  signatures.push({ address: wallet, signature: concat(by.map((o) => o.signature)) });
}

writeFileSync(outFile, `${JSON.stringify({ snapshotId: id, message, signatures }, null, 2)}\n`, { mode: 0o600 });
console.log(
  `Signed snapshot ${id} (block ${snapshot!.blockNumber}) for ${signatures.length} address(es): ${signatures
    .map((s) => s.address)
    .join(', ')}: ${outFile}`,
);
