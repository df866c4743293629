import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MSG } from '@harvest/shared/messages';
import { call, createTestApp, fund, makeUser, type TestApp, type TestUser } from '../helpers.ts';
import { lastMail, mailsTo, withdrawAll } from './support.ts';

/**
 * "Prove with my wallet" without a chain RPC: the wallet signs our EIP-4361 message (EIP-191); a proven address needs
 * no e-mailed confirmation. A signature by another key, for another address or with a used nonce is refused.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const owner = privateKeyToAccount(generatePrivateKey());
const thief = privateKeyToAccount(generatePrivateKey());

const proofMessage = async (u: TestUser, address: string) => {
  const res = await call(t, 'POST', '/api/user/withdrawal-addresses/proof-message', {
    token: u.token,
    body: { address },
  });
  expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
  return res.data.message as string;
};
const add = (u: TestUser, address: string, proof: { message: string; signature: string }) =>
  call(t, 'POST', '/api/user/withdrawal-addresses', {
    token: u.token,
    body: { label: 'Hardware wallet', address, password: u.password, ...proof },
  });
const book = async (u: TestUser) =>
  (await call(t, 'GET', '/api/user/withdrawal-addresses', { token: u.token })).data.addresses;

describe('an address proven by its wallet', () => {
  it('names the site, the account, the address and a nonce; the signed message adds it as proven and confirmed', async () => {
    const u = await makeUser(t);
    const message = await proofMessage(u, owner.address);
    expect(message).toContain(
      `${new URL(t.ctx.config.publicUrl).host} wants you to sign in with your Ethereum account:`,
    );
    expect(message).toContain(owner.address);
    expect(message).toContain(u.user.email);
    expect(message).toMatch(/\nNonce: [0-9a-f]{32}\n/);
    const res = await add(u, owner.address, { message, signature: await owner.signMessage({ message }) });
    expect(res.statusCode, JSON.stringify(res.data)).toBe(201);
    expect(res.data.message).toBe(MSG.addressAddedProven(24).text);
    const [entry] = await book(u);
    expect(entry).toMatchObject({ address: owner.address, proven: true, status: 'cooling_down' });
    // No confirmation link: the wallet proved it. "This wasn't me" still comes.
    const mail = await lastMail(t, u.user.email, 'New withdrawal address added');
    expect(mail.text).not.toContain('/confirm-address#token=');
    expect(mail.text).toContain('/not-me#token=');
  });

  it('refuses a signature by another key, a message for another address, and a used nonce', async () => {
    const u = await makeUser(t);
    const message = await proofMessage(u, owner.address);
    const byThief = await add(u, owner.address, { message, signature: await thief.signMessage({ message }) });
    expect(byThief.data).toEqual({ error: MSG.addressProofInvalid, code: 'address_proof_invalid' });
    // The try used the nonce: the owner's own signature of that message is refused now.
    const used = await add(u, owner.address, { message, signature: await owner.signMessage({ message }) });
    expect(used.data.code).toBe('address_proof_invalid');
    const forOwner = await proofMessage(u, owner.address);
    const otherAddress = await add(u, thief.address, {
      message: forOwner,
      signature: await thief.signMessage({ message: forOwner }),
    });
    expect(otherAddress.data.code).toBe('address_proof_invalid');
    // That try used the nonce too, though it named another address: the message is good for no second request.
    const after = await add(u, owner.address, {
      message: forOwner,
      signature: await owner.signMessage({ message: forOwner }),
    });
    expect(after.data.code).toBe('address_proof_invalid');
    // A message edited to name the thief's address is not the one issued.
    const edited = forOwner.replace(owner.address, thief.address);
    const forged = await add(u, thief.address, {
      message: edited,
      signature: await thief.signMessage({ message: edited }),
    });
    expect(forged.data.code).toBe('address_proof_invalid');
    expect(await book(u)).toEqual([]);
    expect((await mailsTo(t, u.user.email)).filter((m) => m.subject.startsWith('New withdrawal address'))).toEqual([]);
  });

  it("refuses another account's message", async () => {
    const u = await makeUser(t);
    const other = await makeUser(t);
    const message = await proofMessage(other, owner.address);
    const res = await add(u, owner.address, { message, signature: await owner.signMessage({ message }) });
    expect(res.data.code).toBe('address_proof_invalid');
  });
});

describe('administrators see a withdrawal to a proven address as such', () => {
  it("marks it in the admin list while the investor's book holds the address proven; not another's proof, nor a pasted one", async () => {
    const admin = await makeUser(t, { isAdmin: true });
    const wallet = privateKeyToAccount(generatePrivateKey());
    const [prover, paster] = [await makeUser(t), await makeUser(t)];
    const message = await proofMessage(prover, wallet.address);
    expect(
      (await add(prover, wallet.address, { message, signature: await wallet.signMessage({ message }) })).statusCode,
    ).toBe(201);
    // The same address pasted (not proven) in another investor's book: their withdrawal to it is not vouched for.
    const pasted = await call(t, 'POST', '/api/user/withdrawal-addresses', {
      token: paster.token,
      body: { label: 'Pasted', address: wallet.address, password: paster.password },
    });
    expect(pasted.statusCode).toBe(201);
    for (const u of [prover, paster]) {
      await fund(t, u.user.id, 1_234_567_500_000n);
      expect((await withdrawAll(t, u, wallet.address)).statusCode).toBe(200);
    }
    const proven = async () => {
      const res = await call(t, 'GET', '/api/withdrawal/admin/pending?pageSize=100', { token: admin.token });
      expect(res.statusCode).toBe(200);
      const mine = (u: TestUser) =>
        res.data.withdrawals.find((w: { userId: { email: string } }) => w.userId.email === u.user.email);
      return [mine(prover)?.addressProven, mine(paster)?.addressProven];
    };
    expect(await proven()).toEqual([true, false]);
    // Removed from the book, the address is no longer vouched for by it.
    const [entry] = await book(prover);
    expect(
      (await call(t, 'DELETE', `/api/user/withdrawal-addresses/${entry._id}`, { token: prover.token })).statusCode,
    ).toBe(200);
    expect(await proven()).toEqual([false, false]);
  });
});

describe('WITHDRAWAL_ADDRESS_PROOF=required', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({ WITHDRAWAL_ADDRESS_PROOF: 'required' });
  });
  afterAll(() => strict.close());

  it('adds only proven addresses', async () => {
    const u = await makeUser(strict);
    const plain = await call(strict, 'POST', '/api/user/withdrawal-addresses', {
      token: u.token,
      body: { label: 'Pasted', address: owner.address, password: u.password },
    });
    expect(plain.data).toEqual({ error: MSG.addressProofRequired, code: 'address_proof_invalid' });
    const msg = await call(strict, 'POST', '/api/user/withdrawal-addresses/proof-message', {
      token: u.token,
      body: { address: owner.address },
    });
    const message = msg.data.message as string;
    const proven = await call(strict, 'POST', '/api/user/withdrawal-addresses', {
      token: u.token,
      body: {
        label: 'Proven',
        address: owner.address,
        password: u.password,
        message,
        signature: await owner.signMessage({ message }),
      },
    });
    expect(proven.statusCode).toBe(201);
    expect(proven.data.address.proven).toBe(true);
  });
});
