import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { bytesToHex, getAddress, isAddress, parseSignature, type Hex } from 'viem';
import { microToText } from '@harvest/shared/money';
import { privateKeyToAccount } from 'viem/accounts';
import type { SweepPlan } from '../modules/solvency/sweep-plan.ts';
import { AUTHORIZATION_TYPES, type SignedSweep } from '../modules/solvency/sweep-file.ts';
import { confirmed, readSecret } from '../lib/secret-input.ts';
import { systemClock } from '../lib/clock.ts';

/**
 * `npm run sweep:sign -- --plan plan.json --treasury 0x... --out signed.json [--path "m/44'/60'/0'/0"] [--hours 6]
 * [--yes]`, on the operator's offline machine (decision 0072). The plan came from the online server: it is untrusted.
 * Where the money goes is this command line's `--treasury` (typed on the offline machine), never the plan's: a plan
 * naming another treasury is refused. Before signing it prints the destination, the number of addresses and the
 * totals, and signs only after `--yes` or `yes` typed at the terminal. Standard input holds the extended private key
 * (xprv...) of the DEPOSIT_XPUB node, or a BIP39 mnemonic (the node at --path); it is never read from the environment,
 * never printed, never written. What is written is one EIP-3009 authorization per address and token, moving the whole
 * balance to the treasury, with a random nonce, valid for --hours. A secret whose public node is not the plan's
 * DEPOSIT_XPUB is refused.
 */
const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const fail = (message: string): never => {
  console.error(`sweep:sign: ${message}`);
  process.exit(2);
};

const planFile = arg('--plan') ?? fail('--plan FILE is required (npm run deposits:sweep-plan -- --json --out FILE)');
const outFile = arg('--out') ?? fail('--out FILE is required');
const treasuryArg =
  arg('--treasury') ?? fail('--treasury ADDRESS is required: where the money goes is decided here, not by the plan');
if (!isAddress(treasuryArg))
  fail(`--treasury ${treasuryArg} is not an address (or its mixed case is not its EIP-55 checksum)`);
const treasury = getAddress(treasuryArg);
const path = arg('--path') ?? "m/44'/60'/0'/0";
const hours = Number(arg('--hours') ?? 6);
if (!Number.isFinite(hours) || hours <= 0 || hours > 72) fail('--hours must be between 0 and 72');

let plan: SweepPlan;
try {
  plan = JSON.parse(readFileSync(planFile, 'utf8')) as SweepPlan;
} catch {
  fail(`${planFile} is not a readable sweep plan`);
}
if (plan!.kind !== 'harvest-farm-sweep-plan' || plan!.version !== 1)
  fail(`${planFile} is not a sweep plan (version 1)`);
if (plan!.treasury && plan!.treasury.toLowerCase() !== treasury.toLowerCase())
  fail(
    `the plan sends the money to ${plan!.treasury}, not to --treasury ${treasury}: refused (the plan file was changed, or TREASURY_ADDRESS differs). Nothing was signed.`,
  );
const totals = plan!.tokens.map(
  (t) =>
    `${microToText(plan!.addresses.reduce((n, a) => n + BigInt(a.balances[t.address] ?? 0), 0n))} of ${t.name} (${t.address})`,
);
console.log(
  [
    `Sweep to sign on chain ${plan!.chainId}:`,
    `  destination  ${treasury}`,
    `  addresses    ${plan!.addresses.length}`,
    ...totals.map((t) => `  total        ${t}`),
  ].join('\n'),
);
if (!args.includes('--yes') && !confirmed('Sign these transfers to this destination? Type yes: '))
  fail('not confirmed: nothing was signed (review the summary above, then type yes, or pass --yes)');

const secret = (
  await readSecret('Extended private key (xprv...) or mnemonic of the DEPOSIT_XPUB node (input hidden): ')
).trim();
if (!secret) fail('no secret on standard input (it is never read from the environment)');
let node: HDKey | undefined;
try {
  if (/^[xt]prv/.test(secret)) node = HDKey.fromExtendedKey(secret);
  else if (validateMnemonic(secret.replace(/\s+/g, ' '), wordlist))
    node = HDKey.fromMasterSeed(mnemonicToSeedSync(secret.replace(/\s+/g, ' '))).derive(path);
} catch {
  node = undefined;
}
if (!node?.privateKey) fail('the secret is neither an extended private key nor a BIP39 mnemonic');
if (node!.publicExtendedKey !== plan!.xpub)
  fail(
    `this key is not the one behind the plan's DEPOSIT_XPUB (${plan!.xpub.slice(0, 16)}...): check --path and the key`,
  );

const at = systemClock.now();
const now = Math.floor(at.getTime() / 1000);
const validBefore = BigInt(now + Math.round(hours * 3600));
const signed: SignedSweep = {
  kind: 'harvest-farm-sweep-authorizations',
  version: 1,
  chainId: plan!.chainId,
  treasury: treasury.toLowerCase(),
  createdAt: at.toISOString(),
  authorizations: [],
  manual: [],
};
for (const a of plan!.addresses) {
  const child = node!.deriveChild(a.childIndex);
  if (!child.privateKey) fail(`child ${a.childIndex} has no private key`);
  const account = privateKeyToAccount(bytesToHex(child.privateKey!));
  if (account.address.toLowerCase() !== a.address.toLowerCase())
    fail(
      `child ${a.childIndex} is ${account.address}, not the plan's ${a.address}: the plan does not belong to this key`,
    );
  for (const token of plan!.tokens) {
    const value = BigInt(a.balances[token.address] ?? 0);
    if (value === 0n) continue;
    if (!token.eip3009 || !token.version) {
      signed.manual.push({
        childIndex: a.childIndex,
        address: a.address,
        token: token.address,
        value: value.toString(),
      });
      continue;
    }
    const message = {
      from: account.address,
      to: treasury,
      value,
      validAfter: 0n,
      validBefore,
      nonce: bytesToHex(randomBytes(32)),
    };
    const signature = await account.signTypedData({
      domain: {
        name: token.name,
        version: token.version,
        chainId: plan!.chainId,
        verifyingContract: token.address as Hex,
      },
      types: AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message,
    });
    const { r, s, yParity } = parseSignature(signature);
    signed.authorizations.push({
      token: token.address,
      from: account.address.toLowerCase(),
      to: treasury.toLowerCase(),
      value: value.toString(),
      validAfter: '0',
      validBefore: validBefore.toString(),
      nonce: message.nonce,
      v: 27 + yParity,
      r,
      s,
      signature,
    });
  }
}
writeFileSync(outFile, `${JSON.stringify(signed, null, 2)}\n`, { mode: 0o600 });
const total = signed.authorizations.reduce((n, x) => n + BigInt(x.value), 0n);
console.log(
  `Signed ${signed.authorizations.length} authorization(s) moving ${microToText(total)} USDC to ${treasury}, valid until ${new Date(Number(validBefore) * 1000).toISOString()}: ${outFile}`,
);
for (const m of signed.manual)
  console.log(
    `Manual procedure (token ${m.token} takes no authorization): child ${m.childIndex} ${m.address} holds ${m.value}`,
  );
