import { createChain } from '../chain/chain.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { sweepPlan, sweepPlanLines } from '../modules/solvency/sweep-plan.ts';

/**
 * `npm run deposits:sweep-plan [-- --all]`: the USDC each investor deposit address holds on chain
 * and the total, as the input for consolidating funds with keys kept offline (docs/OPERATIONS.md).
 * Read-only: it never signs or sends anything. Addresses holding nothing are left out unless --all.
 */
const config = loadConfig();
if (!config.CHAIN_RPC_URL) {
  console.error('CHAIN_RPC_URL is not set: there is no chain to read balances from.');
  process.exit(2);
}
const chain = createChain({
  rpcUrl: config.CHAIN_RPC_URL,
  chainId: config.CHAIN_ID,
  usdcContracts: config.USDC_CONTRACTS,
});
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
try {
  await database.migrate();
  const plan = await sweepPlan(database.db, chain);
  if ('error' in plan) {
    console.error(plan.error);
    process.exitCode = 1;
  } else for (const line of sweepPlanLines(plan, config.CHAIN_ID, process.argv.includes('--all'))) console.log(line);
} finally {
  await database.close();
}
