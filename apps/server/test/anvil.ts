import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http as viemHttp,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { freePort } from './net.ts';

/**
 * A real local EVM node for deposit tests: anvil from the @foundry-rs/anvil npm package,
 * started directly (not through npx, so the child is the node itself), plus a tiny 6-decimal
 * USDC-like ERC-20 compiled with solc-js and deployed with viem.
 */

const here = path.dirname(fileURLToPath(import.meta.url));

export function anvilBinary(): string | null {
  for (let dir = here; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Whether anvil can run on this machine, and why not when it cannot. */
export function anvilAvailability(): { ok: true; bin: string } | { ok: false; why: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { ok: false, why: `anvil package is linux-x64 only (this is ${process.platform}-${process.arch})` };
  const bin = anvilBinary();
  if (!bin) return { ok: false, why: 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil not found (npm install)' };
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 15_000 });
  if (r.error) return { ok: false, why: `anvil does not run: ${r.error.message}` };
  if (r.status !== 0) return { ok: false, why: `anvil --version exited ${r.status}: ${r.stderr}` };
  return { ok: true, bin };
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body: unknown = await res.json();
  if (body && typeof body === 'object' && 'error' in body && body.error)
    throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body && typeof body === 'object' && 'result' in body ? body.result : undefined;
}

export interface Anvil {
  url: string;
  chainId: number;
  publicClient: PublicClient;
  wallet: WalletClient;
  accounts: Address[];
  mine(blocks: number): Promise<void>;
  /** Stops the node (its state kept), runs `whileDown`, and starts it again on the same port. */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export interface AnvilOptions {
  chainId?: number;
  /**
   * Keep the chain in a state file (anvil --state) so `restart()` brings the same chain back (its
   * blocks, hashes and contracts) on the same port, as a node that went away and came back.
   */
  persistent?: boolean;
}

/**
 * Starts anvil and waits for its own "Listening on 127.0.0.1:PORT" line: a port another file's anvil took between
 * choosing and binding would otherwise answer for it (same chain id) while this child exits. Port 0 lets anvil pick.
 */
async function spawnAnvil(bin: string, port: number, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child: ChildProcess = spawn(bin, ['--host', '127.0.0.1', '--port', String(port), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const bound = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`anvil did not listen within 20 s: ${stderr}`));
    }, 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve(Number(m[1]));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited ${code}: ${stderr}`));
    });
  });
  await rpc(`http://127.0.0.1:${bound}`, 'eth_chainId');
  return { child, port: bound };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export async function startAnvil(opts: AnvilOptions = {}): Promise<Anvil> {
  const avail = anvilAvailability();
  if (!avail.ok) throw new Error(avail.why);
  const chainId = opts.chainId ?? 137;
  const args = ['--chain-id', String(chainId), '--accounts', '10'];
  if (opts.persistent) args.push('--state', path.join(mkdtempSync(path.join(os.tmpdir(), 'anvil-')), 'state.json'));
  // On a shared machine (TEST_PORTS) a port of the engineer's range; else anvil picks one.
  const started = await spawnAnvil(avail.bin, process.env.TEST_PORTS ? await freePort() : 0, args);
  const port = started.port;
  let child = started.child;
  const url = `http://127.0.0.1:${port}`;
  const chain = defineChain({
    id: chainId,
    name: 'anvil',
    nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  // No cached block number: viem keeps one for 4 s by default, so a test that mined since would read the old height.
  const publicClient = createPublicClient({ chain, transport: viemHttp(url), cacheTime: 0 });
  const wallet = createWalletClient({ chain, transport: viemHttp(url) });
  const accounts = await wallet.getAddresses();
  return {
    url,
    chainId,
    publicClient,
    wallet,
    accounts,
    async mine(blocks: number) {
      await rpc(url, 'anvil_mine', [`0x${blocks.toString(16)}`]);
    },
    async restart(whileDown?: () => Promise<void>) {
      if (!opts.persistent) throw new Error('restart() needs startAnvil({ persistent: true })');
      await stopChild(child);
      await whileDown?.();
      child = (await spawnAnvil(avail.bin, port, args)).child;
    },
    stop: () => stopChild(child),
  };
}

// ---------------------------------------------------------------- test ERC-20

const TOKEN_SOURCE_FILE = path.join(here, 'fixtures/TestUSDC.sol');
/** fixtures/TestUSDC.sol compiled (abi and bytecode), kept beside it: solc-js takes seconds per process. */
export const TOKEN_ARTIFACT_FILE = path.join(here, 'fixtures/TestUSDC.json');

/** Compiles fixtures/TestUSDC.sol with solc-js (`npm run fixtures:token` writes the artifact; a system test checks it). */
export function compileTokenSource(): { abi: Abi; bytecode: Hex } {
  const require = createRequire(import.meta.url);
  const solc: { compile(input: string): string } = require('solc');
  const input = {
    language: 'Solidity',
    sources: { 'TestUSDC.sol': { content: readFileSync(TOKEN_SOURCE_FILE, 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = out.contracts['TestUSDC.sol']?.TestUSDC;
  if (!c) throw new Error('TestUSDC not in solc output');
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

let compiled: { abi: Abi; bytecode: Hex } | null = null;

/** The test token's abi and bytecode, from the kept artifact. */
export function compileToken(): { abi: Abi; bytecode: Hex } {
  compiled ??= JSON.parse(readFileSync(TOKEN_ARTIFACT_FILE, 'utf8')) as { abi: Abi; bytecode: Hex };
  return compiled;
}

export interface Token {
  address: Address;
  abi: Abi;
}

export async function deployToken(a: Anvil, name = 'USD Coin', symbol = 'USDC'): Promise<Token> {
  const { abi, bytecode } = compileToken();
  const from = a.accounts[0];
  if (!from) throw new Error('anvil has no accounts');
  const hash = await a.wallet.deployContract({
    abi,
    bytecode,
    args: [name, symbol],
    account: from,
    chain: a.wallet.chain,
  });
  const receipt = await a.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error('token not deployed');
  return { address: receipt.contractAddress, abi };
}

/** Sends a token call from an unlocked anvil account and waits for its receipt; returns the hash. */
export async function sendToken(
  a: Anvil,
  token: Token,
  from: Address,
  functionName: string,
  args: unknown[],
  opts: { gas?: bigint } = {},
): Promise<Hex> {
  const hash = await a.wallet.writeContract({
    address: token.address,
    abi: token.abi,
    functionName,
    args,
    account: from,
    chain: a.wallet.chain,
    ...(opts.gas ? { gas: opts.gas } : {}),
  });
  await a.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

// ---------------------------------------------------------------- an RPC that can go down

export interface RpcProxy {
  url: string;
  /** While down every request is answered 503, as an overloaded or failing node would. */
  setDown(down: boolean): void;
  /** The next `n` requests are answered 503, the ones after them normally. */
  failNext(n: number): void;
  /** Requests received so far (answered or not). */
  requests(): number;
  /**
   * Refuses eth_getLogs over more than `blocks` blocks (null: no cap) with a JSON-RPC error, as providers that
   * cap log queries do; returns how many were refused so far.
   */
  capLogRange(blocks: number | null): void;
  refusedLogReads(): number;
  /**
   * Rewrites answers on their way back (null: none): called with each JSON-RPC call's method, params and result,
   * it returns the result to send, e.g. a lower head (a lagging node) or fewer logs (a truncating provider).
   */
  transform(fn: RpcTransform | null): void;
  close(): Promise<void>;
}

export type RpcTransform = (method: string, params: unknown[], result: unknown) => unknown;

interface RpcMessage {
  id?: unknown;
  method?: string;
  params?: unknown[];
  result?: unknown;
}

/** Applies `fn` to every answer of a (possibly batched) JSON-RPC exchange. */
function rewrite(request: string, response: string, fn: RpcTransform): string {
  try {
    const req = JSON.parse(request) as RpcMessage | RpcMessage[];
    const res = JSON.parse(response) as RpcMessage | RpcMessage[];
    const calls = new Map((Array.isArray(req) ? req : [req]).map((m) => [JSON.stringify(m.id), m]));
    const one = (r: RpcMessage) => {
      const call = calls.get(JSON.stringify(r.id));
      return call?.method && 'result' in r ? { ...r, result: fn(call.method, call.params ?? [], r.result) } : r;
    };
    return JSON.stringify(Array.isArray(res) ? res.map(one) : one(res));
  } catch {
    return response;
  }
}

/** A small HTTP proxy in front of anvil, so a test can take the RPC down and bring it back. */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let down = false;
  let failing = 0;
  let received = 0;
  let cap: number | null = null;
  let refused = 0;
  let transform: RpcTransform | null = null;
  const tooWide = (body: Buffer): { id: unknown } | null => {
    if (cap === null) return null;
    try {
      const msg = JSON.parse(body.toString()) as { id?: unknown; method?: string; params?: unknown[] };
      const f = msg.method === 'eth_getLogs' ? (msg.params?.[0] as { fromBlock?: string; toBlock?: string }) : null;
      if (!f?.fromBlock || !f.toBlock) return null;
      return Number(BigInt(f.toBlock) - BigInt(f.fromBlock)) + 1 > cap ? { id: msg.id ?? null } : null;
    } catch {
      return null;
    }
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    received++;
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (down || failing > 0) {
        failing = Math.max(0, failing - 1);
        res.writeHead(503, { 'content-type': 'text/plain' }).end('node unavailable');
        return;
      }
      const wide = tooWide(Buffer.concat(chunks));
      if (wide) {
        refused++;
        const error = { code: -32005, message: `block range too large: at most ${cap} blocks per eth_getLogs` };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: wide.id, error }));
        return;
      }
      const body = Buffer.concat(chunks);
      const fn = transform;
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (r) => {
          const text = await r.text();
          res
            .writeHead(r.status, { 'content-type': 'application/json' })
            .end(fn ? rewrite(body.toString(), text, fn) : text);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    setDown: (d) => (down = d),
    failNext: (n) => (failing = n),
    requests: () => received,
    capLogRange: (blocks) => (cap = blocks),
    refusedLogReads: () => refused,
    transform: (fn) => (transform = fn),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------- a contract wallet (EIP-1271)

/** fixtures/ReserveWallet.sol compiled with solc-js (a second, so it is compiled where it is used). */
function compileReserveWallet(): { abi: Abi; bytecode: Hex } {
  const require = createRequire(import.meta.url);
  const solc: { compile(input: string): string } = require('solc');
  const input = {
    language: 'Solidity',
    sources: { 'ReserveWallet.sol': { content: readFileSync(path.join(here, 'fixtures/ReserveWallet.sol'), 'utf8') } },
    settings: { evmVersion: 'paris', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = out.contracts['ReserveWallet.sol']?.ReserveWallet;
  if (!c) throw new Error('ReserveWallet not in solc output');
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

/**
 * Deploys a contract wallet of these owners that needs `threshold` of their signatures, checked by EIP-1271 as a
 * Safe checks them (fixtures/ReserveWallet.sol); its address.
 */
export async function deployReserveWallet(a: Anvil, owners: Address[], threshold = 1): Promise<Address> {
  const { abi, bytecode } = compileReserveWallet();
  const hash = await a.wallet.deployContract({
    abi,
    bytecode,
    args: [owners, BigInt(threshold)],
    account: a.accounts[0]!,
    chain: a.wallet.chain,
  });
  const receipt = await a.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error('wallet not deployed');
  return receipt.contractAddress;
}
