import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { anvilAvailability } from '../anvil.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { rawRows } from '../../src/db/raw.ts';
import { inTransaction } from '../../src/db/tx.ts';
import { confirmAndCreditMany } from '../../src/modules/deposits/deposits.credit.ts';
import { runCliAsync } from '../support/processes.ts';
import { adminLogin, balanceOf, http, signUp, startPlatform, until, usdc, type Platform } from '../support/platform.ts';

/**
 * `npm run chain:reconcile` finds what `npm run ledger:check` cannot: a credit the chain never sent. The
 * database is the one the code before the fix made of a forged correction (a below-minimum transfer the
 * watcher recorded, "corrected" to another hash and 5,000 USDC and credited by the watcher's settling step),
 * written here with the same statements that code ran.
 */
const avail = anvilAvailability();

describe.runIf(avail.ok)('chain:reconcile on a database made before the fix', () => {
  let p: Platform;
  beforeAll(async () => {
    p = await startPlatform({ confirmations: 2 });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it('prints the unbacked credit and the transfer it replaced, and exits 1; the ledger check stays green', async () => {
    const server = await p.start();
    const admin = await adminLogin(server.baseUrl);
    const bob = await signUp(p, server.baseUrl, admin);
    const honest = await p.send(bob.address, 3);
    const below = await p.send(bob.address, 0.1);
    await p.chain.mine(3);
    await until(
      async () => ((await balanceOf(server.baseUrl, bob.token)) === 3 ? true : null),
      15_000,
      'the honest deposit',
    );
    const failed = await until(
      async () => {
        const h = await http(server.baseUrl, 'GET', '/api/user/deposit-history', { token: bob.token });
        return (h.data.deposits as { _id: string; txHash: string; status: string }[]).find(
          (d) => d.txHash === below.toLowerCase() && d.status === 'failed',
        );
      },
      15_000,
      'the below-minimum deposit',
    );
    // The reconciliation reads only what the watcher has read: wait for its cursor to pass that block (a row can
    // be recorded, and the honest one credited, in the pass before the one that moves the cursor).
    const { blockNumber } = await p.chain.publicClient.getTransactionReceipt({ hash: below });
    await until(
      async () => {
        const s = await http(server.baseUrl, 'GET', '/api/admin/solvency', { token: admin });
        return (s.data.watcher?.cursorBlock ?? -1) >= Number(blockNumber) ? true : null;
      },
      15_000,
      "the watcher's cursor past the below-minimum transfer",
    );
    await server.stop();

    // What the old update-failed-deposit and the old settling step did to that row.
    const config = loadConfig({ ...process.env, ...p.env });
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
    const { app, ctx } = await buildApp({ config, database, secret: config.JWT_SECRET ?? '' });
    const forgedHash = `0x${'5a'.repeat(32)}`;
    try {
      await rawRows(
        database.db,
        sql`UPDATE deposits SET tx_hash = ${forgedHash}, amount = ${usdc(5000).toString()}::bigint, status = 'pending',
              failure_reason = NULL, log_index = NULL, confirmations = 0 WHERE id = ${failed._id}::uuid`,
      );
      await inTransaction(database.db, (tx) =>
        confirmAndCreditMany(ctx, tx, [failed._id], { processedAt: new Date(), head: 10_000n }),
      );
    } finally {
      await app.close();
      await database.close();
    }

    const ledger = await runCliAsync('ledger-check', [], p.env);
    expect(ledger.output).toMatch(/Ledger check: no violations/);
    expect(ledger.status).toBe(0);

    const r = await runCliAsync('chain-reconcile', [], p.env);
    expect(r.status).toBe(1);
    expect(r.output).toMatch(/Chain reconciliation: 2 difference\(s\)/);
    expect(r.output).toMatch(
      new RegExp(
        `UNBACKED: credited, but no such USDC transfer[^\\n]*\\n[^\\n]*tx ${forgedHash}[^\\n]*credited 5000 USDC`,
      ),
    );
    expect(r.output).toMatch(
      new RegExp(
        `MISSED: a transfer in block \\d+ that no deposit records\\n[^\\n]*tx ${below.toLowerCase()}[^\\n]*on chain 0.1 USDC`,
      ),
    );
    expect(r.output).not.toContain(honest.toLowerCase());
    expect(r.output).toContain(`deposit ${failed._id}`);

    // The run is recorded: the admin Solvency panel and the metric read it.
    const again = await p.start();
    const token = await adminLogin(again.baseUrl);
    const s = await http(again.baseUrl, 'GET', '/api/admin/solvency', { token });
    expect(s.data.reconciliation).toMatchObject({ trigger: 'cli', status: 'differences', differenceCount: 2 });
    expect(s.data.reconciliation.differences.map((d: { kind: string }) => d.kind).sort()).toEqual([
      'missed',
      'unbacked',
    ]);
    await again.stop();
  });
});
