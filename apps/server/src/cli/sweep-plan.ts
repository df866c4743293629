import { writeFileSync } from 'node:fs';
import { openChainCli } from '../lib/chain-cli.ts';
import { readSweepPlan, sweepPlanLines } from '../modules/solvency/sweep-plan.ts';
import { systemClock } from '../lib/clock.ts';

/**
 * `npm run deposits:sweep-plan [-- --all] [--json] [--out FILE]`: the USDC each investor deposit address holds on
 * chain, per token, and the totals; with --json the plan `npm run sweep:sign` takes (docs/OPERATIONS.md). Read-only:
 * it never signs or sends anything. Addresses holding nothing are left out unless --all.
 */
const args = process.argv.slice(2);
const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
const { config, chain, database } = await openChainCli('there is no chain to read balances from.');
try {
  const plan = await readSweepPlan(database.db, chain, config, { all: args.includes('--all'), now: systemClock.now() });
  if ('error' in plan) {
    console.error(plan.error);
    process.exitCode = 1;
  } else {
    const text = args.includes('--json')
      ? `${JSON.stringify(plan, null, 2)}\n`
      : `${sweepPlanLines(plan).join('\n')}\n`;
    if (out) {
      writeFileSync(out, text);
      console.log(`Sweep plan written to ${out}: ${plan.addresses.length} addresses.`);
    } else process.stdout.write(text);
  }
} finally {
  await database.close();
}
