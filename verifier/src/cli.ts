import { readFileSync } from 'node:fs';
import { createPublicClient, erc20Abi, getAddress, http, isAddress, type Hex } from 'viem';
import { usdcText, usdcToMicro, verifyInclusion, type InclusionProof } from './merkle.ts';
import { reservesMessage } from './message.ts';

/**
 * `harvest-por verify PROOF.json --root-from URL`: checks an investor's inclusion proof against the snapshot the
 * platform published at URL (its origin, or the snapshot's JSON address).
 * `harvest-por reserves --snapshot URL --rpc URL [--usdc ADDRESS,...]`: reads again, at the snapshot's block, the
 * USDC of every reserve the platform counts, and checks each address's signature of the snapshot's message.
 * Exit 0 when everything matches; 1 with every reason when something does not; 2 on a usage error.
 */

/** Native USDC and bridged USDC.e on Polygon (the platform's default contracts). */
const POLYGON_USDC = ['0x3c499c542cef5e3811e1192ce70d8cc03d5c3359', '0x2791bca1f2de4661ed88a30c99a7a9449aa84174'];

interface Snapshot {
  id: string;
  root: string;
  total: number;
  blockNumber: number | null;
  reserves: { counted: number; listed: number };
}
interface Reserves {
  snapshotId: string;
  blockNumber: number | null;
  message: string;
  reserves: { address: string; kind: string; balance: number; signature: string | null; verified: boolean }[];
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** The snapshot's JSON address: URL as given when it names one, else the platform origin's snapshot `id`. */
function snapshotUrl(url: string, id: string): string {
  const u = new URL(url);
  if (/\/proof-of-reserves(\/[0-9a-f-]{36})?\/?$/.test(u.pathname)) return url.replace(/\/$/, '');
  return new URL(`/api/proof-of-reserves/${id}`, u).toString();
}

async function verifyCommand(file: string, rootFrom: string): Promise<string[]> {
  const proof = JSON.parse(readFileSync(file, 'utf8')) as InclusionProof;
  const snapshot = await getJson<Snapshot>(snapshotUrl(rootFrom, proof.snapshotId));
  if (snapshot.id !== proof.snapshotId)
    return [`the proof is of snapshot ${proof.snapshotId}, but ${rootFrom} published snapshot ${snapshot.id}`];
  const verdict = verifyInclusion(proof, { root: snapshot.root, total: usdcToMicro(snapshot.total).toString() });
  if (!verdict.ok) return [verdict.reason];
  console.log(
    `OK: ${usdcText(verdict.amount)} USDC is included in snapshot ${snapshot.id} (root ${snapshot.root}), whose liabilities add up to ${usdcText(verdict.total)} USDC.`,
  );
  return [];
}

async function reservesCommand(snapshotAt: string, rpc: string, usdc: string[]): Promise<string[]> {
  const snapshot = await getJson<Snapshot>(snapshotAt.replace(/\/$/, ''));
  const list = await getJson<Reserves>(`${snapshotAt.replace(/\/$/, '')}/reserves`);
  if (snapshot.blockNumber === null) return ['the snapshot names no block: its reserves were not read on chain'];
  const block = BigInt(snapshot.blockNumber);
  // The message is rebuilt here from the snapshot: a signature of any other text proves nothing about it.
  const message = reservesMessage({
    id: snapshot.id,
    root: snapshot.root,
    total: usdcToMicro(snapshot.total).toString(),
    blockNumber: snapshot.blockNumber,
  });
  const client = createPublicClient({ transport: http(rpc) });
  const problems: string[] = [];
  let counted = 0n;
  for (const r of list.reserves.filter((x) => x.verified)) {
    if (!isAddress(r.address, { strict: false })) {
      problems.push(`${r.address} is not an address`);
      continue;
    }
    const address = getAddress(r.address);
    let onChain = 0n;
    for (const token of usdc)
      onChain += await client.readContract({
        address: token as Hex,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
        blockNumber: block,
      });
    const published = usdcToMicro(r.balance);
    if (onChain !== published)
      problems.push(
        `${address} held ${usdcText(onChain)} USDC at block ${block}, not the published ${usdcText(published)} USDC`,
      );
    const signed =
      r.signature !== null &&
      (await client
        .verifyMessage({ address, message, signature: r.signature as Hex, blockNumber: block })
        .catch(() => false));
    if (!signed) problems.push(`${address} is counted, but its signature does not verify for this snapshot's message`);
    counted += onChain;
  }
  const publishedCounted = usdcToMicro(snapshot.reserves.counted);
  if (counted !== publishedCounted)
    problems.push(
      `the counted reserves add up to ${usdcText(counted)} USDC on chain, not the published ${usdcText(publishedCounted)} USDC`,
    );
  if (problems.length === 0) {
    const unsigned = list.reserves.length - list.reserves.filter((x) => x.verified).length;
    console.log(
      `OK: ${usdcText(counted)} USDC held at block ${block} by ${list.reserves.length - unsigned} signed reserve address(es), against liabilities of ${usdcText(usdcToMicro(snapshot.total))} USDC${unsigned ? ` (${unsigned} more listed without a valid signature, not counted)` : ''}.`,
    );
  }
  return problems;
}

const USAGE = `usage:
  harvest-por verify PROOF.json --root-from URL
  harvest-por reserves --snapshot URL --rpc URL [--usdc ADDRESS,ADDRESS]`;

async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  let problems: string[];
  if (argv[0] === 'verify' && argv[1] && arg('--root-from'))
    problems = await verifyCommand(argv[1], arg('--root-from')!);
  else if (argv[0] === 'reserves' && arg('--snapshot') && arg('--rpc'))
    problems = await reservesCommand(arg('--snapshot')!, arg('--rpc')!, arg('--usdc')?.split(',') ?? POLYGON_USDC);
  else {
    console.error(USAGE);
    return 2;
  }
  for (const p of problems) console.error(`MISMATCH: ${p}`);
  return problems.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(`harvest-por: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
