import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, toEventSelector, type Address, type Hex } from 'viem';
import { anvilAvailability, deployToken, sendToken, startAnvil, type Anvil, type Token } from '../anvil.ts';
import { CHROME_LINUX, FIREFOX_WINDOWS, lastMail, linkToken, signIn } from '../account/support.ts';
import {
  call,
  expectLedgerClean,
  makeUser,
  sessionToken,
  TEST_SECRET,
  testConfig,
  type TestApp,
  type TestUser,
} from '../helpers.ts';
import { seedFromEnv } from '../simulation/model.ts';
import { startSmtp } from '../smtp.ts';
import { DEV_MNEMONIC } from '../support/dev-wallet.ts';
import { scratchPostgres } from '../support/processes.ts';
import { buildApp } from '../../src/app.ts';
import type { AppContext } from '../../src/context.ts';
import { openPostgres } from '../../src/db/client.ts';
import { rawRows } from '../../src/db/raw.ts';
import { userBalances } from '../../src/ledger/ledger.ts';
import { SettableClock } from '../../src/lib/clock.ts';
import { deliverOutbox } from '../../src/mail/outbox.ts';
import { depositWatcher } from '../../src/modules/deposits/deposit-watcher.ts';
import { reconcile } from '../../src/modules/reconciliation/reconcile.ts';
import { differenceLine } from '../../src/modules/reconciliation/reconciliation.service.ts';

/**
 * Money out as a model-based test: fast-check draws sequences of Withdraw All (by the owner or by a
 * thief's new session), approval by hash (the payout sent first, as an operator does; also for withdrawals the
 * approval must refuse), rejection, payout batches (export, download, cancel with its grace, the multisig executing a
 * downloaded file, stale or not), freezes, "this wasn't me" from the e-mailed link, stray payouts, an administrator
 * settling found payouts (assign, dismiss) and clock moves.
 * Two app instances share one PostgreSQL, one anvil chain with an EIP-3009 6-decimal USDC, one clock and one mailer;
 * each call goes to the instance the command drew, each watcher pass to either (the lease handed back after it).
 *
 * A small exact model (micro-USDC bigints) predicts every answer and what the watcher makes of every transfer out of
 * the payout wallet. After every command the real system is compared with it, and the invariants are checked against
 * the database and the chain: no withdrawal paid twice (one payout entry each, never more approved to a wallet or
 * with a hash than the chain carried), no frozen account paid, the payout wallet's outflow equals the approved net
 * amounts plus the outflow the model knows is unexplained, `chain:reconcile` names exactly those outflows (clean
 * exactly when there is none), and the ledger check passes.
 *
 * Each run makes its own investors and wallets; the database and the chain keep earlier runs' rows, so every
 * comparison is about what the run made. MODEL_SEED=<n> MODEL_RUNS=<n> MODEL_COMMANDS=<n> replay or lengthen a
 * run; a failure prints the seed and fast-check's path (MODEL_PATH) and the commands' replay path (MODEL_REPLAY).
 */
const avail = anvilAvailability();
const SEED = seedFromEnv('MODEL_SEED');
const RUNS = Number(process.env.MODEL_RUNS ?? 5);
const COMMANDS = Number(process.env.MODEL_COMMANDS ?? 30);
const PATH = process.env.MODEL_PATH;
const REPLAY = process.env.MODEL_REPLAY;
const TIME_LIMIT_MS = 25 * 60_000;
const CONFIRMATIONS = 2;
const INVESTORS = 3;
const WALLETS = 2;
/** Few amounts, so that two withdrawals to one wallet often ask for the same net amount (the watcher must not guess). */
const AMOUNTS = [10_000_000n, 25_000_000n, 7_654_321n];
/** A stray payout's amount no withdrawal asks for. */
const ODD = 3_141_592n;
const HOURS = [1, 23, 24, 25];
const GRACE_MS = 24 * 3600_000;
const START = new Date('2026-11-25T09:00:00Z');
const TRANSFER = toEventSelector('Transfer(address,address,uint256)');
const NEW_SIGN_IN = 'New sign-in to your Harvest Farm account';
/** What the runs did and met, printed at the end: commands run, answers refused, watcher outcomes, differences. */
const stats = new Map<string, number>();
const count = (what: string) => stats.set(what, (stats.get(what) ?? 0) + 1);
/** Every difference reconcile named in some check (its kind and transaction). */
const namedSeen = new Set<string>();

// ---------------------------------------------------------------- the model

type Status = 'pending' | 'approved' | 'rejected';
/** What became of a transfer out of the payout wallet (payout_transfers.status): the watcher's, or an administrator's. */
type Outcome = 'matched' | 'unmatched' | 'ambiguous' | 'held' | 'dismissed';
/** The found payouts an administrator has to settle. */
const OPEN: Outcome[] = ['unmatched', 'ambiguous', 'held'];

interface Investor {
  u: TestUser;
  /** The owner's own session (signed in from their usual device). */
  token: string;
  deposit: Address;
  balance: bigint;
  frozen: boolean;
  /** A session from a device the account had not used: its sign-in mailed a "this wasn't me" link. */
  thief: { token: string; session: string } | null;
  signIns: number;
}
interface Withdrawal {
  id: string;
  owner: number;
  wallet: string;
  net: bigint;
  /** 'own', or the thief session that asked for it. */
  session: string;
  status: Status;
  txHash: string | null;
  batchId: string | null;
}
interface Batch {
  id: string;
  status: 'open' | 'cancelled' | 'completed';
  downloaded: boolean;
  graceUntil: number | null;
}
/** A downloaded Safe file: what the multisig holds and may execute (once), whatever became of its batch. */
interface SafeFile {
  batchId: string;
  transfers: { to: string; value: bigint }[];
  executed: boolean;
}
interface PayoutLog {
  txHash: string;
  logIndex: number;
  to: string;
  value: bigint;
  outcome: Outcome;
}
interface Model {
  run: number;
  now: number;
  inv: Investor[];
  wallets: Address[];
  wds: Withdrawal[];
  batches: Batch[];
  files: SafeFile[];
  /** Every transfer out of the payout wallet in this run, in chain order. */
  logs: PayoutLog[];
}
interface Real {
  adminToken: string;
  /** The payout wallet's balance when the run started. */
  payoutStart: bigint;
}
type Difference = {
  kind: string;
  address: string | null;
  txHash: string | null;
  chainAmount: bigint | null;
  creditedAmount: bigint | null;
};

