import { microToUsdc } from '@harvest/shared/money';
import { openChainCli } from '../lib/chain-cli.ts';
import { completeRun, differenceLine, runningRun, startRun } from '../modules/reconciliation/reconciliation.service.ts';
import { systemClock } from '../lib/clock.ts';

/**
 * `npm run chain:reconcile`: money in against the chain. Every credited on-chain deposit is read again
 * from the chain (token, recipient, sender, amount, depth) and every USDC transfer to a handed-out deposit
 * address must be a deposit (credited, pending, or failed with why). Prints each difference; exits 1 on any,
 * 2 when the chain cannot be read. The run is recorded: the admin Solvency panel shows it.
 */
const { config, chain, database } = await openChainCli('there is no chain to reconcile against.');
try {
  const deps = { db: database.db, chain, config, now: () => systemClock.now() };
  if (await runningRun(deps)) console.log('Note: another reconciliation is running; this one runs as well.');
  const { run, result } = await completeRun(deps, await startRun(deps, 'cli', null));
  if (!result) {
    console.error(`Chain reconciliation: the chain could not be read (${run.error ?? 'unknown error'}).`);
    process.exitCode = 2;
  } else {
    const { checked, differences } = result;
    const scope = `${checked.deposits} credited deposits, ${checked.transfers} transfers to ${checked.addresses} deposit addresses, through block ${result.through} (head ${result.head})`;
    if (differences.length === 0) {
      console.log(`Chain reconciliation: no differences (${scope}).`);
    } else {
      console.log(`Chain reconciliation: ${differences.length} difference(s) (${scope}):`);
      for (const d of differences) console.log(differenceLine(d));
      const byAddress = new Map<string, { chain: bigint; credited: bigint }>();
      for (const d of differences) {
        const a = byAddress.get(d.address ?? '-') ?? { chain: 0n, credited: 0n };
        a.chain += d.chainAmount ?? 0n;
        a.credited += d.creditedAmount ?? 0n;
        byAddress.set(d.address ?? '-', a);
      }
      console.log('Per address (differences only): on chain / credited, USDC');
      for (const [address, a] of byAddress)
        console.log(`  ${address}  ${microToUsdc(a.chain)} / ${microToUsdc(a.credited)}`);
      process.exitCode = 1;
    }
  }
} finally {
  await database.close();
}
