import { randomUUID } from 'node:crypto';
import { WITHDRAWAL_COOLDOWN_MS, WITHDRAWAL_FEE_PERCENT } from '@harvest/shared/constants';
import { MSG } from '@harvest/shared/messages';
import type { Said } from '@harvest/shared/said';
import { microToText, microToUsdc } from '@harvest/shared/money';
import { type AdminWithdrawal, type Withdrawal } from '@harvest/shared/schemas/withdrawals';
import type { Chain } from '../../chain/chain.ts';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { PageRequest } from '../../db/keyset.ts';
import { inTransaction, type OnceKey } from '../../db/tx.ts';
import { lockUserAccounts, post } from '../../ledger/ledger.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { toUserRef } from '../users/users.dto.ts';
import { writeDecision } from '../audit/audit.queries.ts';
import { verifySecondFactor } from '../two-factor/two-factor.service.ts';
import { verifyStepUp } from '../passkeys/step-up.ts';
import type { Assertion } from '@harvest/shared/schemas/passkeys';
import { checkWithdrawalGate, lockWithdrawalGate } from '../withdrawal-addresses/withdrawal-gate.ts';
import { refuseHeld, refuseOverLimits } from '../withdrawal-limits/withdrawal-limits.service.ts';
import { queueMail } from '../../mail/outbox.ts';
import { inPayment } from './batches.service.ts';
import { checkPayout } from './payout-check.ts';
import { requestHold } from './withdrawals.ledger.ts';
import * as q from './withdrawals.queries.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type AdminRow = Awaited<ReturnType<typeof q.adminPage>>['rows'][number];

export function toWithdrawalDto(r: q.WithdrawalView): Withdrawal {
  const w = r.w;
  return {
    _id: w.id,
    status: w.status === 'approved' || w.status === 'rejected' ? w.status : 'pending',
    source: w.source === 'earning' || w.source === 'rewards' ? w.source : 'balance',
    requestId: w.requestId,
    amount: microToUsdc(w.amount),
    feeAmount: microToUsdc(w.feeAmount),
    netAmount: microToUsdc(w.netAmount),
    cycleNumber: w.cycleNumber,
    investmentId:
      r.invId && r.invTier !== null && r.invAmount !== null
        ? { _id: r.invId, tier: r.invTier, amount: microToUsdc(r.invAmount) }
        : null,
    walletAddress: w.walletAddress,
    requestedAt: w.requestedAt.toISOString(),
    processedAt: iso(w.processedAt),
    txHash: w.txHash,
    notes: w.notes,
    payeeRefused: w.status === 'pending' && w.payeeRefusedAt !== null,
  };
}

/**
 * The admin view: the batch holding it in payment (and until when, for a cancelled one), its owner's freeze, and whether
 * its address is proven by its wallet.
 */
export function toAdminDto(r: AdminRow, now: Date): AdminWithdrawal {
  const paying = r.w.status === 'pending' && inPayment(r, now);
  return {
    ...toWithdrawalDto(r),
    userId: toUserRef(r.user),
    batchId: paying ? r.w.batchId : null,
    inPaymentUntil: paying && r.batchStatus === 'cancelled' ? iso(r.graceUntil) : null,
    frozen: r.frozen,
    addressProven: r.addressProven,
  };
}

// ---------------------------------------------------------------- Withdraw All

export interface RequestAllResult {
  message: Said;
  requestId: string;
  count: number;
  gross: bigint;
  fee: bigint;
  net: bigint;
}

/**
 * Withdraw All, set-based whatever the number of earnings: first what is available is read (nothing
 * gives 'No available funds to withdraw' before the withdrawal password is asked about); then, in one
 * transaction, the user's accounts are locked (parallel requests or an invest queue and see what the
 * first one left), one statement marks every unrequested cycle earning and inserts one withdrawal per
 * earning (15% fee), one for the rewards and one for the balance account (no fee) and records the
 * wallet, and one ledger transaction holds the money of all of them in pending_withdrawal (the
 * request's hold: docs/decisions/0053-withdraw-all-one-hold.md).
 * The withdrawal password's argon2id check runs on the thread pool while the transaction writes, and the
 * transaction commits only once it passed: a wrong password rolls everything back (nothing changes) and
 * is answered as before; the throttle still counts the try first (docs/decisions/0051-withdraw-all-overlap.md).
 * Before any secret is asked about: frozen withdrawals, and with the address lock on a wallet that is not an active
 * address of the book, are refused (403). With the authenticator on, its code is asked for; then a security hold is
 * refused (403) before the withdrawal password. The transaction checks them again on locked rows, and the withdrawal
 * limits once the request's withdrawals are written (decision 0092).
 */
