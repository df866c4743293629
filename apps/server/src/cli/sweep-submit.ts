import { readFileSync } from 'node:fs';
import { createPublicClient, createWalletClient, defineChain, getAddress, http, isAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EIP3009_ABI } from '../chain/chain.ts';
import type { SignedSweep } from '../modules/solvency/sweep-file.ts';
import { systemClock } from '../lib/clock.ts';

/**
 * `SWEEP_RELAYER_KEY=0x... npm run sweep:submit -- signed.json`, on any online machine (decision 0072): sends each
 * signed EIP-3009 authorization to its token from the relayer (a gas wallet: it pays the POL, it can move nothing
 * else) and reports each result. A file with any authorization to anywhere but TREASURY_ADDRESS is refused whole,
 * before anything is sent. An expired, already used or failing one is reported and skipped, never retried.
 * Needs CHAIN_RPC_URL, CHAIN_ID and TREASURY_ADDRESS; no database.
 */

const fail = (message: string): never => {
  console.error(`sweep:submit: ${message}`);
  process.exit(2);
};
const file = process.argv[2] ?? fail('the signed file is required: npm run sweep:submit -- signed.json');
const key = process.env.SWEEP_RELAYER_KEY ?? fail("SWEEP_RELAYER_KEY (the gas wallet's private key) is not set");
if (!/^0x[0-9a-fA-F]{64}$/.test(key)) fail('SWEEP_RELAYER_KEY must be a 0x-prefixed 32-byte hex private key');
const rpcUrl = process.env.CHAIN_RPC_URL ?? fail('CHAIN_RPC_URL is not set');
const treasury = process.env.TREASURY_ADDRESS ?? fail('TREASURY_ADDRESS is not set: sweeps go there and nowhere else');
if (!isAddress(treasury)) fail('TREASURY_ADDRESS is not an address');
const chainId = Number(process.env.CHAIN_ID ?? 137);
const signed = JSON.parse(readFileSync(file, 'utf8')) as SignedSweep;
if (signed.kind !== 'harvest-farm-sweep-authorizations' || signed.version !== 1) fail(`${file} is not a signed sweep`);
if (signed.chainId !== chainId) fail(`the authorizations are for chain ${signed.chainId}, CHAIN_ID is ${chainId}`);
const elsewhere = signed.authorizations.filter((a) => a.to.toLowerCase() !== treasury.toLowerCase());
if (elsewhere.length > 0)
  fail(
    [
      `${elsewhere.length} authorization(s) send USDC somewhere other than TREASURY_ADDRESS ${getAddress(treasury)}: nothing was sent.`,
      ...elsewhere.map((a) => `  ${a.from} -> ${a.to} ${a.value} (token ${a.token})`),
    ].join('\n'),
  );

const chain = defineChain({
  id: chainId,
  name: `chain ${chainId}`,
  nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
});
const publicClient = createPublicClient({ chain, transport: http(rpcUrl) });
const relayer = privateKeyToAccount(key as Hex);
const wallet = createWalletClient({ chain, transport: http(rpcUrl), account: relayer });
if ((await publicClient.getChainId()) !== chainId) fail(`CHAIN_RPC_URL does not serve chain ${chainId}`);

let failed = 0;
let sent = 0;
for (const a of signed.authorizations) {
  const label = `${a.from} -> ${a.to} ${a.value} (token ${a.token})`;
  const now = BigInt(Math.floor(systemClock.now().getTime() / 1000));
  if (now >= BigInt(a.validBefore)) {
    console.log(`expired   ${label}: sign a new plan`);
    failed++;
    continue;
  }
  const used = await publicClient.readContract({
    address: a.token as Hex,
    abi: EIP3009_ABI,
    functionName: 'authorizationState',
    args: [a.from as Hex, a.nonce],
  });
  if (used) {
    console.log(`used      ${label}: this authorization was submitted already`);
    continue;
  }
  const call = {
    address: a.token as Hex,
    abi: EIP3009_ABI,
    functionName: 'transferWithAuthorization',
    args: [
      a.from as Hex,
      a.to as Hex,
      BigInt(a.value),
      BigInt(a.validAfter),
      BigInt(a.validBefore),
      a.nonce,
      a.v,
      a.r,
      a.s,
    ],
    account: relayer,
  } as const;
  try {
    await publicClient.simulateContract(call);
    const hash = await wallet.writeContract(call);
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status === 'success') {
      console.log(`swept     ${label}: ${hash}`);
      sent++;
    } else {
      console.log(`reverted  ${label}: ${hash}`);
      failed++;
    }
  } catch (err) {
    const why = err instanceof Error ? (err.message.split('\n')[0] ?? 'failed') : 'failed';
    console.log(`failed    ${label}: ${why}`);
    failed++;
  }
}
console.log(
  `Sweep: ${sent} swept, ${failed} failed or expired, of ${signed.authorizations.length} (relayer ${relayer.address}).`,
);
for (const m of signed.manual)
  console.log(`Manual procedure still needed: child ${m.childIndex} ${m.address} holds ${m.value} of ${m.token}`);
if (failed > 0) process.exitCode = 1;