const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
const batchOf = (m: Readonly<Model>, id: string) => {
  const b = m.batches.find((x) => x.id === id);
  if (!b) throw new Error(`no batch ${id} in the model`);
  return b;
};
const frozen = (m: Readonly<Model>, w: Withdrawal) => m.inv[w.owner]!.frozen;
/** batches.service.ts inPayment: its batch is open, or cancelled after a download and inside the grace. */
function inPayment(m: Readonly<Model>, w: Withdrawal): boolean {
  if (!w.batchId) return false;
  const b = batchOf(m, w.batchId);
  return b.status === 'open' || (b.status === 'cancelled' && b.graceUntil !== null && b.graceUntil > m.now);
}
const approvable = (m: Readonly<Model>, w: Withdrawal) => w.status === 'pending' && !frozen(m, w) && !inPayment(m, w);
const approvedWith = (m: Readonly<Model>, txHash: string, wallet: string) =>
  m.wds.filter((w) => w.status === 'approved' && w.txHash === txHash && w.wallet === wallet);

function approve(m: Model, w: Withdrawal, txHash: string): void {
  expect(w.status, `${w.id} approved once`).toBe('pending');
  expect(frozen(m, w), `${w.id}: a frozen account is not paid`).toBe(false);
  w.status = 'approved';
  w.txHash = txHash;
  // The decision that leaves an open batch without a pending withdrawal completes it.
  const b = w.batchId ? batchOf(m, w.batchId) : null;
  if (b?.status === 'open' && !m.wds.some((x) => x.batchId === b.id && x.status === 'pending')) b.status = 'completed';
}
function reject(m: Model, w: Withdrawal): void {
  w.status = 'rejected';
  m.inv[w.owner]!.balance += w.net;
}

/**
 * What the watcher makes of one transfer out of the payout wallet (payouts.service.ts settlePayouts): matched when
 * approvals by hand with this hash account for all it carried to the wallet; else the pending withdrawals to that
 * wallet that ask for exactly this amount (each Withdraw All here is one withdrawal, so a request or a batch's request
 * adds no other set). One: it completes it, unless its account is frozen (held) or approvals by hand leave no room
 * for it (refused: unmatched). None: unmatched. Several: ambiguous (nothing guessed).
 */
function settle(m: Model, l: Omit<PayoutLog, 'outcome'>, txLogs: Omit<PayoutLog, 'outcome'>[]): Outcome {
  const carried = sum(txLogs.filter((x) => x.to === l.to).map((x) => x.value));
  const byHand = approvedWith(m, l.txHash, l.to);
  if (byHand.length > 0 && sum(byHand.map((x) => x.net)) >= carried) return 'matched';
  const fits = m.wds.filter((w) => w.status === 'pending' && w.wallet === l.to && w.net === l.value);
  if (fits.length !== 1) return fits.length === 0 ? 'unmatched' : 'ambiguous';
  const w = fits[0]!;
  if (frozen(m, w)) return 'held';
  // What an approval by hand with this hash left uncovered is all this transfer may still pay (approvePaidBy: short).
  if (sum(byHand.map((x) => x.net)) + w.net > carried) return 'unmatched';
  approve(m, w, l.txHash);
  return 'matched';
}

/** This run's payouts per transaction and wallet: what the chain carried, what was approved with it, its first transfer. */
function payouts(m: Readonly<Model>) {
  const groups = new Map<string, { txHash: string; to: string; total: bigint; paid: bigint; first: PayoutLog }>();
  for (const l of m.logs) {
    const k = `${l.txHash}:${l.to}`;
    const g = groups.get(k) ?? { txHash: l.txHash, to: l.to, total: 0n, paid: 0n, first: l };
    g.total += l.value;
    groups.set(k, g);
  }
  for (const g of groups.values()) g.paid = sum(approvedWith(m, g.txHash, g.to).map((w) => w.net));
  return [...groups.values()];
}

/**
 * What `reconcile` must say about this run's payouts (money-out.ts): per transaction and wallet, what the chain carried
 * beyond the withdrawals approved with that hash is overpaid (some approved), paid_after_rejection (the amount of a
 * rejected withdrawal to that wallet) or unmatched_payout; unless nothing was approved with it and an administrator
 * dismissed it (the operator's own move, audited).
 */
function expectedDifferences(m: Readonly<Model>): Difference[] {
  const out: Difference[] = [];
  for (const g of payouts(m)) {
    if (g.total <= g.paid || (g.paid === 0n && g.first.outcome === 'dismissed')) continue;
    const base = { address: g.to, txHash: g.txHash, chainAmount: g.total };
    if (g.paid > 0n) out.push({ ...base, kind: 'overpaid', creditedAmount: g.paid });
    else {
      const rejected = m.wds.filter((w) => w.status === 'rejected' && w.wallet === g.to).map((w) => w.net);
      const kind = rejected.includes(g.total) ? 'paid_after_rejection' : 'unmatched_payout';
      out.push({ ...base, kind, creditedAmount: null });
    }
  }
  return out;
}
/** The outflow no approval carries (injected, held, paid again, stale), to the micro-USDC. */
const unapproved = (m: Readonly<Model>) => sum(payouts(m).map((g) => (g.total > g.paid ? g.total - g.paid : 0n)));
const byKey = (a: Difference, b: Difference) =>
  `${a.txHash}:${a.address}:${a.kind}`.localeCompare(`${b.txHash}:${b.address}:${b.kind}`);

// ---------------------------------------------------------------- the system

/**
 * The instances' one clock, stopped between the model's moves (a SettableClock keeps running from the time it was set
 * to): a grace ends exactly when the model says, e.g. at the 24th hour after a cancel, not a few milliseconds later.
 */
class StoppedClock extends SettableClock {
  private at = START.getTime();
  override now(): Date {
    return new Date(this.at);
  }
  override set(to: Date): void {
    this.at = to.getTime();
  }
}

let chain: Anvil;
let token: Token;
let payout: Address;
let sender: Address;
let clock: StoppedClock;
let apps: [TestApp, TestApp];
let admin: TestUser;
let closeAll: () => Promise<void>;
/** Every run's wallets: any difference reconcile names is about one of them (money in stays clean). */
const allWallets = new Set<string>();
let runs = 0;
let keys = 0;

const app = (i: number) => apps[i % 2]!;
const micro = (usdc: number) => BigInt(Math.round(usdc * 1_000_000));
const balanceOf = async (a: string) =>
  (await chain.publicClient.readContract({
    address: token.address,
    abi: token.abi,
    functionName: 'balanceOf',
    args: [a as Address],
  })) as bigint;
