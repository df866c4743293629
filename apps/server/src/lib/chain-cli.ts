import { createChain, type Chain } from '../chain/chain.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';

/**
 * What a command that reads the chain and the database opens first (chain:reconcile, deposits:sweep-plan): the
 * validated settings, the chain (CHAIN_RPC_URL is required: exit 2 without, saying `why`) and the migrated database.
 */
export async function openChainCli(why: string): Promise<{ config: Config; chain: Chain; database: Database }> {
  const config = loadConfig();
  if (!config.CHAIN_RPC_URL) {
    console.error(`CHAIN_RPC_URL is not set: ${why}`);
    process.exit(2);
  }
  const chain = createChain({
    rpcUrl: config.CHAIN_RPC_URL,
    chainId: config.CHAIN_ID,
    usdcContracts: config.USDC_CONTRACTS,
  });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  await database.migrate();
  return { config, chain, database };
}