export async function requestAll(
  ctx: AppContext,
  user: AuthUser,
  input: { walletAddress: string; withdrawalPassword: string; totpCode?: string | undefined; passkey?: Assertion },
  client: { ip: string; sessionId: string | null },
  key?: OnceKey | null,
): Promise<RequestAllResult> {
  const { ip } = client;
  if (!(await q.hasAvailableFunds(ctx.db, user.id))) throw badRequest(MSG.noFunds, 'no_funds');
  await checkWithdrawalGate(ctx, user, input.walletAddress);
  // With a passkey, its assertion for exactly this address, total and list replaces the authenticator code.
  const confirmed = await withdrawAllPayload(ctx, user, input.walletAddress);
  const stepUp = await verifyStepUp(ctx, user, 'withdraw_all', confirmed, input.passkey);
  if (stepUp === 'none' && user.totpEnabled) await verifySecondFactor(ctx, user, input.totpCode, ip);
  await refuseHeld(ctx.db, ctx, user.id);
  const expected = stepUp === 'passkey' ? confirmed : null;
  // Counted before it is checked, so parallel guesses cannot outrun the limit.
  const attempt = await ctx.throttles.withdrawalPassword.begin(user.id, ip);
  const verified = verifyPassword(user.withdrawalPasswordHash, input.withdrawalPassword);
  const passwordChecked = async () => {
    if (!(await verified)) throw badRequest(MSG.withdrawalPasswordWrong);
  };
  let result: RequestAllResult;
  try {
    result = await requestAllWrites(
      ctx,
      user,
      { ...input, sessionId: client.sessionId, expected },
      passwordChecked,
      key,
    );
  } catch (err) {
    // A wrong password is the answer whatever else went wrong (it was the first thing asked).
    await passwordChecked();
    await attempt.succeeded();
    throw err;
  }
  await attempt.succeeded();
  return result;
}

/** Withdraw All's transaction; `passwordChecked` is awaited before it commits. */
function requestAllWrites(
  ctx: AppContext,
  user: AuthUser,
  input: { walletAddress: string; sessionId: string | null; expected: WithdrawAllPayload | null },
  passwordChecked: () => Promise<void>,
  key?: OnceKey | null,
): Promise<RequestAllResult> {
  return inTransaction(
    ctx.db,
    async (tx) => {
      const balances = await lockUserAccounts(tx, [user.id]);
      // After the account locks (the order every Withdraw All takes): the users row, then the book entry.
      await lockWithdrawalGate(tx, ctx, user.id, input.walletAddress);
      await refuseHeld(tx, ctx, user.id);
      const requestId = randomUUID();
      const requestedAt = ctx.clock.now();
      const made = await q.insertWithdrawAll(tx, {
        userId: user.id,
        requestId,
        sessionId: input.sessionId,
        walletAddress: input.walletAddress,
        requestedAt,
        rewards: balances.get(`${user.id}:rewards`) ?? 0n,
        balance: balances.get(`${user.id}:balance`) ?? 0n,
        feePercent: WITHDRAWAL_FEE_PERCENT,
      });
      // A parallel request took everything between the first read and the lock.
      if (made.count === 0) throw badRequest(MSG.noFunds, 'no_funds');
      // What the passkey confirmed changed between its read and the lock: it confirmed something else.
      if (input.expected && (input.expected.total !== made.gross || input.expected.withdrawals.length !== made.count))
        throw new AppError('passkey_invalid', MSG.passkeyStepUpInvalid);
      await refuseOverLimits(tx, ctx, { userId: user.id, requestId, amount: made.gross });
      await post(tx, requestHold({ requestId, userId: user.id, at: requestedAt, held: made.held }, MSG.noFunds));
      const net = made.gross - made.fee;
      await queueMail(tx, ctx, user.id, {
        kind: 'withdrawal_requested',
        count: made.count,
        gross: made.gross,
        fee: made.fee,
        net,
        wallet: input.walletAddress,
        at: requestedAt,
      });
      await passwordChecked();
      return {
        message: MSG.withdrawalRequested(made.count, made.gross, made.fee, net),
        requestId,
        count: made.count,
        gross: made.gross,
        fee: made.fee,
        net,
      };
    },
    key,
  );
}