const topicAddress = (topic: Hex | undefined) => `0x${(topic ?? '').slice(26)}`.toLowerCase();

/** The chain moves DEPOSIT_CONFIRMATIONS blocks, then a watcher pass, on each instance in turn (the lease given back). */
async function passes(inst: number): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await chain.mine(CONFIRMATIONS);
    const w = depositWatcher(app(inst + i).ctx);
    const res = await w.pass();
    await w.release();
    expect(
      res.stopped,
      JSON.stringify(res, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    ).toBe(undefined);
  }
}

/** The payout transfers of one transaction, from its receipt, in log order. */
async function payoutLogs(hash: Hex): Promise<Omit<PayoutLog, 'outcome'>[]> {
  const receipt = await chain.publicClient.getTransactionReceipt({ hash });
  return receipt.logs
    .filter(
      (l) =>
        l.address.toLowerCase() === token.address.toLowerCase() &&
        l.topics[0] === TRANSFER &&
        topicAddress(l.topics[1]) === payout.toLowerCase(),
    )
    .map((l) => ({
      txHash: hash.toLowerCase(),
      logIndex: l.logIndex,
      to: topicAddress(l.topics[2]),
      value: BigInt(l.data),
    }));
}

/**
 * The payout wallet sends these transfers in one transaction; `meanwhile` runs before the watcher reads it (an
 * approval by hash); then the watcher passes and the model settles each transfer as the watcher must have.
 */
async function pay(
  m: Model,
  inst: number,
  transfers: { to: string; value: bigint }[],
  meanwhile?: (hash: string) => Promise<void>,
): Promise<void> {
  const to = transfers.map((x) => getAddress(x.to));
  const values = transfers.map((x) => x.value);
  const hash =
    transfers.length === 1
      ? await sendToken(chain, token, payout, 'transfer', [to[0], values[0]])
      : await sendToken(chain, token, payout, 'transferBatch', [to, values]);
  const logs = await payoutLogs(hash);
  expect(logs.map((l) => [l.to, l.value])).toEqual(transfers.map((x) => [x.to.toLowerCase(), x.value]));
  await meanwhile?.(hash.toLowerCase());
  await passes(inst);
  for (const l of logs) {
    const outcome = settle(m, l, logs);
    count(`payout ${outcome}`);
    m.logs.push({ ...l, outcome });
  }
}

function expectError(res: { statusCode: number; data: { code?: string } }, status: number, code: string): void {
  count(`refused ${status} ${code}`);
  expect({ status: res.statusCode, code: res.data?.code }, JSON.stringify(res.data)).toEqual({ status, code });
}
const asAdmin = (
  r: Real,
  inst: number,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
): ReturnType<typeof call> =>
  call(app(inst), method, url, {
    token: r.adminToken,
    ...(body === undefined ? {} : { body }),
    ...(method === 'GET' ? {} : { headers: { 'idempotency-key': `model-${++keys}-${Date.now()}` } }),
  });

/** Downloads a batch's Safe file: it pays exactly the batch's pending withdrawals of accounts not frozen. */
async function download(m: Model, r: Real, inst: number, b: Batch): Promise<void> {
  const file = await asAdmin(r, inst, 'GET', `/api/withdrawal/admin/batches/${b.id}/file?format=safe`);
  expect(file.statusCode, file.body).toBe(200);
  const transfers = (file.data.transactions as { contractInputsValues: { to: string; value: string } }[]).map((x) => ({
    to: x.contractInputsValues.to.toLowerCase(),
    value: BigInt(x.contractInputsValues.value),
  }));
  const payable = m.wds.filter((w) => w.batchId === b.id && w.status === 'pending' && !frozen(m, w));
  const key = (x: { to: string; value: bigint }) => `${x.to}:${x.value}`;
  expect(transfers.map(key).sort()).toEqual(payable.map((w) => key({ to: w.wallet, value: w.net })).sort());
  b.downloaded = true;
  m.files.push({ batchId: b.id, transfers, executed: false });
}

