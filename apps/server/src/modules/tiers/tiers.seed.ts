import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseUsdc, rateToScaled } from '@harvest/shared/money';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/tx.ts';
import type { tiers } from '../../db/schema.ts';
import { TIERS_SEED_FILE } from '../../lib/paths.ts';
import { countTiers, insertTiers, lockTiers } from './tiers.queries.ts';

const seedFile = z.object({
  tiers: z
    .array(
      z.strictObject({
        name: z.string().trim().min(1).max(100),
        /** USDC as decimal text (at most 6 decimals). */
        amount: z.string(),
        /** Daily rate in percent as decimal text (at most 4 decimals). */
        dailyRate: z.string(),
      }),
    )
    .min(1),
});

/** Reads and checks the seed file; a bad amount or rate stops the server with a clear message. */
export function readTierSeed(file = TIERS_SEED_FILE): (typeof tiers.$inferInsert)[] {
  const parsed = seedFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.tiers.map((t, i) => {
    const amount = parseUsdc(t.amount);
    const rate = rateToScaled(Number(t.dailyRate));
    if (amount === null || amount <= 0n)
      throw new Error(`${file}: tier "${t.name}" has an invalid amount "${t.amount}"`);
    if (rate === null || rate <= 0n || rate > 1_000_000n || !/^\d{1,3}(\.\d{1,4})?$/.test(t.dailyRate)) {
      throw new Error(`${file}: tier "${t.name}" has an invalid daily rate "${t.dailyRate}"`);
    }
    return { name: t.name, amount, dailyRateScaled: Number(rate), sortOrder: i, active: true };
  });
}

/**
 * Seeds the example tiers when the tiers table is empty (first start). The table lock makes
 * two instances starting at once seed only once. Returns how many tiers were inserted.
 */
export async function seedTiers(db: Db, now: Date, file = TIERS_SEED_FILE): Promise<number> {
  const rows = readTierSeed(file);
  return inTransaction(db, async (tx) => {
    await lockTiers(tx);
    if ((await countTiers(tx)) > 0) return 0;
    await insertTiers(
      tx,
      rows.map((r) => ({ ...r, createdAt: now, updatedAt: now })),
    );
    return rows.length;
  });
}
