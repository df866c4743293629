import { msg } from '@harvest/shared/i18n';
import { proofMessageResponse } from '@harvest/shared/schemas/security';
import { api } from '../../../lib/api-client.ts';

interface Eip1193 {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

/** The browser's EIP-1193 wallet (MetaMask and the like inject `window.ethereum`), if there is one. */
export function browserWallet(): Eip1193 | null {
  const eth = (window as { ethereum?: Partial<Eip1193> }).ethereum;
  return typeof eth?.request === 'function' ? { request: eth.request.bind(eth) } : null;
}

const hex = (text: string) =>
  `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** "Prove with my wallet": the wallet signs our one-time EIP-4361 message for `address` (personal_sign, EIP-191). */
export async function proveWithWallet(address: string): Promise<{ message: string; signature: string }> {
  const wallet = browserWallet();
  if (!wallet) throw new Error(msg('No browser wallet found'));
  const { message } = await api('/user/withdrawal-addresses/proof-message', proofMessageResponse, {
    method: 'POST',
    body: { address },
  });
  const signature = await wallet.request({ method: 'personal_sign', params: [hex(message), address] });
  if (typeof signature !== 'string') throw new Error(msg('The wallet did not sign the message'));
  return { message, signature };
}