export type WithdrawAllPayload = Awaited<ReturnType<typeof withdrawAllPayload>>;

/** What a Withdraw All to `walletAddress` would take now, as a passkey confirms it: the address, the total and the list. */
export async function withdrawAllPayload(ctx: AppContext, user: AuthUser, walletAddress: string) {
  const withdrawals = await q.availableItems(ctx.db, user.id);
  return {
    address: walletAddress.toLowerCase(),
    total: withdrawals.reduce((sum, w) => sum + w.amount, 0n),
    withdrawals,
  };
}

/** The investor's withdrawals from what sessionAndWithdrawals read with the session. */
export function myWithdrawals(screen: unknown): Withdrawal[] {
  return q.withdrawalsOf(screen).map(toWithdrawalDto);
}

/** The newest withdrawals of the whole platform (the admin overview). */
export async function recentForAdmin(ctx: AppContext, limit: number): Promise<AdminWithdrawal[]> {
  const page = await q.adminPage(ctx.db, undefined, { page: 1, pageSize: limit }, Number.MAX_SAFE_INTEGER);
  const now = ctx.clock.now();
  return page.rows.map((r) => toAdminDto(r, now));
}

/** One page of the back office's withdrawals (keyset; totals from the counters). */
export async function adminList(ctx: AppContext, opts: PageRequest & { status?: string }) {
  const c = await q.counts(ctx.db, opts.status);
  const page = await q.adminPage(ctx.db, opts.status, opts, c.matching);
  const now = ctx.clock.now();
  return {
    withdrawals: page.rows.map((r) => toAdminDto(r, now)),
    pagination: { page: opts.page, pageSize: opts.pageSize, total: c.matching },
    counts: { pending: c.pending, total: c.total },
    nextCursor: page.nextCursor,
    prevCursor: page.prevCursor,
  };
}

// ---------------------------------------------------------------- admin decisions

async function loadPending(db: Db, id: string): Promise<q.WithdrawalRow> {
  const w = await q.findWithdrawal(db, id);
  if (!w) throw notFound();
  if (w.status !== 'pending') throw conflict(MSG.withdrawalNotPending);
  return w;
}

async function adminView(ctx: AppContext, id: string): Promise<AdminWithdrawal> {
  const row = await q.adminOne(ctx.db, id);
  if (!row) throw notFound();
  return toAdminDto(row, ctx.clock.now());
}

/** Why a withdrawal in payment cannot be decided by hand: its batch decides it (or its cancelled batch's grace). */
function inPaymentError(r: q.LockedWithdrawal): AppError {
  return new AppError('in_payment', r.batchStatus === 'open' ? MSG.withdrawalInPayment : MSG.withdrawalInPaymentGrace);
}

/**
 * Locks these pending withdrawals for a decision (their owners' accounts and rows first: the order every money path
 * takes) and refuses what must stop it: not pending, a frozen account, and, unless a payout found on chain decides
 * it, a payout batch holding it.
 */
async function lockPending(
  tx: Tx,
  ctx: AppContext,
  ids: string[],
  ownerIds: string[],
  opts: { paying: boolean; foundOnChain: boolean },
): Promise<q.WithdrawalRow[]> {
  await lockUserAccounts(tx, ownerIds);
  const { frozen, rows } = await q.lockForDecision(tx, ids, ownerIds);
  const now = ctx.clock.now();
  if (rows.length !== ids.length || rows.some((r) => r.w.status !== 'pending'))
    throw conflict(MSG.withdrawalNotPending);
  if (opts.paying && rows.some((r) => frozen.has(r.w.userId)))
    throw new AppError('withdrawals_frozen', MSG.withdrawalAccountFrozen);
  const held = opts.foundOnChain ? undefined : rows.find((r) => inPayment(r, now));
  if (held) throw inPaymentError(held);
  return rows.map((r) => r.w);
}

