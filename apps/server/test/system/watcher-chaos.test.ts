import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MSG } from '@harvest/shared/messages';
import type { Address, Hex } from 'viem';
import { MIN_DEPOSIT_MICRO } from '@harvest/shared/constants';
import { anvilAvailability, sendToken } from '../anvil.ts';
import { Rng, seedFromEnv } from '../simulation/model.ts';
import { runCliAsync, type ServerProcess } from '../support/processes.ts';
import {
  adminLogin,
  http,
  signUp,
  startPlatform,
  until,
  usdc,
  type Investor,
  type Platform,
} from '../support/platform.ts';

/**
 * The chain watcher under chaos, seeded and replayable: two server instances on one PostgreSQL
 * follow a real anvil chain while transfers of every kind arrive (good ones, below the minimum, a look-alike
 * token, two in one transaction, to addresses nobody was given, to addresses handed out while the chain could
 * not be read), the chain re-organises (up to the confirmations, and once deeper), the RPC fails, goes away,
 * truncates and lags its answers, and the instances are stopped gracefully and with kill -9.
 *
 * The oracle is the chain alone: at the end, every USDC transfer of at least 0.5 to a handed-out address that
 * is on the chain is credited exactly once, nothing else is credited, `npm run chain:reconcile` finds nothing
 * and `npm run ledger:check` passes.
 *
 * `npm run test:system` runs a short run; `CHAOS_ROUNDS=40 CHAOS_SEED=n npm run chaos:watcher` a long one.
 */
const avail = anvilAvailability();
const SEED = seedFromEnv('CHAOS_SEED');
const ROUNDS = Number(process.env.CHAOS_ROUNDS ?? 6);
const CONFIRMATIONS = 4;

type Kind = 'valid' | 'below' | 'fake' | 'two' | 'stranger';
interface Sent {
  hash: Hex;
  raw: Hex;
  kind: Kind;
}

