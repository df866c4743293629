import type { Address } from 'viem';
import { deployToken, sendToken, startAnvil, type Anvil, type Token } from '../../apps/server/test/anvil.ts';
import { startFastApp } from './fresh-data-dir.ts';
import type { RunningApp } from './server.ts';

export interface ChainApp {
  chain: Anvil;
  token: Token;
  app: RunningApp;
  stop: () => Promise<void>;
}

/**
 * A real anvil node (chain id 137) with the 6-decimal USDC deployed, `micro` USDC minted to each of the
 * anvil accounts numbered in `funded`, and the app reading that chain with `env(chain)` on top.
 */
export async function startChainApp(opts: {
  funded: number[];
  micro: bigint;
  env: (chain: Anvil) => Record<string, string>;
}): Promise<ChainApp> {
  const chain = await startAnvil({ chainId: 137 });
  const token = await deployToken(chain);
  const minter = chain.accounts[0] as Address;
  for (const i of opts.funded) await sendToken(chain, token, minter, 'mint', [chain.accounts[i], opts.micro]);
  const app = await startFastApp({
    CHAIN_RPC_URL: chain.url,
    CHAIN_ID: '137',
    USDC_CONTRACTS: token.address,
    ...opts.env(chain),
  });
  return {
    chain,
    token,
    app,
    stop: async () => {
      await app.stop();
      await chain.stop();
    },
  };
}