const PAYOUT_REFUSED = {
  not_found: MSG.payoutNotFound,
  reverted: MSG.payoutReverted,
  not_usdc: MSG.payoutWrongToken,
  wrong_sender: MSG.payoutWrongSender,
  wrong_recipient: MSG.payoutWrongRecipient,
} as const;

/** The chain's proof of a payout, or the refusal an administrator can act on. */
async function provePayout(ctx: AppContext, chain: Chain, txHash: string, wallet: string): Promise<{ value: bigint }> {
  if (!ctx.config.PAYOUT_ADDRESS) throw new AppError('unavailable', MSG.payoutAddressMissing);
  const check = await checkPayout(chain, txHash, ctx.config.PAYOUT_ADDRESS, wallet);
  switch (check.kind) {
    case 'paid':
      return { value: check.value };
    case 'refused':
      throw badRequest(PAYOUT_REFUSED[check.why], 'chain_mismatch');
    case 'unavailable':
      ctx.log.warn({ txHash, err: check.message }, 'payout check: chain RPC unavailable');
      throw new AppError('upstream_error', MSG.payoutChainUnreachable);
  }
}

/**
 * Approves a pending withdrawal with the payout's transaction hash (an administrator's call; the watcher and
 * an administrator's choice of a found payout go through `approvePaidBy`).
 */
export async function approve(
  ctx: AppContext,
  admin: AuthUser,
  input: { withdrawalId: string; txHash: string; notes: string | null },
  ip: string,
  key?: OnceKey | null,
): Promise<AdminWithdrawal> {
  await approvePaidBy(
    ctx,
    { admin, ip },
    { withdrawalIds: [input.withdrawalId], txHash: input.txHash, notes: input.notes, foundOnChain: false },
    undefined,
    key,
  );
  return adminView(ctx, input.withdrawalId);
}

/**
 * Approves pending withdrawals of one wallet paid by one transaction, in one database transaction, with every check
 * an approval makes (decisions 0008, 0071). With a chain the hash must prove USDC transfers from the payout address
 * to that wallet, and the net amounts of everything approved with this hash for this wallet may not exceed what
 * they carried (the payout_transactions row of the hash and wallet is the lock). Without a chain a hash pays one
 * request only. A frozen account's withdrawal is never approved; one in a payout batch only by a payout found on chain
 * (`foundOnChain`: the batch's own transfer). `by.admin` null: the watcher found the payout (no audit row; the payout
 * transfer records it).
 */
export async function approvePaidBy(
  ctx: AppContext,
  by: { admin: AuthUser | null; ip: string | null },
  input: { withdrawalIds: string[]; txHash: string; notes: string | null; foundOnChain: boolean },
  /** Written in the same transaction (the found payout transfer's state). */
  alsoWrite?: (tx: Db) => Promise<void>,
  /** The administrator's request's Idempotency-Key (none for the watcher). */
  key?: OnceKey | null,
): Promise<q.WithdrawalRow[]> {
  const paid = await provePaid(ctx, input);
  return inTransaction(
    ctx.db,
    async (tx) => {
      const decided = await decidePaid(ctx, tx, by, input, paid);
      await alsoWrite?.(tx);
      return decided;
    },
    key,
  );
}

/** What an approval by hash checks before its transaction: the withdrawals pending, one wallet, the chain's proof. */
export async function provePaid(ctx: AppContext, input: { withdrawalIds: string[]; txHash: string }): Promise<Paid> {
  const current = await Promise.all(input.withdrawalIds.map((id) => loadPending(ctx.db, id)));
  const wallet = current[0]?.walletAddress;
  if (!wallet || current.some((w) => w.walletAddress !== wallet)) throw badRequest(MSG.payoutOneWallet);
  // With a chain configured every approval is proven on chain; without one the hash is recorded as given.
  const proof = ctx.chain ? await provePayout(ctx, ctx.chain, input.txHash, wallet) : null;
  const net = current.reduce((n, w) => n + w.netAmount, 0n);
  if (proof && proof.value < net) throw badRequest(MSG.payoutShort, 'chain_mismatch');
  return { current, wallet, proof };
}

