import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Abi, type Address, type Hex } from 'viem';
import { anvilAvailability, startAnvil, type Anvil } from '../../../test/anvil.ts';
import { call, createTestApp, makeUser, type TestApp, type TestUser } from '../../../test/helpers.ts';

const avail = anvilAvailability();
if (!avail.ok) console.warn(`wallet proof chain tests skipped: ${avail.why}`);

/** Compiles test/fixtures/OwnedWallet.sol (an EIP-1271 contract wallet with one owner) with solc-js. */
function compileWallet(): { abi: Abi; bytecode: Hex } {
  const solc: { compile(input: string): string } = createRequire(import.meta.url)('solc');
  const source = readFileSync(new URL('../../../test/fixtures/OwnedWallet.sol', import.meta.url), 'utf8');
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'OwnedWallet.sol': { content: source } },
        settings: { evmVersion: 'paris', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
      }),
    ),
  ) as { contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>> };
  const c = out.contracts['OwnedWallet.sol']?.OwnedWallet;
  if (!c) throw new Error('OwnedWallet not compiled');
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

/** The investor's browser wallet: an EIP-1193 provider whose accounts are anvil's unlocked ones. */
const eip1193 = (anvil: Anvil) => ({
  request: async ({ method, params }: { method: string; params: unknown[] }): Promise<unknown> => {
    const res = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(body.error.message);
    return body.result;
  },
});

/** "Prove with my wallet" against a chain: EIP-191 for a plain account, EIP-1271 read from a contract wallet. */
describe.runIf(avail.ok)('addresses proven by their wallet (anvil)', () => {
  let anvil: Anvil;
  let t: TestApp;
  let owner: Address;
  let stranger: Address;
  let wallet: Address;

  beforeAll(async () => {
    anvil = await startAnvil();
    const [o, s] = anvil.accounts;
    if (!o || !s) throw new Error('anvil accounts missing');
    owner = o;
    stranger = s;
    const { abi, bytecode } = compileWallet();
    const hash = await anvil.wallet.deployContract({ abi, bytecode, args: [owner], account: owner, chain: null });
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error('wallet not deployed');
    wallet = getAddress(receipt.contractAddress);
    t = await createTestApp({ CHAIN_RPC_URL: anvil.url, CHAIN_ID: String(anvil.chainId) });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await anvil?.stop();
  });

  async function prove(u: TestUser, address: Address, signer: Address) {
    const m = await call(t, 'POST', '/api/user/withdrawal-addresses/proof-message', {
      token: u.token,
      body: { address },
    });
    const message = m.data.message as string;
    const hex = `0x${Buffer.from(message).toString('hex')}`;
    const signature = (await eip1193(anvil).request({ method: 'personal_sign', params: [hex, signer] })) as string;
    return call(t, 'POST', '/api/user/withdrawal-addresses', {
      token: u.token,
      body: { label: 'Proven', address, password: u.password, message, signature },
    });
  }

  it('a plain account signs through its EIP-1193 provider; another account cannot sign for it', async () => {
    const u = await makeUser(t);
    expect((await prove(u, stranger, owner)).data.code).toBe('address_proof_invalid');
    const ok = await prove(u, owner, owner);
    expect(ok.statusCode, JSON.stringify(ok.data)).toBe(201);
    expect(ok.data.address.proven).toBe(true);
  });

  it("a contract wallet proves it through EIP-1271: its owner's signature passes, another key's does not", async () => {
    const u = await makeUser(t);
    expect((await prove(u, wallet, stranger)).data.code).toBe('address_proof_invalid');
    const ok = await prove(u, wallet, owner);
    expect(ok.statusCode, JSON.stringify(ok.data)).toBe(201);
    const book = await call(t, 'GET', '/api/user/withdrawal-addresses', { token: u.token });
    expect(book.data.addresses[0]).toMatchObject({ address: wallet, proven: true });
  });
});
