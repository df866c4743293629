import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { checkLedger } from '../ledger/check.ts';

/** `npm run ledger:check`: prints every invariant violation (or that there are none); non-zero exit on any. */
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
try {
  await database.migrate();
  const violations = await checkLedger(database.db);
  if (violations.length === 0) {
    console.log(
      "Ledger check: no violations (every transaction sums to zero; cached balances match; no negative user account; every business row has its ledger transaction; the daily money rollups and every user's lifetime totals equal the sum of postings by kind; the hash chain over the ledger's transactions and the heads snapshots published still match).",
    );
  } else {
    console.log(`Ledger check: ${violations.length} violation(s):`);
    for (const v of violations) console.log(`  - ${v.rule}: ${v.detail}`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