export interface Paid {
  current: q.WithdrawalRow[];
  wallet: string;
  proof: { value: bigint } | null;
}

/** The approval by hash in the caller's transaction (an administrator's, the watcher's, or a four-eyes approval's). */
export async function decidePaid(
  ctx: AppContext,
  tx: Tx,
  by: { admin: AuthUser | null; ip: string | null },
  input: { withdrawalIds: string[]; txHash: string; notes: string | null; foundOnChain: boolean },
  { current, wallet, proof }: Paid,
): Promise<q.WithdrawalRow[]> {
  const now = ctx.clock.now();
  await lockPending(
    tx,
    ctx,
    input.withdrawalIds,
    current.map((w) => w.userId),
    { paying: true, foundOnChain: input.foundOnChain },
  );
  const decided: q.WithdrawalRow[] = [];
  for (const id of input.withdrawalIds) {
    const w = await q.decidePending(tx, id, {
      status: 'approved',
      processedAt: now,
      processedBy: by.admin?.id ?? null,
      txHash: input.txHash,
      notes: input.notes,
    });
    if (!w) throw conflict(MSG.withdrawalNotPending);
    decided.push(w);
  }
  const bound = await q.claimPayoutTx(tx, {
    createdAt: now,
    txHash: input.txHash,
    requestId: decided[0]!.requestId,
    walletAddress: wallet,
    chainValue: proof?.value ?? null,
  });
  if (!proof) {
    if (decided.some((w) => w.requestId !== bound.requestId)) throw conflict(MSG.hashUsedElsewhere);
    if (await q.hashUsedForOtherWallet(tx, input.txHash, wallet)) throw conflict(MSG.hashOtherWallet);
  }
  if (proof) {
    // These withdrawals are already marked approved with the hash, so the sum includes them.
    const paid = await q.approvedNetFor(tx, input.txHash, wallet);
    if (paid > proof.value) throw badRequest(MSG.payoutShort, 'chain_mismatch');
  }
  for (const w of decided) {
    await post(tx, {
      kind: 'withdrawal_payout',
      refId: w.id,
      createdBy: by.admin?.id ?? null,
      createdAt: now,
      memo: input.txHash,
      legs: [
        { account: { userId: w.userId, kind: 'pending_withdrawal' }, amount: -w.amount },
        { account: { platform: 'platform_payouts' }, amount: w.netAmount },
        ...(w.feeAmount > 0n ? [{ account: { platform: 'platform_fees' as const }, amount: w.feeAmount }] : []),
      ],
    });
    if (w.source === 'earning' && w.investmentId)
      await q.startCooldown(tx, w.investmentId, now, new Date(now.getTime() + WITHDRAWAL_COOLDOWN_MS));
    // No administrator: the watcher found the payout on chain and completed it (the platform is the actor).
    await writeDecision(tx, {
      adminId: by.admin?.id ?? null,
      action: by.admin ? 'withdrawal_approve' : 'withdrawal_paid_on_chain',
      targetType: 'withdrawal',
      targetId: w.id,
      status: 'approved',
      facts: {
        txHash: input.txHash,
        netAmount: microToText(w.netAmount),
        chainValue: proof ? microToText(proof.value) : null,
        batchId: w.batchId,
      },
      note: input.notes,
      at: now,
      ip: by.ip,
    });
  }
  await mailRequestsPaid(tx, ctx, decided);
  await q.completeBatchesOf(tx, decided, now);
  return decided;
}

/** Rejects a pending withdrawal not in payment: the held money goes back where it came from, exactly once. */
export async function reject(
  ctx: AppContext,
  admin: AuthUser,
  input: { withdrawalId: string; notes: string | null },
  ip: string,
  key?: OnceKey | null,
): Promise<AdminWithdrawal> {
  const current = await loadPending(ctx.db, input.withdrawalId);
  await inTransaction(
    ctx.db,
    async (tx) => {
      await lockPending(tx, ctx, [current.id], [current.userId], { paying: false, foundOnChain: false });
      const { w, back } = await releaseWithdrawal(tx, ctx, current.id, { by: admin.id, notes: input.notes });
      await writeDecision(tx, {
        adminId: admin.id,
        action: 'withdrawal_reject',
        targetType: 'withdrawal',
        targetId: w.id,
        status: 'rejected',
        facts: { returnedTo: back, amount: microToText(w.amount) },
        note: input.notes,
        at: ctx.clock.now(),
        ip,
      });
    },
    key,
  );
  return adminView(ctx, input.withdrawalId);
}