describe.runIf(avail.ok)('deposit watcher chaos (two instances, PostgreSQL, anvil)', () => {
  let p: Platform | undefined;
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop().catch(() => undefined);
    await p?.close();
  });

  it(
    `credits every transfer exactly once and nothing else (CHAOS_SEED=${SEED}, ${ROUNDS} rounds)`,
    { timeout: 60 * 60_000 },
    async () => {
      console.log(`[chaos] seed=${SEED} rounds=${ROUNDS}; replay with CHAOS_SEED=${SEED} CHAOS_ROUNDS=${ROUNDS}`);
      const rng = new Rng(SEED);
      p = await startPlatform({ confirmations: CONFIRMATIONS, postgres: true });
      const plat = p;
      const start = async () => {
        const s = await plat.start({ LOG_LEVEL: 'error' });
        servers.push(s);
        return s;
      };
      const instances = [await start(), await start()];
      const live = () => instances.find((s) => s.alive) ?? instances[0]!;
      let admin = await adminLogin(live().baseUrl);
      const investors: Investor[] = [];
      for (let i = 0; i < 4; i++) investors.push(await signUp(plat, live().baseUrl, admin));

      const sent: Sent[] = [];
      let head = await plat.chain.publicClient.getBlockNumber({ cacheTime: 0 });
      const track = async (hash: Hex, kind: Kind) => {
        const raw = (await plat.chain.publicClient.request({
          method: 'eth_getRawTransactionByHash' as never,
          params: [hash] as never,
        })) as Hex;
        sent.push({ hash, raw, kind });
        head = await plat.chain.publicClient.getBlockNumber({ cacheTime: 0 });
      };
      const amount = (kind: Kind) =>
        kind === 'below'
          ? rng.int(1, 49) / 100
          : rng.int(50, 5_000) / 100 + (rng.chance(0.3) ? 0.000001 * rng.int(1, 9) : 0);
      async function transfer(kind: Kind): Promise<void> {
        const to = rng.pick(investors).address;
        if (kind === 'two') {
          const other = rng.pick(investors).address;
          const h = await sendToken(plat.chain, plat.token, plat.sender, 'transferTwo', [
            to,
            usdc(amount('valid')),
            other,
            usdc(amount(rng.chance(0.3) ? 'below' : 'valid')),
          ]);
          return track(h, kind);
        }
        if (kind === 'stranger') return track(await plat.send(`0x${rng.hex(40)}` as Address, amount('valid')), kind);
        return track(await plat.send(to, amount(kind), kind === 'fake' ? plat.fake : plat.token), kind);
      }
      const mine = async (n: number) => {
        if (n > 0) await plat.chain.mine(n);
        head = await plat.chain.publicClient.getBlockNumber({ cacheTime: 0 });
      };
      const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
      /** A re-organisation: back to the snapshot, a longer chain on top, and every transaction since mined again. */
      async function reorg(snapshot: Hex, since: number, depth: number) {
        await plat.chain.publicClient.request({ method: 'evm_revert' as never, params: [snapshot] as never });
        await mine(depth + 1);
        for (const s of sent.slice(since))
          await plat.chain.publicClient.request({
            method: 'eth_sendRawTransaction' as never,
            params: [s.raw] as never,
          });
        await mine(rng.int(0, 2));
      }

      const deepRound = Math.min(2, ROUNDS - 1);
      const events: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const snapshot = (await plat.chain.publicClient.request({ method: 'evm_snapshot' as never })) as Hex;
        const snapHead = head;
        const since = sent.length;
        const deep = round === deepRound;
        const ops = deep ? CONFIRMATIONS + 3 : rng.int(2, Math.max(2, CONFIRMATIONS - 2));
        for (let i = 0; i < ops; i++) {
          await transfer(
            rng.weighted<Kind>([
              [6, 'valid'],
              [1, 'below'],
              [1, 'fake'],
              [1, 'two'],
              [1, 'stranger'],
            ]),
          );
          if (rng.chance(0.3)) await pause(rng.int(50, 300));
        }
        const event = deep
          ? 'deep-reorg'
          : rng.weighted([
              [3, 'reorg'],
              [2, 'outage'],
              [2, 'errors'],
              [2, 'truncate'],
              [2, 'lag'],
              [1, 'restart'],
              [1, 'kill'],
              [1, 'signup-while-down'],
            ] as const);
        events.push(event);
        switch (event) {
          case 'deep-reorg':
            await mine(3);
            await pause(1_500); // the watchers credit some of them first
            await reorg(snapshot, since, Number(head - snapHead));
            break;
          case 'reorg': {
            const depth = Number(head - snapHead);
            if (depth <= CONFIRMATIONS) await reorg(snapshot, since, depth);
            break;
          }
          case 'outage':
            plat.proxy.setDown(true);
            await transfer('valid');
            await pause(rng.int(200, 1_500));
            plat.proxy.setDown(false);
            break;
          case 'errors':
            plat.proxy.failNext(rng.int(1, 8));
            await pause(500);
            break;
          case 'truncate': {
            // A cap below the most logs one block holds here (2) could never be served whole: no provider is that small.
            const cap = rng.int(2, 3);
            plat.proxy.transform((method, _params, result) =>
              method === 'eth_getLogs' && Array.isArray(result) && result.length > cap ? result.slice(0, cap) : result,
            );
            await transfer('valid');
            await pause(rng.int(500, 1_500));
            plat.proxy.transform(null);
            break;
          }
          case 'lag': {
            // A load balancer with a node CONFIRMATIONS - 1 blocks behind: heads and logs from either node.
            const behind = BigInt(rng.int(1, CONFIRMATIONS - 1));
            // Its own coin: how many calls the servers make must not change the scenario that follows.
            const coin = new Rng(rng.int(0, 2 ** 31));
            plat.proxy.transform((method, _params, result) => {
              if (coin.chance(0.5)) return result;
              if (method === 'eth_blockNumber' && typeof result === 'string')
                return `0x${(BigInt(result) - behind).toString(16)}`;
              if (method === 'eth_getLogs' && Array.isArray(result))
                return result.filter((l: { blockNumber: string }) => BigInt(l.blockNumber) <= head - behind);
              return result;
            });
            await transfer('valid');
            await pause(rng.int(500, 1_500));
            plat.proxy.transform(null);
            break;
          }
          case 'restart':
          case 'kill': {
            const i = rng.int(0, 1);
            if (event === 'kill') await instances[i]!.kill9();
            else await instances[i]!.stop();
            await transfer('valid');
            instances[i] = await start();
            admin = await adminLogin(live().baseUrl);
            break;
          }
          case 'signup-while-down':
            plat.proxy.setDown(true);
            investors.push(await signUp(plat, live().baseUrl, admin));
            await transfer('valid');
            await mine(rng.int(1, 10));
            await pause(rng.int(100, 800));
            plat.proxy.setDown(false);
            break;
        }
        await pause(rng.int(200, 800));
      }
      console.log(`[chaos] seed=${SEED} events: ${events.join(', ')}; ${sent.length} transactions`);

      // What the chain says, read directly from the node: every USDC transfer of at least 0.5 to a handed-out address.
      const handedOut = new Set(investors.map((i) => i.address.toLowerCase()));
      const expected = new Map<string, bigint>();
      const belowOnChain: string[] = [];
      const usdcAddress = plat.token.address.toLowerCase();
      for (const s of sent) {
        const r = await plat.chain.publicClient.getTransactionReceipt({ hash: s.hash }).catch(() => null);
        if (!r || r.status !== 'success') continue;
        for (const log of r.logs) {
          if (log.address.toLowerCase() !== usdcAddress || log.topics.length !== 3) continue;
          const to = `0x${log.topics[2]!.slice(26)}`.toLowerCase();
          const value = BigInt(log.data);
          if (handedOut.has(to) && value >= MIN_DEPOSIT_MICRO) expected.set(to, (expected.get(to) ?? 0n) + value);
          else if (handedOut.has(to)) belowOnChain.push(`${to} ${s.hash.toLowerCase()} ${value}`);
        }
      }
      await mine(CONFIRMATIONS + 2);
      const micro = (n: number) => BigInt(Math.round(n * 1_000_000));
      const balances = async () =>
        Promise.all(
          investors.map(async (i) => {
            const r = await http(live().baseUrl, 'GET', '/api/user/dashboard', { token: i.token });
            return micro(r.data.accountSummary.balance as number);
          }),
        );
      const want = investors.map((i) => expected.get(i.address.toLowerCase()) ?? 0n);
      try {
        await until(
          async () => ((await balances()).every((b, k) => b === want[k]) ? true : null),
          120_000,
          'every transfer credited',
        );
      } catch (err) {
        console.log(`[chaos] seed=${SEED} expected ${want.join(',')} got ${(await balances()).join(',')}`);
        for (const s of instances) console.log(s.log().slice(-4_000));
        throw err;
      }
      // And it stays so: nothing credited twice on later passes.
      await mine(CONFIRMATIONS);
      await pause(1_500);
      expect(await balances()).toEqual(want);

      // Shown as below the minimum: exactly the below-minimum transfers on the chain, none a re-organisation dropped.
      const db = new pg.Client({ connectionString: plat.env.DATABASE_URL });
      await db.connect();
      try {
        const shown = await db.query<{ row: string }>(
          "SELECT to_address || ' ' || tx_hash || ' ' || amount AS row FROM deposits WHERE status = 'failed' AND failure_reason = $1",
          [MSG.depositBelowMinimum],
        );
        expect(shown.rows.map((r) => r.row).sort()).toEqual(belowOnChain.sort());
      } finally {
        await db.end();
      }

      for (const s of instances) await s.stop();
      const reconcile = await runCliAsync('chain-reconcile', [], plat.env);
      expect(reconcile.output, reconcile.output).toMatch(/Chain reconciliation: no differences/);
      expect(reconcile.status).toBe(0);
      const ledger = await runCliAsync('ledger-check', [], plat.env);
      expect(ledger.status, ledger.output).toBe(0);
    },
  );
});