/** Every invariant, read through the other instance than the one the command used. */
async function verify(m: Model, r: Real, inst: number, before: { frozen: boolean[]; approved: Set<string> }) {
  const t = app(inst + 1);
  const db = t.ctx.db;
  const userIds = m.inv.map((i) => i.u.user.id);
  const users = sql.join(
    userIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

  // The model's withdrawals, batches, freezes and balances are the database's.
  const rows = await rawRows<{
    id: string;
    status: Status;
    tx_hash: string | null;
    net: string;
    wallet_address: string;
    batch_id: string | null;
  }>(
    db,
    sql`SELECT id::text, status, tx_hash, net_amount::text AS net, wallet_address, batch_id::text
        FROM withdrawals WHERE user_id IN (${users})`,
  );
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  expect(
    rows
      .map((w) => ({
        id: w.id,
        status: w.status,
        txHash: w.tx_hash,
        net: BigInt(w.net),
        wallet: w.wallet_address,
        batchId: w.batch_id,
      }))
      .sort(byId),
  ).toEqual(
    m.wds
      .map((w) => ({ id: w.id, status: w.status, txHash: w.txHash, net: w.net, wallet: w.wallet, batchId: w.batchId }))
      .sort(byId),
  );
  if (m.batches.length > 0) {
    const batches = await rawRows<{ id: string; status: string; downloaded: boolean; grace_until: Date | null }>(
      db,
      sql`SELECT id::text, status, downloaded_at IS NOT NULL AS downloaded, grace_until FROM payout_batches
          WHERE id IN (${sql.join(
            m.batches.map((b) => sql`${b.id}::uuid`),
            sql`, `,
          )})`,
    );
    expect(
      batches
        .map((b) => ({
          id: b.id,
          status: b.status,
          downloaded: b.downloaded,
          graceUntil: b.grace_until ? new Date(b.grace_until).getTime() : null,
        }))
        .sort(byId),
    ).toEqual([...m.batches].sort(byId));
  }
  const flags = await rawRows<{ id: string; frozen: boolean }>(
    db,
    sql`SELECT id::text, withdrawals_frozen AS frozen FROM users WHERE id IN (${users})`,
  );
  expect(Object.fromEntries(flags.map((u) => [u.id, u.frozen]))).toEqual(
    Object.fromEntries(m.inv.map((i) => [i.u.user.id, i.frozen])),
  );
  for (const [k, i] of m.inv.entries()) {
    const held = sum(m.wds.filter((w) => w.owner === k && w.status === 'pending').map((w) => w.net));
    expect(await userBalances(db, i.u.user.id)).toMatchObject({ balance: i.balance, pending_withdrawal: held });
  }

  // What the watcher made of each payout transfer to this run's wallets.
  const wallets = sql.join(
    m.wallets.map((w) => sql`${w.toLowerCase()}`),
    sql`, `,
  );
  const found = await rawRows<{
    tx_hash: string;
    log_index: number;
    to_address: string;
    amount: string;
    status: string;
  }>(
    db,
    sql`SELECT tx_hash, log_index, to_address, amount::text, status FROM payout_transfers WHERE to_address IN (${wallets})`,
  );
  const logKey = (x: { txHash: string; logIndex: number }) => `${x.txHash}:${x.logIndex}`;
  expect(
    found
      .map((p) => ({
        txHash: p.tx_hash,
        logIndex: p.log_index,
        to: p.to_address,
        value: BigInt(p.amount),
        outcome: p.status,
      }))
      .sort((a, b) => logKey(a).localeCompare(logKey(b))),
  ).toEqual([...m.logs].sort((a, b) => logKey(a).localeCompare(logKey(b))));

  // (a) No withdrawal paid twice: one payout entry for each approved one, one release for each rejected one.
  if (m.wds.length > 0) {
    const entries = await rawRows<{ ref_id: string; kind: string; n: number }>(
      db,
      sql`SELECT ref_id, kind, count(*)::int AS n FROM ledger_transactions
          WHERE kind IN ('withdrawal_payout', 'withdrawal_release') AND ref_id IN (${sql.join(
            m.wds.map((w) => sql`${w.id}`),
            sql`, `,
          )}) GROUP BY ref_id, kind`,
    );
    const entry = (id: string, kind: string) => entries.find((e) => e.ref_id === id && e.kind === kind)?.n ?? 0;
    for (const w of m.wds) {
      expect(entry(w.id, 'withdrawal_payout'), `${w.id} paid`).toBe(w.status === 'approved' ? 1 : 0);
      expect(entry(w.id, 'withdrawal_release'), `${w.id} released`).toBe(w.status === 'rejected' ? 1 : 0);
    }
  }
  // (b) Nothing of an account frozen when its payout was found was approved.
  for (const w of m.wds)
    if (w.status === 'approved' && !before.approved.has(w.id))
      expect(before.frozen[w.owner] || m.inv[w.owner]!.frozen, `${w.id} approved while frozen`).toBe(false);

  // (a) on the chain: a wallet never holds fewer than the net amounts approved to it, and each approval's transaction
  // carries what was approved with it to its wallet.
  const received = await Promise.all(m.wallets.map((w) => balanceOf(w)));
  for (const [k, w] of m.wallets.entries()) {
    const approved = sum(
      m.wds.filter((x) => x.status === 'approved' && x.wallet === w.toLowerCase()).map((x) => x.net),
    );
    expect(approved <= received[k]!, `${w}: approved ${approved}, received ${received[k]}`).toBe(true);
  }
  for (const w of m.wds.filter((x) => x.status === 'approved')) {
    const carried = sum(m.logs.filter((l) => l.txHash === w.txHash && l.to === w.wallet).map((l) => l.value));
    const approved = sum(approvedWith(m, w.txHash ?? '', w.wallet).map((x) => x.net));
    expect(approved <= carried, `${w.txHash} carries ${carried}, approved ${approved}`).toBe(true);
  }
  // (c) The payout wallet's outflow is the approved net amounts plus the outflow no approval carries, to the micro-USDC.
  const outflow = r.payoutStart - (await balanceOf(payout));
  expect(sum(received)).toBe(outflow);
  expect(outflow).toBe(sum(m.wds.filter((w) => w.status === 'approved').map((w) => w.net)) + unapproved(m));

  // (d) The reconciliation names exactly the outflows the model knows are unexplained: clean exactly when none.
  const result = await reconcile({ db, chain: t.ctx.chain!, config: t.ctx.config });
  const mine = new Set(m.wallets.map((w) => w.toLowerCase()));
  const named: Difference[] = result.differences
    .filter((d) => d.address !== null && mine.has(d.address))
    .map((d) => ({
      kind: d.kind,
      address: d.address,
      txHash: d.txHash,
      chainAmount: d.chainAmount,
      creditedAmount: d.creditedAmount,
    }));
  expect(named.sort(byKey)).toEqual(expectedDifferences(m).sort(byKey));
  for (const d of result.differences) expect(allWallets.has(d.address ?? ''), differenceLine(d)).toBe(true);
  count(named.length === 0 ? 'checks with reconcile clean' : 'checks with reconcile naming outflows');
  for (const d of named) namedSeen.add(`${d.kind} ${d.txHash}`);

  // (e) The books balance.
  await expectLedgerClean(t);
}

// ---------------------------------------------------------------- the commands

abstract class Step implements fc.AsyncCommand<Model, Real> {
  /** The instance this command's calls go to (the checks read through the other one). */
  constructor(readonly inst: number) {}
  abstract check(m: Readonly<Model>): boolean;
  protected abstract act(m: Model, r: Real): Promise<void>;
  abstract toString(): string;
  async run(m: Model, r: Real): Promise<void> {
    const before = {
      frozen: m.inv.map((i) => i.frozen),
      approved: new Set(m.wds.filter((w) => w.status === 'approved').map((w) => w.id)),
    };
    count(this.constructor.name);
    await this.act(m, r);
    await verify(m, r, this.inst, before);
  }
}

class Deposit extends Step {
  constructor(
    readonly who: number,
    readonly amount: number,
    inst: number,
  ) {
    super(inst);
  }
  check(): boolean {
    return true;
  }
  async act(m: Model) {
    const i = m.inv[this.who % m.inv.length]!;
    const amount = AMOUNTS[this.amount % AMOUNTS.length]!;
    await sendToken(chain, token, sender, 'transfer', [i.deposit, amount]);
    await passes(this.inst);
    i.balance += amount;
  }
  toString(): string {
    return `Deposit(investor ${this.who}, ${AMOUNTS[this.amount % AMOUNTS.length]}) @${this.inst}`;
  }
}

class WithdrawAll extends Step {
  constructor(
    readonly who: number,
    readonly wallet: number,
    readonly thief: boolean,
    inst: number,
  ) {
    super(inst);
  }
  check(): boolean {
    return true;
  }
  async act(m: Model) {
    const k = this.who % m.inv.length;
    const i = m.inv[k]!;
    const wallet = m.wallets[this.wallet % m.wallets.length]!;
    const by = this.thief && i.thief ? i.thief : null;
    const res = await call(app(this.inst), 'POST', '/api/withdrawal/request-all', {
      token: by?.token ?? i.token,
      body: { walletAddress: wallet, withdrawalPassword: i.u.withdrawalPassword },
      headers: { 'idempotency-key': `model-${++keys}-${Date.now()}` },
    });
    if (i.balance === 0n) return expectError(res, 400, 'no_funds');
    if (i.frozen) return expectError(res, 403, 'withdrawals_frozen');
    expect(res.statusCode, res.body).toBe(200);
    const mine = await call(app(this.inst + 1), 'GET', '/api/withdrawal/my-withdrawals', { token: i.token });
    const fresh = (
      mine.data.withdrawals as { _id: string; status: string; netAmount: number; walletAddress: string }[]
    ).filter((w) => !m.wds.some((x) => x.id === w._id));
    expect(fresh).toEqual([
      expect.objectContaining({
        status: 'pending',
        netAmount: Number(i.balance) / 1e6,
        walletAddress: wallet.toLowerCase(),
      }),
    ]);
    m.wds.push({
      id: fresh[0]!._id,
      owner: k,
      wallet: wallet.toLowerCase(),
      net: i.balance,
      session: by?.session ?? 'own',
      status: 'pending',
      txHash: null,
      batchId: null,
    });
    i.balance = 0n;
  }
  toString(): string {
    return `WithdrawAll(investor ${this.who}, wallet ${this.wallet}${this.thief ? ', thief' : ''}) @${this.inst}`;
  }
}

/** The operator pays a withdrawal the approval will accept, then approves it with the transaction's hash. */
class ApprovePaid extends Step {
  constructor(
    readonly pick: number,
    inst: number,
  ) {
    super(inst);
  }
  check(m: Readonly<Model>): boolean {
    return m.wds.some((w) => approvable(m, w));
  }
  async act(m: Model, r: Real) {
    const open = m.wds.filter((w) => approvable(m, w));
    const w = open[this.pick % open.length]!;
    await pay(m, this.inst, [{ to: w.wallet, value: w.net }], async (hash) => {
      const res = await asAdmin(r, this.inst, 'POST', '/api/withdrawal/admin/approve', {
        withdrawalId: w.id,
        txHash: hash,
      });
      expect(res.statusCode, res.body).toBe(200);
      approve(m, w, hash);
    });
  }
  toString(): string {
    return `ApprovePaid(${this.pick}) @${this.inst}`;
  }
}

/**
 * The operator pays a withdrawal the approval must refuse (decided, frozen, or in a payout batch), then tries to
 * approve it: refused; the transfer is left to the watcher (which completes a withdrawal in payment, holds a frozen
 * one's, and cannot explain a second payment).
 */
class ApproveRefused extends Step {
  constructor(
    readonly pick: number,
    inst: number,
  ) {
    super(inst);
  }
  check(m: Readonly<Model>): boolean {
    return m.wds.some((w) => !approvable(m, w));
  }
  async act(m: Model, r: Real) {
    const refused = m.wds.filter((w) => !approvable(m, w));
    const w = refused[this.pick % refused.length]!;
    const [status, code] =
      w.status !== 'pending' ? [409, 'conflict'] : frozen(m, w) ? [403, 'withdrawals_frozen'] : [409, 'in_payment'];
    await pay(m, this.inst, [{ to: w.wallet, value: w.net }], async (hash) => {
      const res = await asAdmin(r, this.inst, 'POST', '/api/withdrawal/admin/approve', {
        withdrawalId: w.id,
        txHash: hash,
      });
      expectError(res, status, code);
    });
  }
  toString(): string {
    return `ApproveRefused(${this.pick}) @${this.inst}`;
  }
}

class Reject extends Step {
  constructor(
    readonly pick: number,
    inst: number,
  ) {
    super(inst);
  }
  check(m: Readonly<Model>): boolean {
    return m.wds.length > 0;
  }
  async act(m: Model, r: Real) {
    const w = m.wds[this.pick % m.wds.length]!;
    const res = await asAdmin(r, this.inst, 'POST', '/api/withdrawal/admin/reject', {
      withdrawalId: w.id,
      notes: 'no',
    });
    if (w.status !== 'pending') return expectError(res, 409, 'conflict');
    if (inPayment(m, w)) return expectError(res, 409, 'in_payment');
    expect(res.statusCode, res.body).toBe(200);
    reject(m, w);
  }
  toString(): string {
    return `Reject(${this.pick}) @${this.inst}`;
  }
}

/**
 * Exports pending withdrawals as a payout batch (all or nothing): mostly ones it can take, sometimes any pending one
 * (`any`: a frozen account's is refused 403, one another batch holds in payment 409).
 */
class Export extends Step {
  constructor(
    readonly picks: number[],
    readonly grouped: boolean,
    readonly downloaded: boolean,
    readonly any: boolean,
    inst: number,
  ) {
    super(inst);
  }
  private choices(m: Readonly<Model>) {
    return m.wds.filter((w) => (this.any ? w.status === 'pending' : approvable(m, w)));
  }
  check(m: Readonly<Model>): boolean {
    return this.choices(m).length > 0;
  }
  async act(m: Model, r: Real) {
    const from = this.choices(m);
    const chosen = [...new Set(this.picks.map((p) => from[p % from.length]!))];
    const res = await asAdmin(r, this.inst, 'POST', '/api/withdrawal/admin/batches', {
      withdrawalIds: chosen.map((w) => w.id),
      grouped: this.grouped,
    });
    if (chosen.some((w) => frozen(m, w))) return expectError(res, 403, 'withdrawals_frozen');
    if (chosen.some((w) => inPayment(m, w))) return expectError(res, 409, 'conflict');
    expect(res.statusCode, res.body).toBe(201);
    const b: Batch = { id: res.data.batch._id as string, status: 'open', downloaded: false, graceUntil: null };
    m.batches.push(b);
    for (const w of chosen) w.batchId = b.id;
    if (this.downloaded) await download(m, r, this.inst + 1, b);
  }
  toString(): string {
    const flags = [this.grouped && 'grouped', this.downloaded && 'downloaded', this.any && 'any pending'];
    return `Export([${[...this.picks, ...flags.filter(Boolean)].join(', ')}]) @${this.inst}`;
  }
}

class Download extends Step {
  constructor(
    readonly pick: number,
    inst: number,
  ) {
    super(inst);
  }
  check(m: Readonly<Model>): boolean {
    return m.batches.length > 0;
  }
  async act(m: Model, r: Real) {
    const b = m.batches[this.pick % m.batches.length]!;
    if (b.status === 'open') return download(m, r, this.inst, b);
    const res = await asAdmin(r, this.inst, 'GET', `/api/withdrawal/admin/batches/${b.id}/file?format=safe`);
    expectError(res, 409, 'conflict');
  }
  toString(): string {
    return `Download(${this.pick}) @${this.inst}`;
  }
}

/** Cancels a batch; a downloaded one only with the administrator's word that it was not executed (a 24 h grace). */
class Cancel extends Step {
  constructor(
    readonly pick: number,
    inst: number,
  ) {
    super(inst);
  }
  check(m: Readonly<Model>): boolean {
    return m.batches.length > 0;
  }
  async act(m: Model, r: Real) {
    const b = m.batches[this.pick % m.batches.length]!;
    const url = `/api/withdrawal/admin/batches/${b.id}/cancel`;
    const unconfirmed = await asAdmin(r, this.inst, 'POST', url, {});
    if (b.status !== 'open') return expectError(unconfirmed, 409, 'conflict');
    if (b.downloaded) {
      expectError(unconfirmed, 409, 'batch_downloaded');
      const res = await asAdmin(r, this.inst + 1, 'POST', url, { confirmNotExecuted: true });
      expect(res.statusCode, res.body).toBe(200);
      b.graceUntil = m.now + GRACE_MS;
    } else {
      expect(unconfirmed.statusCode, unconfirmed.body).toBe(200);
      for (const w of m.wds) if (w.batchId === b.id && w.status === 'pending') w.batchId = null;
    }
    b.status = 'cancelled';
  }
  toString(): string {
    return `Cancel(${this.pick}) @${this.inst}`;
  }
}

/** The multisig executes a file it holds: its batch may be cancelled since, its withdrawals rejected or frozen since. */
class Execute extends Step {
  constructor(
    readonly pick: number,
    inst: number,
  ) {
    super(inst);
  }
  check(m: Readonly<Model>): boolean {
    return m.files.some((f) => !f.executed && f.transfers.length > 0);
  }
  async act(m: Model) {
    const ready = m.files.filter((f) => !f.executed && f.transfers.length > 0);
    const f = ready[this.pick % ready.length]!;
    f.executed = true;
    await pay(m, this.inst, f.transfers);
  }
  toString(): string {
    return `Execute(${this.pick}) @${this.inst}`;
  }
}

class Freeze extends Step {
  constructor(
    readonly who: number,
    readonly frozen: boolean,
    inst: number,
  ) {
    super(inst);
  }
  check(): boolean {
    return true;
  }
  async act(m: Model, r: Real) {
    const i = m.inv[this.who % m.inv.length]!;
    const res = await asAdmin(r, this.inst, 'PUT', `/api/admin/users/${i.u.user.id}/withdrawals-frozen`, {
      frozen: this.frozen,
    });
    expect(res.statusCode, res.body).toBe(200);
    i.frozen = this.frozen;
  }
  toString(): string {
    return `${this.frozen ? 'Freeze' : 'Unfreeze'}(investor ${this.who}) @${this.inst}`;
  }
}

/** Someone with both passwords signs in from a device the account had not used: the owner is mailed a link. */
class ThiefSignIn extends Step {
  constructor(
    readonly who: number,
    inst: number,
  ) {
    super(inst);
  }
  check(m: Readonly<Model>): boolean {
    return m.inv.some((i) => !i.thief);
  }
  async act(m: Model) {
    const free = m.inv.filter((i) => !i.thief);
    const i = free[this.who % free.length]!;
    i.signIns++;
    const res = await signIn(app(this.inst), i.u, {
      ua: FIREFOX_WINDOWS,
      deviceId: `thief-${i.u.user.id}-${i.signIns}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    i.thief = { token: res.data.token as string, session: `thief-${i.signIns}` };
  }
  toString(): string {
    return `ThiefSignIn(${this.who}) @${this.inst}`;
  }
}

/**
 * The owner follows the mailed "this wasn't me" link: withdrawals frozen, every session ended, and what the reported
 * session asked for and is not in payment rejected (one in payment stays, frozen). The owner signs in again.
 */
class NotMe extends Step {
  constructor(
    readonly who: number,
    inst: number,
  ) {
    super(inst);
  }
  check(m: Readonly<Model>): boolean {
    return m.inv.some((i) => i.thief);
  }
  async act(m: Model) {
    const reported = m.inv.filter((i) => i.thief);
    const i = reported[this.who % reported.length]!;
    const k = m.inv.indexOf(i);
    // The outbox holds every run's mails and delivers 20 a call: all of it first.
    while ((await deliverOutbox(app(this.inst).ctx)).sent > 0);
    const mail = await lastMail(app(this.inst), i.u.user.email, NEW_SIGN_IN);
    const res = await call(app(this.inst), 'POST', '/api/security/not-me', {
      body: { token: linkToken(mail, 'not-me') },
    });
    expect(res.statusCode, res.body).toBe(200);
    i.frozen = true;
    for (const w of m.wds)
      if (w.owner === k && w.status === 'pending' && w.session === i.thief!.session && !inPayment(m, w)) reject(m, w);
    i.thief = null;
    expect((await call(app(this.inst + 1), 'GET', '/api/user/me', { token: i.token })).statusCode).toBe(401);
    const again = await signIn(app(this.inst + 1), i.u, { ua: CHROME_LINUX, deviceId: `own-${i.u.user.id}` });
    expect(again.statusCode, again.body).toBe(200);
    i.token = again.data.token as string;
  }
  toString(): string {
    return `NotMe(${this.who}) @${this.inst}`;
  }
}

/** A found payout's id, from the administrator's list of the payouts to settle. */
async function foundId(r: Real, inst: number, l: PayoutLog): Promise<string> {
  const res = await asAdmin(r, inst, 'GET', '/api/withdrawal/admin/payouts');
  const found = (res.data.payouts as { _id: string; txHash: string; logIndex: number; status: string }[]).find(
    (p) => p.txHash === l.txHash && p.logIndex === l.logIndex,
  );
  expect(found, `${l.txHash}:${l.logIndex} listed`).toMatchObject({ status: l.outcome });
  return found!._id;
}

/**
 * An administrator says which pending withdrawal to its wallet a found payout paid: every check of an approval (the
 * chain must carry its net amount beside what was approved with that hash already; never a frozen account's), a batch
 * holding it in payment does not stop it.
 */
class Assign extends Step {
  constructor(
    readonly pick: number,
    readonly choice: number,
    inst: number,
  ) {
    super(inst);
  }
  private choices(m: Readonly<Model>) {
    return m.logs.filter(
      (l) => OPEN.includes(l.outcome) && m.wds.some((w) => w.status === 'pending' && w.wallet === l.to),
    );
  }
  check(m: Readonly<Model>): boolean {
    return this.choices(m).length > 0;
  }
  async act(m: Model, r: Real) {
    const open = this.choices(m);
    const l = open[this.pick % open.length]!;
    const to = m.wds.filter((w) => w.status === 'pending' && w.wallet === l.to);
    const w = to[this.choice % to.length]!;
    const res = await asAdmin(
      r,
      this.inst,
      'POST',
      `/api/withdrawal/admin/payouts/${await foundId(r, this.inst, l)}/assign`,
      {
        withdrawalIds: [w.id],
      },
    );
    const carried = sum(m.logs.filter((x) => x.txHash === l.txHash && x.to === l.to).map((x) => x.value));
    const already = sum(approvedWith(m, l.txHash, l.to).map((x) => x.net));
    if (w.net > carried) return expectError(res, 400, 'chain_mismatch');
    if (frozen(m, w)) return expectError(res, 403, 'withdrawals_frozen');
    if (already + w.net > carried) return expectError(res, 400, 'chain_mismatch');
    expect(res.statusCode, res.body).toBe(200);
    approve(m, w, l.txHash);
    l.outcome = 'matched';
  }
  toString(): string {
    return `Assign(${this.pick}, ${this.choice}) @${this.inst}`;
  }
}

/** An administrator says a found payout paid no withdrawal (the operator moved the money): it leaves the list. */
class Dismiss extends Step {
  constructor(
    readonly pick: number,
    inst: number,
  ) {
    super(inst);
  }
  check(m: Readonly<Model>): boolean {
    return m.logs.some((l) => OPEN.includes(l.outcome));
  }
  async act(m: Model, r: Real) {
    const open = m.logs.filter((l) => OPEN.includes(l.outcome));
    const l = open[this.pick % open.length]!;
    const res = await asAdmin(
      r,
      this.inst,
      'POST',
      `/api/withdrawal/admin/payouts/${await foundId(r, this.inst, l)}/dismiss`,
    );
    expect(res.statusCode, res.body).toBe(200);
    l.outcome = 'dismissed';
  }
  toString(): string {
    return `Dismiss(${this.pick}) @${this.inst}`;
  }
}

/** Time passes (one clock for both instances): a cancelled batch's grace may end. */
class Advance extends Step {
  constructor(
    readonly hours: number,
    inst: number,
  ) {
    super(inst);
  }
  check(): boolean {
    return true;
  }
  async act(m: Model) {
    m.now += HOURS[this.hours % HOURS.length]! * 3600_000;
    clock.set(new Date(m.now));
  }
  toString(): string {
    return `Advance(${HOURS[this.hours % HOURS.length]} h) @${this.inst}`;
  }
}

/** An injected fault: the payout wallet sends USDC to an investor's wallet with no approval (an odd amount, or one a withdrawal asks for). */
class StrayPayout extends Step {
  constructor(
    readonly wallet: number,
    readonly amount: number,
    inst: number,
  ) {
    super(inst);
  }
  check(): boolean {
    return true;
  }
  async act(m: Model) {
    const amounts = [ODD, ...m.wds.map((w) => w.net)];
    const to = m.wallets[this.wallet % m.wallets.length]!;
    await pay(m, this.inst, [{ to: to.toLowerCase(), value: amounts[this.amount % amounts.length]! }]);
  }
  toString(): string {
    return `StrayPayout(wallet ${this.wallet}, ${this.amount}) @${this.inst}`;
  }
}

const inst = fc.nat({ max: 1 });
const pick = fc.nat({ max: 50 });
const who = fc.nat({ max: INVESTORS - 1 });
const wallet = fc.nat({ max: WALLETS - 1 });
/** Weighted by repetition: fc.commands draws its arbitraries evenly. */
const times = (n: number, arb: fc.Arbitrary<Step>) => Array.from({ length: n }, () => arb);
const commandArbs: fc.Arbitrary<Step>[] = [
  ...times(
    3,
    fc.tuple(who, wallet, fc.boolean(), inst).map(([a, b, c, d]) => new WithdrawAll(a, b, c, d)),
  ),
  fc.tuple(who, fc.nat({ max: AMOUNTS.length - 1 }), inst).map(([a, b, c]) => new Deposit(a, b, c)),
  ...times(
    2,
    fc.tuple(pick, inst).map(([a, b]) => new ApprovePaid(a, b)),
  ),
  fc.tuple(pick, inst).map(([a, b]) => new ApproveRefused(a, b)),
  fc.tuple(pick, inst).map(([a, b]) => new Reject(a, b)),
  ...times(
    3,
    fc
      // Mostly downloaded at once (what the multisig gets), sometimes left for a later Download or a plain cancel;
      // mostly of withdrawals it can take.
      .tuple(fc.array(pick, { minLength: 1, maxLength: 4 }), fc.boolean(), fc.nat({ max: 3 }), fc.nat({ max: 3 }), inst)
      .map(([a, b, c, d, e]) => new Export(a, b, c > 0, d === 0, e)),
  ),
  fc.tuple(pick, inst).map(([a, b]) => new Download(a, b)),
  ...times(
    2,
    fc.tuple(pick, inst).map(([a, b]) => new Cancel(a, b)),
  ),
  ...times(
    4,
    fc.tuple(pick, inst).map(([a, b]) => new Execute(a, b)),
  ),
  fc.tuple(who, fc.boolean(), inst).map(([a, b, c]) => new Freeze(a, b, c)),
  fc.tuple(who, inst).map(([a, b]) => new ThiefSignIn(a, b)),
  fc.tuple(who, inst).map(([a, b]) => new NotMe(a, b)),
  fc.tuple(fc.nat({ max: HOURS.length - 1 }), inst).map(([a, b]) => new Advance(a, b)),
  fc.tuple(wallet, pick, inst).map(([a, b, c]) => new StrayPayout(a, b, c)),
  fc.tuple(pick, pick, inst).map(([a, b, c]) => new Assign(a, b, c)),
  fc.tuple(pick, inst).map(([a, b]) => new Dismiss(a, b)),
];

/**
 * A run's own world: new investors funded through their deposit addresses (some of whom ask for everything at once, so
 * that the first commands have withdrawals to act on), new wallets, the baselines.
 */
async function setup(start: { amount: number; withdrawTo: number | null }[]): Promise<{ model: Model; real: Real }> {
  const run = ++runs;
  const a = app(run);
  const adminToken = await sessionToken(a, admin.user.id, admin.user.tokenVersion);
  const inv: Investor[] = [];
  for (const { amount } of start) {
    const u = await makeUser(a);
    const me = await call(a, 'GET', '/api/user/me', { token: u.token });
    // The usual device first: a later sign-in from another one is new (and mailed).
    const own = await signIn(a, u, { ua: CHROME_LINUX, deviceId: `own-${u.user.id}` });
    expect(own.statusCode, own.body).toBe(200);
    const deposit = me.data.user.depositAddress as Address;
    const value = AMOUNTS[amount % AMOUNTS.length]!;
    await sendToken(chain, token, sender, 'transfer', [deposit, value]);
    inv.push({ u, token: own.data.token as string, deposit, balance: value, frozen: false, thief: null, signIns: 0 });
  }
  await passes(run);
  const wallets = Array.from({ length: WALLETS }, () => getAddress(`0x${randomBytes(20).toString('hex')}`));
  for (const w of wallets) allWallets.add(w.toLowerCase());
  const model: Model = {
    run,
    now: clock.now().getTime(),
    inv,
    wallets,
    wds: [],
    batches: [],
    files: [],
    logs: [],
  };
  const real: Real = { adminToken, payoutStart: await balanceOf(payout) };
  await verify(model, real, run, { frozen: inv.map(() => false), approved: new Set() });
  for (const [k, { withdrawTo }] of start.entries())
    if (withdrawTo !== null) await new WithdrawAll(k, withdrawTo, false, run + k).run(model, real);
  return { model, real };
}

/** An app on the shared database, clock and mailer: one of the two instances. */
async function instance(
  url: string,
  env: Record<string, string>,
  smtp: TestApp['smtp'],
  mailer?: AppContext['mailer'],
): Promise<TestApp> {
  const config = testConfig(smtp.url, env);
  const database = openPostgres(url, 5);
  const { app: fastify, ctx } = await buildApp({
    config,
    database,
    secret: TEST_SECRET,
    clock,
    ...(mailer ? { mailer } : {}),
  });
  await fastify.ready();
  return {
    app: fastify,
    ctx,
    clock,
    database,
    smtp,
    async close() {
      await fastify.close();
      await database.close();
    },
  };
}

describe.runIf(avail.ok)('money out, model-based: two instances, one PostgreSQL, anvil', () => {
  beforeAll(async () => {
    chain = await startAnvil({ chainId: 137 });
    token = await deployToken(chain);
    payout = chain.accounts[5] as Address;
    sender = chain.accounts[1] as Address;
    for (const to of [sender, payout])
      await sendToken(chain, token, chain.accounts[0] as Address, 'mint', [to, micro(1_000_000)]);
    const scratch = await scratchPostgres();
    const migrator = openPostgres(scratch.url, 1);
    await migrator.migrate();
    await migrator.close();
    const smtp = await startSmtp();
    clock = new StoppedClock();
    const node = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive("m/44'/60'/32'/0");
    const env = {
      CHAIN_RPC_URL: chain.url,
      CHAIN_ID: '137',
      USDC_CONTRACTS: token.address,
      DEPOSIT_XPUB: node.publicExtendedKey,
      DEPOSIT_CONFIRMATIONS: String(CONFIRMATIONS),
      PAYOUT_ADDRESS: payout,
      TREASURY_ADDRESS: getAddress('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf'),
      JWT_TTL_SECONDS: String(30 * 24 * 3600),
    };
    const first = await instance(scratch.url, env, smtp);
    apps = [first, await instance(scratch.url, env, smtp, first.ctx.mailer)];
    admin = await makeUser(first, { isAdmin: true });
    closeAll = async () => {
      for (const a of apps) await a.close();
      await smtp.close();
      await scratch.destroy();
    };
  }, 180_000);
  afterAll(async () => {
    await closeAll?.();
    await chain?.stop();
  });

  it(
    `keeps money out exact under random sequences (MODEL_SEED=${SEED}, ${RUNS} runs of up to ${COMMANDS} commands)`,
    { timeout: TIME_LIMIT_MS + 5 * 60_000 },
    async () => {
      console.log(`[money-out-model] seed=${SEED} runs=${RUNS} commands<=${COMMANDS}; replay with MODEL_SEED=${SEED}`);
      const property = fc.asyncProperty(
        fc.array(
          fc.record({ amount: fc.nat({ max: AMOUNTS.length - 1 }), withdrawTo: fc.option(wallet, { freq: 3 }) }),
          {
            minLength: INVESTORS,
            maxLength: INVESTORS,
          },
        ),
        fc.commands(commandArbs, { maxCommands: COMMANDS, size: 'max', ...(REPLAY ? { replayPath: REPLAY } : {}) }),
        async (start, commands) => fc.asyncModelRun(() => setup(start), commands),
      );
      const started = Date.now();
      const out = await fc.check(property, {
        numRuns: RUNS,
        seed: SEED,
        // Shrinking reruns whole sequences: it stops in time to report what it has before the test's own timeout.
        interruptAfterTimeLimit: TIME_LIMIT_MS,
        ...(PATH ? { path: PATH, endOnFailure: true } : {}),
      });
      for (const d of namedSeen) count(`named ${d.split(' ')[0]}`);
      console.log(
        `[money-out-model] ${runs} run(s) in ${Math.round((Date.now() - started) / 1000)} s: ${[...stats]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`,
      );
      if (out.interrupted && !out.failed)
        console.log(`[money-out-model] stopped after ${out.numRuns} run(s): time limit`);
      if (out.failed) {
        console.log(
          `[money-out-model] FAILED: replay with MODEL_SEED=${out.seed} MODEL_PATH=${out.counterexamplePath ?? ''}` +
            ' (the counterexample below shows its MODEL_REPLAY replayPath)',
        );
        throw new Error(fc.defaultReportMessage(out) ?? 'the property failed', { cause: out.errorInstance });
      }
    },
  );
});