/**
 * Rejects a locked pending withdrawal in the caller's transaction: the held money goes back to the account it came
 * from (an earning becomes available again), and its owner is mailed with `notes` (a known text is translated).
 */
export async function releaseWithdrawal(
  tx: Tx,
  ctx: AppContext,
  id: string,
  o: { by: string | null; notes: string | null },
): Promise<{ w: q.WithdrawalRow; back: 'earnings' | 'rewards' | 'balance' }> {
  const now = ctx.clock.now();
  const w = await q.decidePending(tx, id, { status: 'rejected', processedAt: now, processedBy: o.by, notes: o.notes });
  if (!w) throw conflict(MSG.withdrawalNotPending);
  const back = w.source === 'earning' ? 'earnings' : w.source === 'rewards' ? 'rewards' : 'balance';
  await post(tx, {
    kind: 'withdrawal_release',
    refId: w.id,
    createdBy: o.by,
    createdAt: now,
    legs: [
      { account: { userId: w.userId, kind: 'pending_withdrawal' }, amount: -w.amount },
      { account: { userId: w.userId, kind: back }, amount: w.amount },
    ],
  });
  if (w.source === 'earning' && w.cycleEarningId) await q.markEarningsRequested(tx, [w.cycleEarningId], false);
  await queueMail(tx, ctx, w.userId, {
    kind: 'withdrawal_rejected',
    amount: w.amount,
    returnedTo: back,
    notes: o.notes,
    at: now,
  });
  await mailRequestsPaid(tx, ctx, [w]);
  return { w, back };
}

/**
 * The "paid" e-mail: one per Withdraw All request, queued when its last pending withdrawal is decided, with what was
 * approved and every transfer that paid it (a request paid by two transfers, or partly rejected, tells its owner
 * once). The owner's accounts are locked by the caller, so two transfers of one request settle one after the other.
 */
async function mailRequestsPaid(tx: Tx, ctx: AppContext, decided: q.WithdrawalRow[]): Promise<void> {
  for (const one of new Map(decided.map((w) => [w.requestId, w])).values()) {
    const all = await q.requestWithdrawals(tx, one);
    if (all.some((w) => w.status === 'pending')) continue;
    const paid = all.filter((w) => w.status === 'approved');
    if (paid.length === 0) continue;
    const sum = (f: (w: q.WithdrawalRow) => bigint) => paid.reduce((n, w) => n + f(w), 0n);
    const distinct = (f: (w: q.WithdrawalRow) => string | null) => [...new Set(paid.flatMap((w) => f(w) ?? []))];
    await queueMail(tx, ctx, one.userId, {
      kind: 'withdrawal_approved',
      amount: sum((w) => w.amount),
      fee: sum((w) => w.feeAmount),
      net: sum((w) => w.netAmount),
      wallet: one.walletAddress,
      txHashes: distinct((w) => w.txHash),
      notes: distinct((w) => w.notes).join('; ') || null,
      at: ctx.clock.now(),
    });
  }
}

/**
 * "This wasn't me" takes back what the reported session asked for, or what goes to the reported address: each such
 * pending withdrawal not in payment is rejected (the money is back in the owner's account); one in payment stays,
 * frozen. In the caller's transaction, after it locked the owner's accounts and row.
 */
export async function releaseReported(
  tx: Tx,
  ctx: AppContext,
  userId: string,
  report: { sessionId?: string; wallet?: string },
): Promise<number> {
  const ids = (await q.pendingOfReport(tx, userId, report)).map((r) => r.id);
  if (ids.length === 0) return 0;
  const { rows } = await q.lockForDecision(tx, ids, [userId]);
  const now = ctx.clock.now();
  let released = 0;
  for (const r of rows) {
    if (r.w.status !== 'pending' || inPayment(r, now)) continue;
    await releaseWithdrawal(tx, ctx, r.w.id, { by: null, notes: MSG.notMeWithdrawalRejected });
    released++;
  }
  return released;
}
